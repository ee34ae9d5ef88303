/**
 * The bench rows of funnels (funnels.md): a four-step funnel the demo traffic walks (`/`, then
 * `/pricing`, `/signup` and the signup event) over 30 days, unfiltered, under a country filter
 * and under a page filter; on SQLite through the core and over HTTPS beside the naive raw scan
 * of the same query (sqlite-selection-raw.ts, the definition plan), checking the answers are
 * the same JSON; on ClickHouse beside a floor of each case (`funnelFloorSql`) on the same engine.
 */
import { sqlDate, sqlString } from '../../packages/clickhouse/src/connection/escape.js';
import { conditionSql, meetsAnySql } from '../../packages/clickhouse/src/reads/conditions.js';
import { stepGoal } from '../../packages/core/src/funnels/funnel.js';
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import { FILTER_ATTRIBUTES, SESSION_ATTRIBUTE_COLUMN } from '../../packages/core/src/storage/selection.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import type { FilterOperator, FunnelStep } from '../../packages/core/src/types.js';
import { cacheFilled, ms, table, time, type Timing } from './measure.js';

/** The bench's funnel: four steps the demo's visitors walk (catalog.ts `WALKS`, the events of `eventsFor`). */
export const BENCH_FUNNEL: readonly FunnelStep[] = [{ page: '/' }, { page: '/pricing' }, { page: '/signup' }, { event: 'signup' }];
/** The name it is saved under on every bench site (dataset.ts `createBenchSite`): a read by its steps reads the saved funnel's slices. */
export const BENCH_FUNNEL_NAME = 'Home to signup';

/** Each case: its filters (beside `site_id`, `period=30d` and the steps). */
export const FUNNEL_CASES = {
  'unfiltered': [],
  'country filter (country is DE)': [['is', 'country', ['DE']]],
  'page filter (page contains /blog/)': [['contains', 'page', ['/blog/']]],
} as const satisfies Record<string, readonly (readonly [FilterOperator, string, readonly string[]])[]>;
export type FunnelCase = keyof typeof FUNNEL_CASES;

/** The parameters of a case on a site, as every store is asked them. */
export function funnelParams(c: FunnelCase, siteId: string): Record<string, string> {
  const filters = FUNNEL_CASES[c];
  return { site_id: siteId, period: '30d', steps: JSON.stringify(BENCH_FUNNEL), ...(filters.length > 0 ? { filters: JSON.stringify(filters) } : {}) };
}

export interface FunnelResult {
  case: FunnelCase;
  first: number;
  core: Timing;
  http: Timing;
  naive: Timing;
  /** The core's answer; HTTPS, the naive scan and every ClickHouse engine must give the same. */
  json: string;
  same: boolean;
}

/** Times every case on SQLite (core, HTTPS, naive raw scan). */
export async function benchFunnels(o: {
  storage: Storage; naive: Storage; get: (path: string) => Promise<string>; siteId: string; now: () => number; runs: number; naiveRuns: number;
  log: (text: string) => void;
}): Promise<FunnelResult[]> {
  const results: FunnelResult[] = [];
  for (const name of Object.keys(FUNNEL_CASES) as FunnelCase[]) {
    const params = funnelParams(name, o.siteId);
    const run = (store: Storage) => (): Promise<unknown> => REPORTS.funnels(store, parseQuery('funnels', params), { now: o.now() });
    const first = (await time(1, run(o.storage))).timing.p50;
    await cacheFilled(o.storage);
    const core = await time(o.runs, run(o.storage));
    const http = await time(o.runs, () => o.get(`/api/v1/funnels?${new URLSearchParams(params)}`));
    const slow = o.naiveRuns > 0 ? await time(o.naiveRuns, run(o.naive)) : { timing: { p50: NaN, p95: NaN, runs: 0 }, result: core.result };
    const json = JSON.stringify(core.result);
    const same = json === JSON.stringify(slow.result) && json === JSON.stringify(JSON.parse(http.result));
    results.push({ case: name, first, core: core.timing, http: http.timing, naive: slow.timing, json, same });
    o.log(`funnel, ${name}: core p50 ${ms(core.timing.p50)} ms, HTTP ${ms(http.timing.p50)} ms, naive ${ms(slow.timing.p50)} ms${same ? '' : ' RESULTS DIFFER'}`);
  }
  return results;
}

