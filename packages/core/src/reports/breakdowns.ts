import { countryName } from '../derive/geo.js';
import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { BreakdownTotals, SessionDimension, Storage } from '../storage/types.js';
import type {
  CampaignsResponse,
  Channel,
  ChannelsResponse,
  DevicesResponse,
  LocationsResponse,
  ReferrersResponse,
} from '../types.js';
import { type ReportOptions, resolveRange } from './resolve.js';

async function breakdown(storage: Storage, query: Query, dimension: SessionDimension, options?: ReportOptions): Promise<BreakdownTotals[]> {
  const { range } = await resolveRange(storage, query, options);
  return storage.sessionBreakdown(range, dimension);
}

/**
 * `/referrers`: sessions by referring host (`Direct / None` without one).
 * @example const { referrers } = await getReferrers(storage, parseQuery('referrers', { site_id: 'ST-demo' }));
 */
export async function getReferrers(storage: Storage, query: Query, options?: ReportOptions): Promise<ReferrersResponse> {
  const rows = (await breakdown(storage, query, 'referrerSource', options)).map(({ key, visitors, sessions }) => ({
    source: key[0]!,
    visitors,
    sessions,
  }));
  return { referrers: sortRows(rows, ['visitors', 'sessions'], ['source']) };
}

/**
 * `/channels`: sessions by marketing channel.
 * @example const { channels } = await getChannels(storage, parseQuery('channels', { site_id: 'ST-demo' }));
 */
export async function getChannels(storage: Storage, query: Query, options?: ReportOptions): Promise<ChannelsResponse> {
  const rows = (await breakdown(storage, query, 'channel', options)).map(({ key, visitors, sessions }) => ({
    channel: key[0] as Channel,
    visitors,
    sessions,
  }));
  return { channels: sortRows(rows, ['visitors', 'sessions'], ['channel']) };
}

/**
 * `/locations`: visitors by country (`XX` / `Unknown` when not known).
 * @example const { locations } = await getLocations(storage, parseQuery('locations', { site_id: 'ST-demo' }));
 */
export async function getLocations(storage: Storage, query: Query, options?: ReportOptions): Promise<LocationsResponse> {
  const rows = (await breakdown(storage, query, 'countryCode', options)).map(({ key, visitors }) => ({
    country: countryName(key[0]!),
    country_code: key[0]!,
    visitors,
  }));
  return { locations: sortRows(rows, ['visitors'], ['country', 'country_code']) };
}

const DEVICE_DIMENSION = { device_type: 'deviceType', browser: 'browser', os: 'os' } as const;

/**
 * `/devices`: visitors by device type, browser or operating system.
 * @example const { devices } = await getDevices(storage, parseQuery('devices', { site_id: 'ST-demo', breakdown: 'browser' }));
 */
export async function getDevices(storage: Storage, query: Query, options?: ReportOptions): Promise<DevicesResponse> {
  const rows = (await breakdown(storage, query, DEVICE_DIMENSION[query.breakdown], options)).map(({ key, visitors }) => ({
    name: key[0]!,
    visitors,
  }));
  return { breakdown: query.breakdown, devices: sortRows(rows, ['visitors'], ['name']) };
}

/**
 * `/campaigns`: sessions with all three of utm_source, utm_medium and utm_campaign.
 * @example const { campaigns } = await getCampaigns(storage, parseQuery('campaigns', { site_id: 'ST-demo' }));
 */
export async function getCampaigns(storage: Storage, query: Query, options?: ReportOptions): Promise<CampaignsResponse> {
  const rows = (await breakdown(storage, query, 'utm', options))
    .filter(({ key }) => key.length === 3 && key.every((part) => part !== ''))
    .map(({ key: [source, medium, campaign], visitors, sessions }) => ({
      source: source!,
      medium: medium!,
      campaign: campaign!,
      visitors,
      sessions,
    }));
  return { campaigns: sortRows(rows, ['visitors', 'sessions'], ['source', 'medium', 'campaign']) };
}
