/**
 * The bench rows of the query extensions (query-extensions.md): every endpoint
 * with a session-dimension filter, a page filter, both combined, and `compare`
 * (alone and with the session filter), through the core and over HTTPS, beside
 * the naive raw scan of the same query (scripts/bench/naive.ts) measured in the
 * same run, with the plain (unfiltered, uncompared) time of the same endpoint
 * for the compare ratio. Every row checks that the three answers are the same JSON.
 */
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { ENDPOINT_PATHS, type EndpointName } from '../../packages/core/src/types.js';
import { ms, percentile, table, time, type Timing } from './measure.js';

export const EXTENSION_CASES = {
  'session filter (country is DE)': { filters: JSON.stringify([['is', 'country', ['DE']]]) },
  'page filter (page is /pricing)': { filters: JSON.stringify([['is', 'page', ['/pricing']]]) },
  'combined (country DE or AT, page /pricing, device not Desktop)': {
    filters: JSON.stringify([['is', 'country', ['DE', 'AT']], ['is', 'page', ['/pricing']], ['is_not', 'device_type', ['Desktop']]]),
  },
  'compare=previous_period': { compare: 'previous_period' },
  'session filter + compare': { filters: JSON.stringify([['is', 'country', ['DE']]]), compare: 'previous_period' },
} as const satisfies Record<string, Record<string, string>>;
export type ExtensionCase = keyof typeof EXTENSION_CASES;

export interface ExtensionResult {
  case: ExtensionCase;
  endpoint: EndpointName;
  first: number;
  core: Timing;
  /** For `compare` cases: the same request without `compare`, timed in the same loop (alternating), so both see the same machine. */
  uncompared?: Timing;
  http: Timing;
  naive: Timing;
  same: boolean;
}

export interface ExtensionBenchOptions {
  storage: Storage;
  naive: Storage;
  get: (path: string) => Promise<string>;
  siteId: string;
  now: () => number;
  runs: number;
  naiveRuns: number;
  log: (text: string) => void;
}

/** Times every endpoint but /live under each case; the first call (cold cache) is timed apart. */
export async function benchExtensions(o: ExtensionBenchOptions): Promise<ExtensionResult[]> {
  const endpoints = (Object.keys(ENDPOINT_PATHS) as EndpointName[]).filter((e) => e !== 'live');
  const results: ExtensionResult[] = [];
  for (const [name, extra] of Object.entries(EXTENSION_CASES) as [ExtensionCase, Record<string, string>][]) {
    for (const endpoint of endpoints) {
      const params: Record<string, string> = { site_id: o.siteId, period: '30d', ...extra };
      const run = (store: Storage) => (): Promise<unknown> => REPORTS[endpoint](store, parseQuery(endpoint, params), { now: o.now() });
      const first = (await time(1, run(o.storage))).timing.p50;
      let core: Awaited<ReturnType<typeof time<unknown>>>;
      let uncompared: Timing | undefined;
      if ('compare' in extra) {
        const { compare: _, ...rest } = params;
        const plain = (): Promise<unknown> => REPORTS[endpoint](o.storage, parseQuery(endpoint, rest), { now: o.now() });
        const pairs = await alternate(o.runs, plain, run(o.storage));
        core = pairs.second;
        uncompared = pairs.first.timing;
      } else {
        core = await time(o.runs, run(o.storage));
      }
      const http = await time(o.runs, () => o.get(`/api/v1${ENDPOINT_PATHS[endpoint]}?${new URLSearchParams(params)}`));
      const slow = await time(o.naiveRuns, run(o.naive));
      const json = JSON.stringify(core.result);
      const same = json === JSON.stringify(slow.result) && json === JSON.stringify(JSON.parse(http.result));
      results.push({ case: name, endpoint, first, core: core.timing, ...(uncompared ? { uncompared } : {}), http: http.timing, naive: slow.timing, same });
      o.log(`${name} ${endpoint}: core p50 ${ms(core.timing.p50)} ms (first ${ms(first)}), naive ${ms(slow.timing.p50)} ms${same ? '' : ' RESULTS DIFFER'}`);
    }
  }
  return results;
}

/** Times `a` and `b` alternately, `runs` times each, so a busy machine slows both alike. */
async function alternate<A, B>(runs: number, a: () => Promise<A>, b: () => Promise<B>) {
  const ta: number[] = [];
  const tb: number[] = [];
  let resultB!: B;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    t = performance.now();
    resultB = await b();
    tb.push(performance.now() - t);
  }
  const timing = (list: number[]): Timing => {
    const sorted = list.sort((x, y) => x - y);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), runs };
  };
  return { first: { timing: timing(ta) }, second: { timing: timing(tb), result: resultB } };
}

/** The rows as a Markdown table, with the targets of issue 13 checked against `plain` (each endpoint's unfiltered core p50). */
export function extensionTables(results: ExtensionResult[], plain: Map<EndpointName, number>): string {
  const rows = table(
    ['case', 'endpoint', 'core p50', 'core p95', 'first call', 'HTTP p50', 'naive p50', 'naive / core', 'vs unfiltered p50', 'without compare, same loop: p50 (ratio)', 'same JSON'],
    results.map((r) => [
      r.case, r.endpoint, ms(r.core.p50), ms(r.core.p95), ms(r.first), ms(r.http.p50), ms(r.naive.p50),
      `${(r.naive.p50 / r.core.p50).toFixed(0)}x`, plain.has(r.endpoint) ? `${(r.core.p50 / plain.get(r.endpoint)!).toFixed(1)}x` : 'n/a',
      r.uncompared ? `${ms(r.uncompared.p50)} (${(r.core.p50 / r.uncompared.p50).toFixed(2)}x)` : '', r.same ? 'yes' : '**NO**',
    ]),
  );
  const worst = (c: ExtensionCase) => Math.max(...results.filter((r) => r.case === c).map((r) => r.core.p50));
  const ratio = (c: ExtensionCase) => Math.max(...results.filter((r) => r.case === c).map((r) => r.core.p50 / r.uncompared!.p50));
  const compareRatio = ratio('compare=previous_period');
  const filteredCompare = ratio('session filter + compare');
  const targets = table(['target (SQLite, core p50)', 'measured', 'met'], [
    ['every endpoint with a session-dimension filter <= 50 ms', `${ms(worst('session filter (country is DE)'))} ms`, worst('session filter (country is DE)') <= 50 ? 'yes' : 'no'],
    ['every endpoint with a page filter <= 150 ms', `${ms(worst('page filter (page is /pricing)'))} ms`, worst('page filter (page is /pricing)') <= 150 ? 'yes' : 'no'],
    ['combined filter (for reference: <= 150 ms)', `${ms(worst('combined (country DE or AT, page /pricing, device not Desktop)'))} ms`, worst('combined (country DE or AT, page /pricing, device not Desktop)') <= 150 ? 'yes' : 'no'],
    ['compare <= 2x the same request without it (worst endpoint, same loop)', `${compareRatio.toFixed(2)}x`, compareRatio <= 2 ? 'yes' : 'no'],
    ['session filter + compare <= 2x the session filter alone (worst endpoint, same loop)', `${filteredCompare.toFixed(2)}x`, filteredCompare <= 2 ? 'yes' : 'no'],
  ]);
  return `${rows}\n\n${targets}`;
}
