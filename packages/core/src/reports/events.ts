import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import type { EventsResponse, LiveResponse } from '../types.js';
import { nowMs, readableSite, type ReportOptions, resolveRange } from './resolve.js';

/** `/live` window: pageviews in (now - 5 min, now]. */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * `/events`: custom events by name with their count in the range.
 * @example const { events } = await getEvents(storage, parseQuery('events', { site_id: 'ST-demo', name: 'signup' }));
 */
export async function getEvents(storage: Storage, query: Query, options?: ReportOptions): Promise<EventsResponse> {
  const { range } = await resolveRange(storage, query, options);
  const rows = (await storage.customEvents(range, query.name)).filter((row) => row.count > 0);
  return { events: sortRows(rows, ['count'], ['name']) };
}

/**
 * `/live`: distinct visitors with a pageview in the last 5 minutes. Date parameters do not apply.
 * @example const { live } = await getLive(storage, parseQuery('live', { site_id: 'ST-demo' }));
 */
export async function getLive(storage: Storage, query: Query, options: ReportOptions = {}): Promise<LiveResponse> {
  const site = await readableSite(storage, query.siteId, options);
  const now = nowMs(options);
  return { live: await storage.liveVisitors(site.id, now - LIVE_WINDOW_MS, now) };
}
