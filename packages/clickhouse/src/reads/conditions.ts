import type { Condition, GoalDefinition, Selection } from '@siteline/core';
import { likePattern, sqlString } from '../connection/escape.js';

/**
 * The conditions of a selection (query-extensions.md, properties-goals.md) as ClickHouse
 * SQL, each written once: on a string column, on an element of a session's `paths` or
 * `names`, on a custom event's properties, and goals met by an event row or by a session
 * row. Values only through escape.ts.
 */

/**
 * A condition on a string column as ClickHouse SQL, exactly `conditionHolds`
 * of the core: `IN` / `NOT IN` compare bytes, `position(...) > 0` is a byte
 * substring (`''` is in every string, as in JavaScript).
 *
 * @example
 * conditionSql('path', { operator: 'contains', values: ['/blog/'] }) // "(position(path, '/blog/') > 0)"
 */
export function conditionSql(column: string, condition: Condition): string {
  const list = condition.values.map(sqlString).join(', ');
  const found = () => `(${condition.values.map((v) => (v === '' ? '1' : `position(${column}, ${sqlString(v)}) > 0`)).join(' OR ')})`;
  switch (condition.operator) {
    case 'is':
      return `${column} IN (${list})`;
    case 'is_not':
      return `${column} NOT IN (${list})`;
    case 'contains':
      return found();
    case 'contains_not':
      return `NOT ${found()}`;
  }
}

export const allSql = (column: string, conditions: readonly Condition[]): string[] => conditions.map((c) => conditionSql(column, c));

/**
 * "One element `x` of the array column `array` passes every condition", as
 * `arrayExists`: a page or event condition on a session's own `paths` or
 * `names` (schema version 6). List membership is `has([...], x)` here: the
 * lambda reads nothing but its element and constants.
 */
export function someElementSql(array: 'paths' | 'names', conditions: readonly Condition[]): string {
  const [only] = conditions;
  // One `is` condition: `hasAny`, a look-up without a lambda over every element.
  if (conditions.length === 1 && only!.operator === 'is') return `hasAny(${array}, [${only!.values.map(sqlString).join(', ')}])`;
  const holds = conditions.map((c) => {
    const list = `[${c.values.map(sqlString).join(', ')}]`;
    if (c.operator === 'is') return `has(${list}, x)`;
    if (c.operator === 'is_not') return `NOT has(${list}, x)`;
    return conditionSql('x', c);
  });
  return `arrayExists(x -> ${holds.join(' AND ')}, ${array})`;
}

/** The value of property `key` on an `events` row, `''` when the row lacks the key (`propValue` of the core). */
export const propValueSql = (key: string): string => `if(has(prop_keys, ${sqlString(key)}), prop_values[indexOf(prop_keys, ${sqlString(key)})], '')`;

/** "A custom event row passes the `event` and `prop:` conditions" (`eventPasses` of the core), as `WHERE` terms. */
export const passesSql = (selection: Selection): string[] => [
  ...allSql('name', selection.event),
  ...(selection.prop ?? []).map((c) => conditionSql(propValueSql(c.key), c)),
];

/** A page goal's pattern without `*` names one path: equality, the same as `LIKE` of the escaped pattern. */
const exactPath = (goal: GoalDefinition): boolean => goal.type === 'page' && !goal.value.includes('*');

/** "A path matches the page goal's pattern": `LIKE` it, or equality when it has no `*`. */
export const pathMatchesSql = (goal: GoalDefinition): string =>
  (exactPath(goal) ? `path = ${sqlString(goal.value)}` : `path LIKE ${sqlString(likePattern(goal.value))}`);

/** "An `events` row meets the goal" (`meetsGoal` of the core): a custom event of its name, or a pageview whose path is `LIKE` its pattern. */
export const meetsSql = (goal: GoalDefinition): string => {
  if (goal.type === 'event') return `(type = 'event' AND name = ${sqlString(goal.value)})`;
  return `(type = 'pageview' AND ${pathMatchesSql(goal)})`;
};

/** "A session has an event meeting the goal", on its `sessions` row: one of its `names`, or one of its `paths` `LIKE` the pattern. */
export const sessionMeetsSql = (goal: GoalDefinition): string => {
  if (goal.type === 'event' || exactPath(goal)) return `has(${goal.type === 'event' ? 'names' : 'paths'}, ${sqlString(goal.value)})`;
  return `arrayExists(x -> x LIKE ${sqlString(likePattern(goal.value))}, paths)`;
};

/** "An `events` row meets one of the goals" (`0` for none). */
export const meetsAnySql = (goals: readonly GoalDefinition[]): string => (goals.length === 0 ? '0' : `(${goals.map(meetsSql).join(' OR ')})`);

export const NONE: Selection = { session: [], page: [], event: [], prop: [], goal: [] };
