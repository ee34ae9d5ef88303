import { UnsupportedQueryError } from '../errors.js';
import { compareBytes, sortRows } from '../metrics/order.js';
import { conversionRate } from '../metrics/metrics.js';
import type { Query } from '../query/parse.js';
import type { DayRange, Storage } from '../storage/types.js';
import type { ComparedGoalsResponse, GoalRow, GoalsResponse } from '../types.js';
import { attachComparison } from './compare.js';
import { importedPlan, readBoth, type ReportOptions, resolveQuery, siteGoals, statsVisitors, withNote } from './resolve.js';

/**
 * `/goals` (properties-goals.md section 4): every goal of the site, zeros included, with
 * its visitors, conversions and conversion rate (over the `/stats` visitors of the same
 * query); ordered by visitors, conversions, conversion rate, then goal (byte order). With
 * `compare`, each goal's numbers over the compared range, the rate over that range's own
 * visitors. No `limit`: every goal is listed.
 *
 * @example
 * const { goals } = await getGoals(storage, parseQuery('goals', { site_id: 'ST-demo', period: '7d' }));
 * // [{ goal: 'Signup', visitors: 12, conversions: 14, conversion_rate: 3.1 }, ...]
 */
export async function getGoals(storage: Storage, query: Query, options?: ReportOptions): Promise<GoalsResponse | ComparedGoalsResponse> {
  const resolved = await resolveQuery(storage, query, options);
  const plan = await importedPlan(storage, resolved, { kind: 'never', reason: 'Goals are computed from events; imported data has none.' });
  const goals = (await siteGoals(storage, resolved.site.id)).sort((a, b) => compareBytes(a.name, b.name));
  const totals = storage.goalTotals?.bind(storage);
  if (!totals) throw new UnsupportedQueryError(`The ${storage.kind} storage declares goals but has no goalTotals read.`);
  const rowsIn = async (range: DayRange): Promise<GoalRow[]> => {
    if (goals.length === 0) return [];
    const [perGoal, all] = await Promise.all([totals(range, goals, resolved.selection), statsVisitors(storage, range, resolved.selection)]);
    return goals.map((g, i) => {
      const { visitors, conversions } = perGoal[i] ?? { visitors: 0, conversions: 0 };
      return { goal: g.name, visitors, conversions, conversion_rate: conversionRate(visitors, all) };
    });
  };
  const [main, other] = await readBoth(resolved, rowsIn);
  const rows = sortRows(main, ['visitors', 'conversions', 'conversion_rate'], ['goal']);
  if (!other) return withNote({ goals: rows }, plan.note);
  return withNote({
    goals: attachComparison(rows, other, (row) => row.goal, (row) => ({
      visitors: row?.visitors ?? 0,
      conversions: row?.conversions ?? 0,
      conversion_rate: row?.conversion_rate ?? 0,
    })),
  }, plan.note);
}