/**
 * The floor of a funnel case on ClickHouse: the least that reads the columns the answer needs,
 * in one query: the range's events that meet a step, with their session, `ts` and `seq` (counted
 * per session, as the funnel groups them), and the range's session rows the filter keeps, with
 * their day, visitor and sign; the filter a `WHERE` on the session rows' own columns (a page
 * condition on their `paths`). No ordering, no chain of steps, no join.
 */
export function funnelFloorSql(database: string, siteId: string, from: string, to: string, params: Record<string, string>): string {
  const where = `site_id = ${sqlString(siteId)} AND day >= ${sqlDate(from)} AND day <= ${sqlDate(to)}`;
  const steps = (JSON.parse(params.steps!) as FunnelStep[]).map(stepGoal);
  const conditions = JSON.parse(params.filters ?? '[]') as [FilterOperator, string, string[]][];
  const terms = conditions.map(([operator, dimension, values]) => {
    if (dimension === 'page') return `arrayExists(x -> ${conditionSql('x', { operator, values })}, paths)`;
    return conditionSql(SESSION_ATTRIBUTE_COLUMN[FILTER_ATTRIBUTES[dimension as keyof typeof FILTER_ATTRIBUTES]], { operator, values });
  });
  return `SELECT
      (SELECT uniqExact(session_id) + max(ts) + max(seq) FROM ${database}.events WHERE ${where} AND ${meetsAnySql(steps)}) AS step_sessions,
      (SELECT sum(sign) + uniqExact(day, visitor_id) + uniqExact(session_id) FROM ${database}.sessions WHERE ${[where, ...terms].join(' AND ')}) AS counted`;
}

/** The SQLite rows and the ClickHouse engines' as a Markdown table, with the issue's targets. */
export function funnelTable(results: FunnelResult[], clickhouse: { engine: string; cases: Map<string, { core: Timing; floor: Timing; json: string }> }[]): string {
  const rows = table(
    ['case (4 steps, period 30d)', 'core p50', 'core p95', 'first call', 'HTTP p50', 'naive p50', 'naive / core', ...clickhouse.flatMap((c) => [`${c.engine} core p50`, 'floor p50', 'core / floor']), 'same JSON (all stores)'],
    // Every case that ran on some store (SQLite does not with --sqlite no); JSON compared among the stores that ran it.
    (Object.keys(FUNNEL_CASES) as FunnelCase[]).filter((name) => results.some((r) => r.case === name) || clickhouse.some((c) => c.cases.has(name))).map((name) => {
      const r = results.find((x) => x.case === name);
      const answers = [...(r ? [r.json] : []), ...clickhouse.flatMap((c) => c.cases.get(name)?.json ?? [])];
      return [
        name, ...(r ? [ms(r.core.p50), ms(r.core.p95), ms(r.first), ms(r.http.p50), ms(r.naive.p50), `${(r.naive.p50 / r.core.p50).toFixed(0)}x`] : ['n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a']),
        ...clickhouse.flatMap((c) => {
          const x = c.cases.get(name);
          return x ? [ms(x.core.p50), ms(x.floor.p50), `${(x.core.p50 / x.floor.p50).toFixed(2)}x`] : ['n/a', 'n/a', 'n/a'];
        }),
        (r?.same ?? true) && clickhouse.every((c) => c.cases.has(name)) && answers.every((a) => a === answers[0]) ? 'yes' : '**NO**',
      ];
    }),
  );
  const targets: string[][] = [];
  if (results.length > 0) {
    const worst = Math.max(...results.map((r) => Math.max(r.core.p50, r.http.p50)));
    targets.push(['every case p50 <= 25 ms on SQLite (core and HTTP)', `${ms(worst)} ms`, worst <= 25 ? 'yes' : 'no']);
  }
  for (const c of clickhouse) {
    const ratio = Math.max(...[...c.cases.values()].map((x) => x.core.p50 / x.floor.p50));
    targets.push([`every case under 3x its floor on ${c.engine} (core p50)`, `${ratio.toFixed(2)}x`, ratio < 3 ? 'yes' : 'no']);
  }
  return `${rows}\n\n${table(['target', 'measured', 'met'], targets)}`;
}
