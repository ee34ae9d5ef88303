/**
 * What the cases of the daily counts (goal-visitor-, funnel-visitor- and property-count-cases.ts;
 * used only by tests) share: their events, and reading the rows a background count writes.
 */
import type { PropEntry, StoredEvent } from '@siteline/core';
import type { ClickHouseStorage } from '../clickhouse-storage.js';

let seq = 0;

/**
 * A pageview of `path` or a custom event `event` (with `props`) of site `siteId`, at `at` (ISO,
 * UTC), its day `at`'s; every session attribute the same, `seq` growing with every event made.
 */
export const eventOf = (siteId: string) =>
  (sessionId: string, visitorId: string, at: string, what: { path?: string; event?: string; props?: PropEntry[] }): StoredEvent => ({
    siteId, sessionId, visitorId, ts: Date.parse(at), day: at.slice(0, 10), type: what.event ? 'event' : 'pageview', name: what.event ?? '',
    path: what.path ?? '', seq: ++seq, entryPath: '/', referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
    countryCode: 'GB', deviceType: 'Desktop', browser: 'Chrome', os: 'Windows', ...(what.props?.length ? { props: what.props } : {}),
  });

/**
 * The rows of `query` as arrays (`toRow`); `countedWhen(ok)`: the rows once `ok` holds of them,
 * waiting up to 5 s (a background count's blocks arrive one by one, its markers last);
 * `countedWith(row)`: the rows once they hold `row`.
 */
export function countedRows<T extends Record<string, unknown>>(storage: () => ClickHouseStorage, query: string, toRow: (r: T) => unknown[]) {
  const counted = async () => (await (await storage().client.query({ query, format: 'JSONEachRow' })).json<T>()).map(toRow);
  const countedWhen = async (ok: (rows: unknown[][]) => boolean) => {
    for (let i = 0; i < 100 && !ok(await counted()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return counted();
  };
  const countedWith = (row: unknown[]) => countedWhen((rows) => rows.some((r) => JSON.stringify(r) === JSON.stringify(row)));
  return { counted, countedWith, countedWhen };
}
