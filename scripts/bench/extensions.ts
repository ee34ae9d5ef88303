/**
 * The bench rows of the query extensions (query-extensions.md): every endpoint
 * with a session-dimension filter, a page filter, both combined, and `compare`
 * (alone and with the session filter), through the core and over HTTPS, beside
 * the naive raw scan of the same query (scripts/bench/naive.ts) measured in the
 * same run, with the plain (unfiltered, uncompared) time of the same endpoint
 * for the compare ratio. Every row checks that the three answers are the same JSON.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import { createSqliteStore, type SqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import type { Storage, StoredEvent } from '../../packages/core/src/storage/types.js';
import { localDay } from '../../packages/core/src/time/zone.js';
import { ENDPOINT_PATHS, type EndpointName } from '../../packages/core/src/types.js';
import { cacheFilled, int, ms, percentile, table, time, type Timing } from './measure.js';

export const EXTENSION_CASES = {
  'session filter (country is DE)': { filters: JSON.stringify([['is', 'country', ['DE']]]) },
  'page filter (page is /pricing)': { filters: JSON.stringify([['is', 'page', ['/pricing']]]) },
  'combined (country DE or AT, page /pricing, device not Desktop)': {
    filters: JSON.stringify([['is', 'country', ['DE', 'AT']], ['is', 'page', ['/pricing']], ['is_not', 'device_type', ['Desktop']]]),
  },
  'compare=previous_period': { compare: 'previous_period' },
  'session filter + compare': { filters: JSON.stringify([['is', 'country', ['DE']]]), compare: 'previous_period' },
  // Hour buckets (only /stats/timeseries reads `interval`; the other endpoints answer the 7 days as they are).
  'interval=hour (7d)': { period: '7d', interval: 'hour' },
  'interval=hour + page filter (7d)': { period: '7d', interval: 'hour', filters: JSON.stringify([['is', 'page', ['/pricing']]]) },
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
  /** The core's answer (JSON), for the ClickHouse columns' check. */
  json: string;
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
  // Properties and goals have cases of their own (properties.ts), funnels too (funnels.ts).
  const endpoints = (Object.keys(ENDPOINT_PATHS) as EndpointName[]).filter((e) => e !== 'live' && e !== 'properties' && e !== 'goals' && e !== 'funnels');
  const results: ExtensionResult[] = [];
  for (const [name, extra] of Object.entries(EXTENSION_CASES) as [ExtensionCase, Record<string, string>][]) {
    for (const endpoint of endpoints) {
      const params: Record<string, string> = { site_id: o.siteId, period: '30d', ...extra };
      const run = (store: Storage) => (): Promise<unknown> => REPORTS[endpoint](store, parseQuery(endpoint, params), { now: o.now() });
      const first = (await time(1, run(o.storage))).timing.p50;
      await cacheFilled(o.storage);
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
      results.push({ case: name, endpoint, first, core: core.timing, ...(uncompared ? { uncompared } : {}), http: http.timing, naive: slow.timing, same, json });
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

/** One cold-cache measurement: a filtered call (or the warming) and what the event loop saw meanwhile. */
export interface ColdCacheRow {
  what: string;
  /** The filtered call's duration (for the warming row: the warming's). */
  ms: number;
  /** The longest the event loop went without running a timer meanwhile (`monitorEventLoopDelay` max), and the 99th percentile of those delays. */
  longestBlockMs: number;
  p99DelayMs: number;
  daysLoaded: number;
  /** The same call once its days are cached, p50, for the ratio. */
  warmMs: number;
  /** Unfiltered `/stats` calls due every 5 ms meanwhile, timed from when each was due: how many, p50 and the slowest. */
  others?: { count: number; p50: number; max: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` with the event loop watched: its duration and the longest delay of a 1 ms timer meanwhile. */
async function watched<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; longestBlockMs: number; p99DelayMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // Let the monitor take its first samples: a block before them would not be recorded (the call starts synchronously).
  await sleep(5);
  const t = performance.now();
  const result = await fn();
  const elapsed = performance.now() - t;
  // One more sample, so a block at the very end is recorded too.
  await sleep(2);
  delay.disable();
  return { result, ms: elapsed, longestBlockMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6 };
}

/**
 * Unfiltered `/stats` calls due every 5 ms until `done()`, each timed from when it was due (not from when the
 * event loop got round to it), as a request arriving then would see it.
 */
async function othersWhile(store: Storage, params: Record<string, string>, now: () => number, done: () => boolean) {
  const latencies: number[] = [];
  let due = performance.now();
  while (!done()) {
    due += 5;
    await sleep(Math.max(0, due - performance.now()));
    await REPORTS.stats(store, parseQuery('stats', params), { now: now() });
    const end = performance.now();
    latencies.push(end - due);
    due = Math.max(due, end);
  }
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, p50: percentile(latencies, 50), max: latencies[latencies.length - 1] ?? 0 };
}

/**
 * The column cache cold and after one day changed (sqlite-column-cache.ts), on fresh
 * connections to the bench's file as a restarted server opens it: the first filtered
 * call after a restart (alone, then with unfiltered calls due every 5 ms beside it),
 * the same call after a late event made one past day dirty (written by another
 * connection) and after a beacon into today's live day, and a restart with the
 * server's background warming. Each with the longest event-loop block and the days
 * it loaded; beside an idle baseline (the longest delay of the same timer with
 * nothing running). Every run adds one late pageview and one beacon to the bench database.
 */
export async function benchColdCache(o: Pick<ExtensionBenchOptions, 'storage' | 'siteId' | 'now' | 'runs' | 'log'>): Promise<ColdCacheRow[]> {
  const file = (o.storage as SqliteStore).db.name;
  const timezone = (await o.storage.getSite(o.siteId))!.timezone;
  const params = { site_id: o.siteId, period: '30d', filters: EXTENSION_CASES['session filter (country is DE)'].filters };
  const call = (store: Storage) => () => REPORTS.stats(store, parseQuery('stats', params), { now: o.now() });
  const open = (warmDays = 0) => createSqliteStore(file, { now: o.now, columnCacheWarmDays: warmDays });
  const rows: ColdCacheRow[] = [];
  const measure = async (what: string, store: SqliteStore, withOthers = false) => {
    const before = store.columnCacheStats().loads;
    let done = false;
    const others = withOthers ? othersWhile(store, { site_id: o.siteId, period: '30d' }, o.now, () => done) : undefined;
    const run = await watched(call(store));
    done = true;
    // The days it read from the raw tables load after it: counted, and the warm reads come once they have.
    await store.columnCacheFilled();
    const row: ColdCacheRow = { what, ms: run.ms, longestBlockMs: run.longestBlockMs, p99DelayMs: run.p99DelayMs, daysLoaded: store.columnCacheStats().loads - before, warmMs: 0 };
    if (others) row.others = await others;
    row.warmMs = (await time(o.runs, call(store))).timing.p50;
    rows.push(row);
    o.log(`cold cache: ${what}: ${ms(row.ms)} ms, longest block ${ms(row.longestBlockMs)} ms, ${row.daysLoaded} days loaded, warm p50 ${ms(row.warmMs)} ms`);
  };
  const event = (ts: number, id: string, path: string): StoredEvent => ({
    siteId: o.siteId, ts, day: localDay(ts, timezone), type: 'pageview', name: '', path, visitorId: id, sessionId: id, seq: 1, entryPath: path,
    referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux',
  });

  // The baseline: the longest delay of the same timer with nothing running (other processes and GC on a shared machine).
  const idle = await watched(() => sleep(3000));
  rows.push({ what: 'nothing running, 3 s (baseline: the machine\'s own delays)', ms: idle.ms, longestBlockMs: idle.longestBlockMs, p99DelayMs: idle.p99DelayMs, daysLoaded: 0, warmMs: 0 });
  const restarted = open();
  await measure('first filtered call after a restart', restarted);
  const again = open();
  await measure('the same, with an unfiltered /stats call due every 5 ms beside it', again, true);
  await again.close();
  // A late pageview ten days back, written by another connection: that day turns dirty (rebuilt by the next read).
  await o.storage.writeEvents([event(o.now() - 10 * 86_400_000, `bench-late-${Date.now()}`, '/bench-late')]);
  await measure('after a late event made one past day dirty (another connection)', restarted);
  await o.storage.writeEvents([event(o.now() - 60_000, `bench-beacon-${Date.now()}`, '/bench-beacon')]);
  await measure("after a beacon into today's live day (another connection)", restarted);
  await restarted.close();

  // The server's connection: 30 days of every site warmed in the background after opening, unfiltered calls beside it.
  const serving = open(30);
  let warmedDone = false;
  const others = othersWhile(serving, { site_id: o.siteId, period: '30d' }, o.now, () => warmedDone);
  const warming = await watched(() => serving.columnCacheWarmed);
  warmedDone = true;
  rows.push({
    what: 'background warming after opening (30 days of each site; the server\'s default)', ms: warming.ms, longestBlockMs: warming.longestBlockMs, p99DelayMs: warming.p99DelayMs,
    daysLoaded: serving.columnCacheStats().loads, warmMs: 0, others: await others,
  });
  o.log(`cold cache: warming ${ms(warming.ms)} ms, longest block ${ms(warming.longestBlockMs)} ms`);
  await measure('first filtered call after the warming', serving);
  await serving.close();
  return rows;
}

/** The cold-cache rows as a Markdown table. */
export function coldCacheTable(rows: ColdCacheRow[]): string {
  return table(
    ['case (stats, country is DE, period 30d)', 'time', 'longest event-loop block', 'event-loop delay p99', 'days loaded (after the answer)', 'warm p50', 'time / warm', 'unfiltered /stats due every 5 ms beside it, from when due: calls, p50, max'],
    rows.map((r) => [
      r.what, ms(r.ms), ms(r.longestBlockMs), ms(r.p99DelayMs), String(r.daysLoaded),
      r.warmMs ? ms(r.warmMs) : '', r.warmMs ? `${(r.ms / r.warmMs).toFixed(1)}x` : '', r.others ? `${int(r.others.count)}, ${ms(r.others.p50)} ms, ${ms(r.others.max)} ms` : '',
    ]),
  );
}
