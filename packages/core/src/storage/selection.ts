/**
 * Filters as the storage sees them: the compiled `Selection` of a query and the
 * one reference predicate for a condition. Adapters, tests and the bench's
 * naive scan evaluate conditions with `conditionHolds` (or an exact
 * translation of it), so every storage selects the same rows.
 */
import { type Goal, type GoalDefinition, meetsGoal } from '../goals/goal.js';
import { PROP_DIMENSION_PREFIX } from '../query/messages.js';
import type { FilterCondition, FilterDimension, FilterOperator, PropDimension } from '../types.js';
import type { AttributeCondition, Condition, GoalCondition, PropCondition, PropEntry, Selection, SessionAttribute } from './types.js';

/** The stored session attribute each session dimension of a filter reads. */
export const FILTER_ATTRIBUTES = {
  entry_page: 'entryPath',
  source: 'referrerSource',
  channel: 'channel',
  country: 'countryCode',
  device_type: 'deviceType',
  browser: 'browser',
  os: 'os',
  utm_source: 'utmSource',
  utm_medium: 'utmMedium',
  utm_campaign: 'utmCampaign',
} as const satisfies Record<Exclude<FilterDimension, 'page' | 'event' | 'goal' | PropDimension>, SessionAttribute>;

/**
 * The column each session attribute is stored in by the built-in stores (SQLite's and
 * ClickHouse's `sessions` tables): the attribute's name in snake case. A fixed map,
 * never user input, so an adapter may splice it into SQL.
 */
export const SESSION_ATTRIBUTE_COLUMN = {
  entryPath: 'entry_path',
  referrerSource: 'referrer_source',
  channel: 'channel',
  countryCode: 'country_code',
  deviceType: 'device_type',
  browser: 'browser',
  os: 'os',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
} as const satisfies Record<SessionAttribute, string>;

/** A session's attributes keyed by those columns, as a built-in store's `sessions` row holds them. */
export type SessionAttributeColumns = { [A in SessionAttribute as (typeof SESSION_ATTRIBUTE_COLUMN)[A]]: string };

/**
 * Whether `value` satisfies `condition`: `is` equals one of the values, `is_not`
 * equals none, `contains` has one as a substring, `contains_not` has none.
 * Exact and case-sensitive (string equality and substring on the stored text,
 * which for well-formed text is byte equality and byte substring in UTF-8).
 *
 * @example
 * conditionHolds({ operator: 'contains', values: ['/blog/'] }, '/blog/intro') // true
 * conditionHolds({ operator: 'is_not', values: ['DE', 'AT'] }, 'DE') // false
 */
export function conditionHolds(condition: Condition, value: string): boolean {
  switch (condition.operator) {
    case 'is':
      return condition.values.includes(value);
    case 'is_not':
      return !condition.values.includes(value);
    case 'contains':
      return condition.values.some((v) => value.includes(v));
    case 'contains_not':
      return !condition.values.some((v) => value.includes(v));
  }
}

/**
 * Whether every condition holds for `value` (true for none).
 * @example allHold([{ operator: 'contains', values: ['/docs'] }, { operator: 'is_not', values: ['/docs/old'] }], '/docs/new') // true
 */
export function allHold(conditions: readonly Condition[], value: string): boolean {
  return conditions.every((c) => conditionHolds(c, value));
}

/** Whether a filter dimension is `prop:<key>`. */
export const isPropDimension = (dimension: FilterDimension): dimension is PropDimension => dimension.startsWith(PROP_DIMENSION_PREFIX);

/** The operator that selects what `is_not` / `contains_not` exclude. */
const POSITIVE: Record<FilterOperator, 'is' | 'contains'> = { is: 'is', is_not: 'is', contains: 'contains', contains_not: 'contains' };

