import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import type { ComparableEndpoint, ComparedEndpointResponses, EndpointName, EndpointResponses } from '../types.js';
import { getCampaigns, getChannels, getDevices, getLocations, getReferrers } from './breakdowns.js';
import { getEvents, getLive } from './events.js';
import { getFunnel } from './funnels.js';
import { getGoals } from './goals.js';
import { getProperties } from './properties.js';
import { getPages } from './pages.js';
import type { ReportOptions } from './resolve.js';
import { getStats, getTimeseries } from './summary.js';

/** A report's body: with `comparison` when the query has `compare` (not for `/live`). */
export type ReportBody<E extends EndpointName> = E extends ComparableEndpoint ? EndpointResponses[E] | ComparedEndpointResponses[E] : EndpointResponses[E];

export type Report<E extends EndpointName> = (storage: Storage, query: Query, options?: ReportOptions) => Promise<ReportBody<E>>;

/**
 * The report function of each endpoint, for adapters that dispatch by name.
 * @example const body = await REPORTS.pages(storage, parseQuery('pages', params));
 */
export const REPORTS: { readonly [E in EndpointName]: Report<E> } = {
  stats: getStats,
  timeseries: getTimeseries,
  pages: getPages,
  referrers: getReferrers,
  channels: getChannels,
  locations: getLocations,
  devices: getDevices,
  events: getEvents,
  campaigns: getCampaigns,
  live: getLive,
  properties: getProperties,
  goals: getGoals,
  funnels: getFunnel,
};
