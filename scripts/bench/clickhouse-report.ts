/** The ClickHouse part of the bench's printout: one table per engine, the import/size/collect figures, the targets. */
import type { EndpointName } from '../../packages/core/src/types.js';
import type { ClickHouseResult } from './clickhouse.js';
import type { ExtensionResult } from './extensions.js';
import { int, ms, table } from './measure.js';

const ENGINE_NAMES = { server: 'clickhouse-server', chdb: 'chdb (in-process)' } as const;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

export interface SqliteFigures {
  importPerSecond?: number;
  bytesPerMillion: number;
  /** Each endpoint's JSON from the SQLite store. */
  json: Map<EndpointName, string>;
  /** SQLite's query-extension rows (with the naive scan of the same query). */
  extensions: ExtensionResult[];
}

/** Markdown for every engine that ran (`skipped` says why the others did not). */
export function clickhouseReport(results: ClickHouseResult[], skipped: string[], sqlite: SqliteFigures, pageviews: number): string {
  const out: string[] = [];
  const limit = pageviews >= 10_000_000 ? 150 : 50;
  for (const r of results) {
    const rows = Object.entries(r.endpoints).map(([endpoint, t]) => [
      endpoint, ms(t.core.p50), ms(t.core.p95), ms(t.http.p50), ms(t.http.p95), ms(t.floor.p50),
      ratio(t.core.p50, t.floor.p50), ratio(t.http.p50, t.floor.p50), !sqlite.json.has(endpoint as EndpointName) ? 'n/a' : sqlite.json.get(endpoint as EndpointName) === t.json ? 'yes' : '**NO**',
    ]);
    out.push(`### ${ENGINE_NAMES[r.engine]} ${r.version} (times in ms; floor = a plain aggregate query on the same rows and engine, scripts/bench/clickhouse-floors.ts)\n`);
    out.push(table(['endpoint', 'core p50', 'core p95', 'HTTPS p50', 'HTTPS p95', 'floor p50', 'core / floor', 'HTTPS / floor', 'same JSON as SQLite'], rows));
    const c = typeof r.collect === 'string' ? undefined : r.collect;
    const times = Object.values(r.endpoints).flatMap((t) => [t.core.p50, t.http.p50]);
    const worst = Math.max(...times);
    const scans = Object.entries(r.endpoints).filter(([e]) => e !== 'live');
    const worstRatio = Math.max(...scans.map(([, t]) => t.core.p50 / t.floor.p50));
    out.push('');
    out.push(table(['measure', 'value'], [
      ['events imported', int(r.events)],
      ['import, events/s (importEvents incl. visitor builds)', int(r.importPerSecond)],
      ['import vs SQLite in this run', sqlite.importPerSecond ? ratio(r.importPerSecond, sqlite.importPerSecond) : 'n/a (--reuse)'],
      ['database bytes per million events', `${int((r.bytes / r.events) * 1e6)} (SQLite: ${Number.isNaN(sqlite.bytesPerMillion) ? 'n/a' : int(sqlite.bytesPerMillion)})`],
      ['of which the filter layout (pageview_gaps, custom_events, sessions paths, names and name counts), bytes per million events', int((r.layoutBytes / r.events) * 1e6)],
      ...(r.before
        ? [
          [`the same lines through ${r.before.dir} (before the layout): events/s`, `${int(r.before.importPerSecond)} (this layout: ${ratio(r.importPerSecond, r.before.importPerSecond)})`],
          ['  and its bytes per million events', `${int((r.before.bytes / r.events) * 1e6)} (this layout: ${ratio(r.bytes, r.before.bytes)})`],
        ]
        : []),
      ['collect into ClickHouse: stored events/s, p50 / p99 ms', c ? `${int(c.storedPerSecond)}/s, ${ms(c.p50Ms)} / ${ms(c.p99Ms)}` : String(r.collect)],
    ]));
    out.push('');
    out.push(table(['target', 'measured', 'met'], [
      [`every endpoint p50 <= ${limit} ms (core and HTTPS)`, `${ms(worst)} ms`, worst <= limit ? 'yes' : 'no'],
      ['every scanning endpoint under 3x its floor (core p50)', `${worstRatio.toFixed(2)}x`, worstRatio < 3 ? 'yes' : 'no'],
      ['import at least as fast as SQLite', sqlite.importPerSecond ? ratio(r.importPerSecond, sqlite.importPerSecond) : 'n/a', sqlite.importPerSecond && r.importPerSecond >= sqlite.importPerSecond ? 'yes' : 'no'],
    ]));
    out.push('');
    if (r.extensions.length > 0) out.push(extensionReport(r, sqlite.extensions, pageviews), '');
  }
  for (const reason of skipped) out.push(`ClickHouse column skipped: ${reason}\n`);
  return out.join('\n');
}

