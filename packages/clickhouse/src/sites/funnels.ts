/**
 * Rows and reads of the `funnels` table (migration 10): every change is a row, the newest
 * `version` of a (site, name) wins, `deleted` 1 removes the funnel. Scalar columns out (a tuple
 * would arrive as an array or an object, by server setting).
 */
import type { Funnel } from '@siteline/core';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

export interface FunnelRead {
  name: string;
  funnel_steps: string;
  funnel_created: string;
}

/** The site's funnels, newest version of each name, deleted ones left out. */
export function funnelsSql(t: SchemaTarget, siteId: string): string {
  return `SELECT name, tupleElement(f, 1) AS funnel_steps, tupleElement(f, 2) AS funnel_created, tupleElement(f, 3) AS funnel_deleted
    FROM (SELECT name, argMax((steps, created_at, deleted), version) AS f FROM ${tableName(t, 'funnels')}
      WHERE site_id = ${sqlString(siteId)} GROUP BY name)
    WHERE funnel_deleted = 0`;
}

/** A stored funnel: its steps are the JSON array the API takes. */
export const toFunnel = (siteId: string, row: FunnelRead): Funnel => ({
  siteId,
  name: row.name,
  steps: JSON.parse(row.funnel_steps) as Funnel['steps'],
  createdAt: row.funnel_created,
});

/** A `funnels` row: the funnel as it is from `version` on (`deleted`: removed). */
export const funnelRow = (funnel: Funnel, deleted: boolean, version: number) => ({
  site_id: funnel.siteId, name: funnel.name, steps: JSON.stringify(funnel.steps), created_at: funnel.createdAt, deleted: deleted ? 1 : 0, version,
});
