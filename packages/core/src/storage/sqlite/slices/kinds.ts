/**
 * Slices: the sets of sessions one filter condition selects, named by a kind and a value,
 * and which selections a slice answers (`slicePlan`). One condition, `is` one value:
 *
 * - a session attribute (`country is DE`): the sessions with that value (each session has one);
 * - `page is p`: the sessions with a pageview of `p`, whose selected pageviews are `p`'s;
 * - `event is n`: the sessions with a custom event `n`, whose selected custom events are `n`s;
 * - `goal is g` (one goal): the sessions converting on it: an event goal's are `event` slices'
 *   sessions, a page goal's without `*` a `page` slice's, a pattern goal's its own `goal` slice
 *   (made for the site's goals of the day's computation); all of their events are selected.
 *
 * `all` (every session) carries only what rollups lack: goals and properties unfiltered.
 */
import type { GoalDefinition } from '../../../goals/goal.js';
import { hasConditions } from '../../selection.js';
import type { Selection, SessionAttribute, SessionDimension } from '../../types.js';
import { stepsKey } from '../sqlite-scan-funnel.js';

export type SliceKind = SessionAttribute | 'page' | 'event' | 'goal' | 'all';

/** The dimensions a slice's sessions are summed by (the breakdown endpoints' and the entry page of /pages). */
export const BREAKDOWNS: readonly (SessionDimension | 'entryPath')[] = ['referrerSource', 'channel', 'countryCode', 'deviceType', 'browser', 'os', 'utm', 'entryPath'];

/** A goal as slices key it: type and value (its display name may change, what it counts may not). */
export const goalKey = (goal: GoalDefinition): string => `${goal.type}\u0000${goal.value}`;

/**
 * A funnel as slices key it: its steps' types and values in order, as JSON after a mark no goal
 * key starts with (a goal's type is `page` or `event`), so the day's state lists both in one set.
 * @example funnelKey([{ type: 'page', value: '/pricing' }, { type: 'event', value: 'signup' }])
 * // 'funnel [["page","/pricing"],["event","signup"]]'
 */
export const funnelKey = (steps: readonly GoalDefinition[]): string => `funnel ${stepsKey(steps)}`;

/** What a site's slices are computed for besides its data: its goals and its saved funnels' steps. */
export interface SliceSettings {
  goals: readonly GoalDefinition[];
  funnels: readonly (readonly GoalDefinition[])[];
}

/** The settings with each funnel's steps once (two saved funnels may have the same steps under two names). */
export const distinctFunnels = (settings: SliceSettings): SliceSettings => ({
  goals: settings.goals,
  funnels: [...new Map(settings.funnels.map((steps) => [funnelKey(steps), steps])).values()],
});

/** The keys of what a day is computed for (the day's state lists them): its goals', then its funnels'. */
export const settingKeys = (settings: SliceSettings): string[] => [...settings.goals.map(goalKey), ...distinctFunnels(settings).funnels.map(funnelKey)];

/** A page goal with a pattern: its converting sessions are a slice of their own. */
export const isPatternGoal = (goal: GoalDefinition): boolean => goal.type === 'page' && goal.value.includes('*');

/**
 * How a selection reads from slices: the slice, and what of its sessions' events it selects:
 * `all` (every pageview and custom event), `page` (pageviews of the slice's path only) or
 * `event` (custom events of the slice's name only). `goal` names the pattern goal a `goal`
 * slice needs computed.
 */
export interface SlicePlan {
  kind: SliceKind;
  slice: string;
  selects: 'all' | 'page' | 'event';
  goal?: string;
}

/** The unfiltered reads that rollups cannot answer (goals, properties). */
export const EVERYTHING: SlicePlan = { kind: 'all', slice: '', selects: 'all' };

/**
 * The slice that answers `selection`, or undefined when none does (more than one condition,
 * an operator other than `is`, several values, a `prop:` condition, a goal condition
 * naming no goal, several, or none converting).
 * @example slicePlan({ session: [{ attribute: 'countryCode', operator: 'is', values: ['DE'] }], page: [], event: [] })
 * // { kind: 'countryCode', slice: 'DE', selects: 'all' }
 */
export function slicePlan(selection: Selection | undefined): SlicePlan | undefined {
  if (!selection || !hasConditions(selection)) return EVERYTHING;
  const { session, page, event, prop = [], goal = [] } = selection;
  if (session.length + page.length + event.length + prop.length + goal.length !== 1) return undefined;
  const single = (c: { operator: string; values: readonly string[] }) => c.operator === 'is' && c.values.length === 1;
  const [s] = session;
  if (s) return single(s) ? { kind: s.attribute, slice: s.values[0]!, selects: 'all' } : undefined;
  const [p] = page;
  if (p) return single(p) ? { kind: 'page', slice: p.values[0]!, selects: 'page' } : undefined;
  const [e] = event;
  if (e) return single(e) ? { kind: 'event', slice: e.values[0]!, selects: 'event' } : undefined;
  const [g] = goal;
  if (!g || !g.converts || g.goals.length !== 1) return undefined;
  const one = g.goals[0]!;
  if (one.type === 'event') return { kind: 'event', slice: one.value, selects: 'all' };
  if (!isPatternGoal(one)) return { kind: 'page', slice: one.value, selects: 'all' };
  return { kind: 'goal', slice: one.value, selects: 'all', goal: goalKey(one) };
}

/** Attributes a second condition may name for a pair (the dimensions the totals are summed by, besides the UTM triple). */
const PAIRED: readonly SessionAttribute[] = ['referrerSource', 'channel', 'countryCode', 'deviceType', 'browser', 'os', 'entryPath'];

/**
 * For `/stats` and `/stats/timeseries` (and the visitors of `/goals`' conversion rate): a
 * selection of two conditions that reads one slice's totals by a breakdown dimension's
 * value, when one condition is `is` one value of such an attribute and the other has a
 * slice of its own (not a page goal, whose slice counts its path's pageviews only).
 * @example pairPlan(compileSelection([['is', 'country', ['DE']], ['is', 'page', ['/pricing']]]))
 * // { kind: 'page', slice: '/pricing', selects: 'page', pair: { dimension: 'countryCode', value: 'DE' } }
 */
export function pairPlan(selection: Selection | undefined): (SlicePlan & { pair: { dimension: string; value: string } }) | undefined {
  if (!selection) return undefined;
  const { session, page, event, prop = [], goal = [] } = selection;
  if (session.length + page.length + event.length + prop.length + goal.length !== 2) return undefined;
  for (const [i, c] of session.entries()) {
    if (!PAIRED.includes(c.attribute) || c.operator !== 'is' || c.values.length !== 1) continue;
    const plan = slicePlan({ ...selection, session: session.filter((_, j) => j !== i) });
    if (!plan || plan === EVERYTHING || (plan.kind === 'page' && plan.selects === 'all')) continue;
    return { ...plan, pair: { dimension: c.attribute, value: c.values[0]! } };
  }
  return undefined;
}