/**
 * The query extensions on one engine (core, HTTPS, the case's floor on the same engine) beside SQLite's core and
 * naive times of the same query, with issue 24's targets: p50 <= 50 ms at 1M pageviews (300 ms at 10M) core and
 * HTTPS, each under 3x its floor.
 */
function extensionReport(r: ClickHouseResult, sqlite: ExtensionResult[], pageviews: number): string {
  const mine = new Map(sqlite.map((x) => [`${x.case}|${x.endpoint}`, x]));
  const rows = r.extensions.map((x) => {
    const s = mine.get(`${x.case}|${x.endpoint}`);
    return [
      x.case, x.endpoint, ms(x.core.p50), ms(x.core.p95), ms(x.http.p50), ms(x.floor.p50), ratio(x.core.p50, x.floor.p50), ratio(x.http.p50, x.floor.p50),
      s ? ms(s.core.p50) : 'n/a', s ? (s.json === x.json ? 'yes' : '**NO**') : 'n/a',
    ];
  });
  const limit = pageviews >= 10_000_000 ? 300 : 50;
  const worst = Math.max(...r.extensions.flatMap((x) => [x.core.p50, x.http.p50]));
  const worstRatio = Math.max(...r.extensions.map((x) => x.core.p50 / x.floor.p50));
  return [
    `Query extensions on ${ENGINE_NAMES[r.engine]} (core and HTTPS, ${r.extensions[0]?.core.runs ?? 0} runs each; floor: the endpoint's floor query over the days the case reads, with each condition a WHERE on the events row's own columns, no session rule, scripts/bench/clickhouse-floors.ts; SQLite's time of the same query from this run):\n`,
    table(['case', 'endpoint', 'core p50', 'core p95', 'HTTPS p50', 'floor p50', 'core / floor', 'HTTPS / floor', 'SQLite core p50', 'same JSON as SQLite'], rows),
    '',
    table(['target (issue 24)', 'measured', 'met'], [
      [`every filtered, compared and hourly case p50 <= ${limit} ms (core and HTTPS)`, `${ms(worst)} ms`, worst <= limit ? 'yes' : 'no'],
      ['every case under 3x its floor (core p50)', `${worstRatio.toFixed(2)}x`, worstRatio < 3 ? 'yes' : 'no'],
    ]),
  ].join('\n');
}

/**
 * The property and goal cases on each ClickHouse engine beside their floors (core p50,
 * ms), and the targets of issue 23 (p50 <= 50 ms at 1M) and of a small multiple of the floor.
 */
export function clickhousePropertyReport(results: ClickHouseResult[]): string {
  const engines = results.filter((r) => r.properties.length > 0);
  if (engines.length === 0) return '';
  const cases = [...new Set(engines.flatMap((r) => r.properties.map((c) => c.case)))];
  const rows = cases.map((c) => [c, ...engines.flatMap((r) => {
    const x = r.properties.find((p) => p.case === c);
    return x ? [ms(x.core.p50), ms(x.floor.p50), ratio(x.core.p50, x.floor.p50)] : ['n/a', 'n/a', 'n/a'];
  })]);
  const heads = engines.flatMap((r) => [`${ENGINE_NAMES[r.engine]} core p50`, 'floor p50', 'core / floor']);
  const targets = engines.flatMap((r) => {
    const worst = Math.max(...r.properties.map((p) => p.core.p50));
    const worstRatio = Math.max(...r.properties.map((p) => p.core.p50 / p.floor.p50));
    return [
      [`${ENGINE_NAMES[r.engine]}: every case p50 <= 50 ms (core)`, `${ms(worst)} ms`, worst <= 50 ? 'yes' : 'no'],
      [`${ENGINE_NAMES[r.engine]}: every case under 3x its floor (core)`, `${worstRatio.toFixed(2)}x`, worstRatio < 3 ? 'yes' : 'no'],
    ];
  });
  return `Properties and goals on ClickHouse (ms; floor: the case's endpoint floor with each condition a row cannot test as one IN of sessions from the same days' rows, scripts/bench/clickhouse-floors.ts):\n\n${table(['case', ...heads], rows)}\n\n${table(['target (issue 23)', 'measured', 'met'], targets)}`;
}
