/**
 * The bench rows of properties and goals (properties-goals.md): `/properties` and
 * `/goals`, plain and with a `prop:` or `goal` filter (and `/stats` under each, for the
 * dimensions on another endpoint), through the core and over HTTPS, beside the naive raw
 * scan of the same query (sqlite-selection-raw.ts), checking that the answers are the
 * same JSON; and what properties cost: import and collect with properties on most custom
 * events against the same data without them, in the same run.
 */
import { join } from 'node:path';
import { importEvents } from '../../packages/core/src/import/import.js';
import { parseQuery } from '../../packages/core/src/query/parse.js';
import { REPORTS } from '../../packages/core/src/reports/index.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { ENDPOINT_PATHS, type EndpointName } from '../../packages/core/src/types.js';
import { chunks, createBenchSite, type BenchSite, type DatasetOptions, withoutProps } from './dataset.js';
import { cacheFilled, int, ms, removeDatabase, table, time, type Timing } from './measure.js';

/** The custom event whose properties are read: the demo's most frequent one with properties on most events. */
export const PROPERTY_EVENT = 'cta_click';

/** Each case: an endpoint and its own parameters (beside `site_id` and `period=30d`). */
export const PROPERTY_CASES = {
  '/properties (keys)': ['properties', { name: PROPERTY_EVENT }],
  '/properties (values of button)': ['properties', { name: PROPERTY_EVENT, property: 'button' }],
  '/goals': ['goals', {}],
  '/properties, prop: filter (position is hero)': ['properties', { name: PROPERTY_EVENT, filters: JSON.stringify([['is', 'prop:position', ['hero']]]) }],
  '/goals, prop: filter (button is Start free trial)': ['goals', { filters: JSON.stringify([['is', 'prop:button', ['Start free trial']]]) }],
  '/properties, goal filter (goal is signup)': ['properties', { name: PROPERTY_EVENT, property: 'button', filters: JSON.stringify([['is', 'goal', ['signup']]]) }],
  '/goals, goal filter (goal is Visit /docs/*)': ['goals', { filters: JSON.stringify([['is', 'goal', ['Visit /docs/*']]]) }],
  '/stats, prop: filter (plan is pro)': ['stats', { filters: JSON.stringify([['is', 'prop:plan', ['pro']]]) }],
  '/stats, goal filter (goal is download)': ['stats', { filters: JSON.stringify([['is', 'goal', ['download']]]) }],
} as const satisfies Record<string, readonly [EndpointName, Record<string, string>]>;
export type PropertyCase = keyof typeof PROPERTY_CASES;

/** The parameters of a case on a site, as every store is asked them. */
export const propertyParams = (c: PropertyCase, siteId: string): Record<string, string> => ({ site_id: siteId, period: '30d', ...PROPERTY_CASES[c][1] });

export interface PropertyResult {
  case: PropertyCase;
  first: number;
  core: Timing;
  http: Timing;
  naive: Timing;
  /** The core's answer; HTTP, the naive scan and every ClickHouse engine must give the same. */
  json: string;
  same: boolean;
}

/** Times every case on SQLite (core, HTTPS, naive raw scan). */
export async function benchProperties(o: {
  storage: Storage; naive: Storage; get: (path: string) => Promise<string>; siteId: string; now: () => number; runs: number; naiveRuns: number;
  log: (text: string) => void;
}): Promise<PropertyResult[]> {
  const results: PropertyResult[] = [];
  for (const name of Object.keys(PROPERTY_CASES) as PropertyCase[]) {
    const [endpoint] = PROPERTY_CASES[name];
    const params = propertyParams(name, o.siteId);
    const run = (store: Storage) => (): Promise<unknown> => REPORTS[endpoint](store, parseQuery(endpoint, params), { now: o.now() });
    const first = (await time(1, run(o.storage))).timing.p50;
    await cacheFilled(o.storage);
    const core = await time(o.runs, run(o.storage));
    const http = await time(o.runs, () => o.get(`/api/v1${ENDPOINT_PATHS[endpoint]}?${new URLSearchParams(params)}`));
    const slow = await time(o.naiveRuns, run(o.naive));
    const json = JSON.stringify(core.result);
    const same = json === JSON.stringify(slow.result) && json === JSON.stringify(JSON.parse(http.result));
    results.push({ case: name, first, core: core.timing, http: http.timing, naive: slow.timing, json, same });
    o.log(`${name}: core p50 ${ms(core.timing.p50)} ms, HTTP ${ms(http.timing.p50)} ms, naive ${ms(slow.timing.p50)} ms${same ? '' : ' RESULTS DIFFER'}`);
  }
  return results;
}