/**
 * The `Selection` of a query's filters, or `undefined` when there are none (an
 * unfiltered query reaches the storage without one). `goal` conditions are resolved
 * against the site's `goals` (display names): `is` / `contains` select sessions that
 * convert on one of the goals named (or whose name contains a value), `is_not` /
 * `contains_not` those that convert on none of them; a name that is no goal matches
 * no conversion.
 *
 * @example
 * compileSelection([['is', 'country', ['DE']], ['is_not', 'page', ['/']]]);
 * // { session: [{ attribute: 'countryCode', operator: 'is', values: ['DE'] }], page: [{ operator: 'is_not', values: ['/'] }], event: [], prop: [], goal: [] }
 */
export function compileSelection(filters: readonly FilterCondition[], goals: readonly Goal[] = []): Selection | undefined {
  if (filters.length === 0) return undefined;
  const session: AttributeCondition[] = [];
  const page: Condition[] = [];
  const event: Condition[] = [];
  const prop: PropCondition[] = [];
  const goal: GoalCondition[] = [];
  for (const [operator, dimension, values] of filters) {
    if (dimension === 'page') page.push({ operator, values });
    else if (dimension === 'event') event.push({ operator, values });
    else if (dimension === 'goal') {
      const named = goals.filter((g) => conditionHolds({ operator: POSITIVE[operator], values }, g.name)).map(({ type, value }) => ({ type, value }));
      goal.push({ converts: operator === POSITIVE[operator], goals: named });
    } else if (isPropDimension(dimension)) prop.push({ key: dimension.slice(PROP_DIMENSION_PREFIX.length), operator, values });
    else session.push({ attribute: FILTER_ATTRIBUTES[dimension], operator, values });
  }
  return { session, page, event, prop, goal };
}

/**
 * The value of property `key` on an event (`''` when it does not carry the key), as a
 * `prop:` condition reads it.
 * @example propValue([['plan', 'pro']], 'seats') // ''
 */
export function propValue(props: readonly PropEntry[] | undefined, key: string): string {
  if (props) for (const [k, v] of props) if (k === key) return v;
  return '';
}

/**
 * Whether a custom event passes the selection's `event` and `prop` conditions (the
 * reference for adapters, tests and the bench's naive scan).
 * @example eventPasses(selection, 'Signup', [['plan', 'pro']])
 */
export function eventPasses(selection: Selection, name: string, props: readonly PropEntry[] | undefined): boolean {
  return allHold(selection.event, name) && (selection.prop ?? []).every((c) => conditionHolds(c, propValue(props, c.key)));
}

/** An event as a goal reads it. */
export interface GoalEvent {
  type: 'pageview' | 'event';
  name: string;
  path: string;
}

/**
 * Whether a session whose events (all of them, whatever their day) are `events` satisfies a
 * `goal` condition: converts on one of its goals when `converts`, on none otherwise.
 * @example goalConditionHolds({ converts: true, goals: [{ type: 'event', value: 'Signup' }] }, events)
 */
export function goalConditionHolds(condition: GoalCondition, events: Iterable<GoalEvent>): boolean {
  return convertsOnAny(condition.goals, events) === condition.converts;
}

/** Whether one of `events` meets one of `goals`. */
export function convertsOnAny(goals: readonly GoalDefinition[], events: Iterable<GoalEvent>): boolean {
  for (const e of events) if (goals.some((g) => meetsGoal(g, e.type, e.name, e.path))) return true;
  return false;
}

/** Whether a selection has any condition at all (an empty one selects everything). */
export const hasConditions = (s: Selection): boolean =>
  s.session.length + s.page.length + s.event.length + (s.prop?.length ?? 0) + (s.goal?.length ?? 0) > 0;

/**
 * The bucket an instant falls in, for `Storage.hourBuckets`: the index of the last of the
 * ascending `starts` at or before `ts` (callers pass instants inside the range, so at or
 * after `starts[0]`). Binary search: a week of hours is 169 starts.
 * @example bucketIndex([0, 3_600_000, 7_200_000], 3_700_000) // 1
 */
export function bucketIndex(starts: readonly number[], ts: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= ts) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
