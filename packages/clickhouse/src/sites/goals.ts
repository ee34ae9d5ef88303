/**
 * Rows and reads of the `goals` table (migration 4): every change is a row, the newest
 * `version` of a (site, display name) wins, `deleted` 1 removes the goal. Scalar columns
 * out (a tuple would arrive as an array or an object, by server setting).
 */
import type { Goal } from '@siteline/core';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

export interface GoalRead {
  name: string;
  goal_type: string;
  goal_value: string;
  goal_created: string;
}

/** The site's goals, newest version of each name, deleted ones left out. */
export function goalsSql(t: SchemaTarget, siteId: string): string {
  return `SELECT name, tupleElement(g, 1) AS goal_type, tupleElement(g, 2) AS goal_value, tupleElement(g, 3) AS goal_created,
      tupleElement(g, 4) AS goal_deleted
    FROM (SELECT name, argMax((type, value, created_at, deleted), version) AS g FROM ${tableName(t, 'goals')}
      WHERE site_id = ${sqlString(siteId)} GROUP BY name)
    WHERE goal_deleted = 0`;
}

export const toGoal = (siteId: string, row: GoalRead): Goal => ({
  siteId,
  name: row.name,
  type: row.goal_type === 'page' ? 'page' : 'event',
  value: row.goal_value,
  createdAt: row.goal_created,
});

/** A `goals` row: the goal as it is from `version` on (`deleted`: removed). */
export const goalRow = (goal: Goal, deleted: boolean, version: number) => ({
  site_id: goal.siteId, name: goal.name, type: goal.type, value: goal.value, created_at: goal.createdAt, deleted: deleted ? 1 : 0, version,
});

/**
 * Versions that increase within a process even for two changes in one millisecond
 * (microseconds of the clock, or the last one plus one). Across processes the clock decides.
 */
export function goalVersions(now: () => number = Date.now): () => number {
  let last = 0;
  return () => (last = Math.max(now() * 1000, last + 1));
}