/** The SQLite rows as a Markdown table with the target (p50 <= 25 ms, core and HTTP). */
export function propertyTable(results: PropertyResult[], clickhouse: { engine: string; cases: Map<string, { core: Timing; json: string }> }[]): string {
  const rows = table(
    ['case (period 30d)', 'core p50', 'core p95', 'first call', 'HTTP p50', 'naive p50', 'naive / core', ...clickhouse.map((c) => `${c.engine} core p50`), 'same JSON (all stores)'],
    results.map((r) => [
      r.case, ms(r.core.p50), ms(r.core.p95), ms(r.first), ms(r.http.p50), ms(r.naive.p50), `${(r.naive.p50 / r.core.p50).toFixed(0)}x`,
      ...clickhouse.map((c) => (c.cases.get(r.case) ? ms(c.cases.get(r.case)!.core.p50) : 'n/a')),
      r.same && clickhouse.every((c) => c.cases.get(r.case)?.json === r.json) ? 'yes' : '**NO**',
    ]),
  );
  const worst = Math.max(...results.map((r) => Math.max(r.core.p50, r.http.p50)));
  const targets = [[`every case p50 <= 25 ms on SQLite (core and HTTP)`, `${ms(worst)} ms`, worst <= 25 ? 'yes' : 'no']];
  for (const c of clickhouse) {
    const chWorst = Math.max(...[...c.cases.values()].map((x) => x.core.p50));
    targets.push([`every case p50 <= 50 ms on ${c.engine} (core)`, `${ms(chWorst)} ms`, chWorst <= 50 ? 'yes' : 'no']);
  }
  return `${rows}\n\n${table(['target', 'measured', 'met'], targets)}`;
}

/** Import of the same lines with and without properties. */
export interface ImportCost {
  events: number;
  /** Custom events, and those carrying properties. */
  customEvents: number;
  withProps: number;
  perSecondWith: number;
  perSecondWithout: number;
  bytesWith?: number;
  bytesWithout?: number;
}

/** The site whose lines measure what properties cost (a copy of the big site's traffic shape). */
export const costSite = (big: Omit<BenchSite, 'pageviews'>, pageviews: number): BenchSite => ({ ...big, id: 'ST-propcost', name: 'Property cost', pageviews });

/** The cost lines, as generated (with properties) and stripped of them. */
export function costLines(site: BenchSite, lines: DatasetOptions): { with: string[]; without: string[]; customEvents: number; withProps: number } {
  const all = [...chunks(site, { ...lines, chunk: Number.MAX_SAFE_INTEGER })].flat();
  const custom = all.filter((l) => l.includes('"type":"event"'));
  return { with: all, without: all.map(withoutProps), customEvents: custom.length, withProps: custom.filter((l) => l.includes('"props"')).length };
}

/**
 * Imports the lines into `store()` twice, with and without properties, alternating the
 * order over two rounds so a busy machine slows both alike; events/s of each (the better round).
 */
export async function importCost(
  lines: ReturnType<typeof costLines>, site: BenchSite,
  store: (name: string) => Promise<{ storage: Storage; bytes?: () => Promise<number>; drop: () => Promise<void> }>,
): Promise<ImportCost> {
  const best = { with: 0, without: 0 };
  const bytes: { with?: number; without?: number } = {};
  for (const order of [['with', 'without'], ['without', 'with']] as const) {
    for (const kind of order) {
      const { storage, bytes: size, drop } = await store(`cost_${kind}`);
      await createBenchSite(storage, site);
      const t = performance.now();
      await importEvents(storage, lines[kind]);
      const perSecond = (lines[kind].length / (performance.now() - t)) * 1000;
      best[kind] = Math.max(best[kind], perSecond);
      if (size) bytes[kind] = await size();
      await drop();
    }
  }
  return {
    events: lines.with.length, customEvents: lines.customEvents, withProps: lines.withProps,
    perSecondWith: best.with, perSecondWithout: best.without, bytesWith: bytes.with, bytesWithout: bytes.without,
  };
}

/** `importCost` on fresh SQLite files in `dir`. */
export function sqliteCostStore(dir: string, now: () => number) {
  return async (name: string) => {
    const file = join(dir, `${name}.db`);
    removeDatabase(file);
    const storage = createSqliteStore(file, { now });
    return {
      storage,
      bytes: async () => (storage.db.prepare('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()').pluck().get() as number),
      drop: async () => {
        await storage.close();
        removeDatabase(file);
      },
    };
  };
}

/** The import cost as table rows. */
export function importCostRows(store: string, c: ImportCost): string[][] {
  return [[
    store, int(c.events), `${int(c.withProps)} of ${int(c.customEvents)}`, int(c.perSecondWithout), int(c.perSecondWith),
    `${(((c.perSecondWithout - c.perSecondWith) / c.perSecondWithout) * 100).toFixed(1)}%`,
    c.bytesWith && c.bytesWithout ? `${int((c.bytesWithout / c.events) * 1e6)} -> ${int((c.bytesWith / c.events) * 1e6)}` : 'n/a',
  ]];
}

export const IMPORT_COST_HEAD = ['store', 'events', 'custom events with props', 'import events/s without props', 'with props', 'cost', 'bytes per million events, without -> with'];
