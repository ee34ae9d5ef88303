import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import type { ComparedEventsResponse, EventsResponse, LiveResponse } from '../types.js';
import { attachComparison } from './compare.js';
import { addEvents } from '../imported/merge.js';
import { importedPlan, nowMs, readableSite, readBoth, type ReportOptions, resolveQuery, withNote } from './resolve.js';

/** `/live` window: pageviews in (now - 5 min, now]. */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * `/events`: custom events by name with their count in the range; with `compare`,
 * each row's count over the compared range in `comparison`.
 * @example const { events } = await getEvents(storage, parseQuery('events', { site_id: 'ST-demo', name: 'signup' }));
 */
export async function getEvents(storage: Storage, query: Query, options?: ReportOptions): Promise<EventsResponse | ComparedEventsResponse> {
  const resolved = await resolveQuery(storage, query, options);
  const plan = await importedPlan(storage, resolved, { kind: 'events' });
  const named = query.name === undefined ? [] : [{ key: 0, operator: 'is' as const, values: [query.name] }];
  const [main, other] = await readBoth(resolved, async (range) => {
    const [native, imported] = await Promise.all([storage.customEvents(range, query.name, resolved.selection), plan.rows(range, [0], { extra: named })]);
    return addEvents(native, imported).filter((row) => row.count > 0);
  });
  const events = sortRows(main, ['count'], ['name']);
  if (!other) return withNote({ events }, plan.note);
  return withNote({ events: attachComparison(events, other, (row) => row.name, (row) => ({ count: row?.count ?? 0 })) }, plan.note);
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
