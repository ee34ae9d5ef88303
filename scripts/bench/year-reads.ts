/**
 * The year profile's reads: what the owner of a busy site asks of a year, over HTTPS from
 * `siteline serve` (serve.ts), each request's first call (after the server's start) apart
 * from its warm runs. Every case on every endpoint but `/live`, over the data's last 30
 * days and its last 12 months ("Last 12 months" of the dashboard on the data's last day:
 * the eleven months before and this one), with the targets on SQLite.
 */
import https from 'node:https';
import { monthStart } from '../../packages/http/src/dashboard/app/dates.js';
import { shiftDay } from '../../packages/core/src/time/zone.js';
import { ENDPOINT_PATHS, type EndpointName, type FilterCondition } from '../../packages/core/src/types.js';
import { BENCH_FUNNEL } from './funnels.js';
import { percentile, type Timing } from './measure.js';

/** The filters of the year's cases (the demo's goals include the `signup` event goal). */
export const YEAR_CASES = {
  unfiltered: [],
  'country is DE': [['is', 'country', ['DE']]],
  'page is /pricing': [['is', 'page', ['/pricing']]],
  'channel is Organic Search': [['is', 'channel', ['Organic Search']]],
  'goal is signup': [['is', 'goal', ['signup']]],
  'country is DE, page is /pricing': [['is', 'country', ['DE']], ['is', 'page', ['/pricing']]],
} as const satisfies Record<string, FilterCondition[]>;
export type YearCase = keyof typeof YEAR_CASES;

export type YearRange = '30 days' | '12 months';
export const YEAR_RANGES: readonly YearRange[] = ['30 days', '12 months'];

/** Every endpoint the dashboard reads (`/properties` of the `cta_click` event, `/funnels` of the bench's funnel), not `/live`. */
export const YEAR_ENDPOINTS = (Object.keys(ENDPOINT_PATHS) as EndpointName[]).filter((e) => e !== 'live');

/** The targets for SQLite at 100M events, ms (HTTPS p50, warm). */
export function sqliteTarget(name: YearCase, range: YearRange): number {
  if (name === 'unfiltered') return range === '30 days' ? 25 : 50;
  if (name === 'country is DE, page is /pricing') return range === '30 days' ? 500 : 1500;
  return range === '30 days' ? 100 : 500;
}

/** The days of a range ending on the data's last day. */
export function yearRange(range: YearRange, lastDay: string): { from: string; to: string } {
  return { from: range === '30 days' ? shiftDay(lastDay, -29) : monthStart(lastDay, -11), to: lastDay };
}

/** The request's query parameters (12 months by month, as the dashboard draws them). */
export function yearParams(siteId: string, name: YearCase, range: YearRange, endpoint: EndpointName, lastDay: string): Record<string, string> {
  const filters = YEAR_CASES[name] as readonly FilterCondition[];
  return {
    site_id: siteId, ...yearRange(range, lastDay),
    ...(filters.length > 0 ? { filters: JSON.stringify(filters) } : {}),
    ...(endpoint === 'timeseries' && range === '12 months' ? { interval: 'month' } : {}),
    ...(endpoint === 'properties' ? { name: 'cta_click' } : {}),
    ...(endpoint === 'funnels' ? { steps: JSON.stringify(BENCH_FUNNEL) } : {}),
  };
}

export interface YearRead {
  case: YearCase;
  range: YearRange;
  endpoint: EndpointName;
  /** The first call after the server started (nothing of this request cached). */
  first: number;
  warm: Timing;
  /** The answer's JSON, compared between engines. */
  json: string;
}

/** A keep-alive HTTPS client of one server, with the key. */
export function client(port: number, key: string, ca: Buffer) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca });
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      https.request({ host: '127.0.0.1', port, path, agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`GET ${path}: ${res.statusCode} ${body}`));
        });
      }).on('error', reject).end();
    });
  return { get, close: () => agent.destroy() };
}

/**
 * Every case, range and endpoint: the first call, then, once the servers are idle again, `runs` warm calls (2 when the first took
 * over `slowMs`, none past 15 times that: a read of seconds is not made faster by timing it
 * often, one of minutes is reported by its first call, `warm.runs` 0).
 */
export async function yearReads(
  get: (path: string) => Promise<string>,
  o: { siteId: string; lastDay: string; runs: number; slowMs: number; cases?: readonly YearCase[]; endpoints?: readonly EndpointName[]; settled: () => Promise<void>; log: (text: string) => void },
): Promise<YearRead[]> {
  const out: YearRead[] = [];
  for (const name of o.cases ?? (Object.keys(YEAR_CASES) as YearCase[])) {
    for (const range of YEAR_RANGES) {
      for (const endpoint of o.endpoints ?? YEAR_ENDPOINTS) {
        const path = `/api/v1${ENDPOINT_PATHS[endpoint]}?${new URLSearchParams(yearParams(o.siteId, name, range, endpoint, o.lastDay))}`;
        let t = performance.now();
        const json = await get(path);
        const first = performance.now() - t;
        // Warm: what the first call left to do in the background (slices computed, loads, ClickHouse's goal counts) done.
        await o.settled();
        const times: number[] = [];
        const repeat = first > o.slowMs * 15 ? 0 : first > o.slowMs ? 2 : o.runs;
        for (let i = 0; i < repeat; i++) {
          t = performance.now();
          if ((await get(path)) !== json) throw new Error(`${path}: a warm call answered differently from the first`);
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        const warm = repeat === 0 ? { p50: first, p95: first, runs: 0 } : { p50: percentile(times, 50), p95: percentile(times, 95), runs: times.length };
        out.push({ case: name, range, endpoint, first, warm, json: JSON.stringify(JSON.parse(json)) });
        o.log(`${name}, ${range}, ${endpoint}: first ${first.toFixed(1)} ms, warm p50 ${warm.p50.toFixed(1)} ms`);
      }
    }
  }
  return out;
}
