import { countryName } from '../derive/geo.js';
import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { BreakdownTotals, SessionDimension, Storage } from '../storage/types.js';
import type {
  CampaignRow,
  ChannelRow,
  DeviceRow,
  LocationRow,
  ReferrerRow,
  CampaignsResponse,
  Channel,
  ChannelsResponse,
  ComparedCampaignsResponse,
  ComparedChannelsResponse,
  ComparedDevicesResponse,
  ComparedLocationsResponse,
  ComparedReferrersResponse,
  DevicesResponse,
  LocationsResponse,
  ReferrersResponse,
} from '../types.js';
import { attachComparison } from './compare.js';
import { addBreakdown, BREAKDOWN_SOURCES } from '../imported/merge.js';
import type { ImportedNote } from '../types.js';
import { importedPlan, readBoth, type ReportOptions, resolveQuery, withNote } from './resolve.js';

/**
 * One session breakdown: the storage's groups turned into rows and ordered, and, with
 * `compare`, each row's metrics (`metrics`: its fields that are not names) over the
 * compared range, matched by the row's name fields.
 */
async function breakdown<Row extends object, M extends keyof Row>(
  storage: Storage,
  query: Query,
  options: ReportOptions | undefined,
  dimension: SessionDimension,
  shape: {
    rows: (groups: BreakdownTotals[]) => Row[];
    metrics: readonly M[];
    names: readonly (keyof Row)[];
  },
): Promise<{ rows: Row[] | (Row & { comparison: Pick<Row, M> })[]; note: ImportedNote | undefined }> {
  const resolved = await resolveQuery(storage, query, options);
  const { table, groupBy } = BREAKDOWN_SOURCES[dimension];
  const plan = await importedPlan(storage, resolved, { kind: 'breakdown', table });
  const [main, other] = await readBoth(resolved, async (range) => {
    const [native, imported] = await Promise.all([storage.sessionBreakdown(range, dimension, resolved.selection), plan.rows(range, groupBy)]);
    return addBreakdown(native, imported);
  });
  const rows = sortRows(shape.rows(main), shape.metrics, shape.names);
  if (!other) return { rows, note: plan.note };
  const key = (row: Row) => shape.names.map((n) => row[n]).join('\u0000');
  const zero = (row: Row | undefined) => Object.fromEntries(shape.metrics.map((m) => [m, row ? row[m] : 0])) as Pick<Row, M>;
  return { rows: attachComparison(rows, shape.rows(other), key, zero), note: plan.note };
}

/**
 * `/referrers`: sessions by referring host (`Direct / None` without one).
 * @example const { referrers } = await getReferrers(storage, parseQuery('referrers', { site_id: 'ST-demo' }));
 */
export async function getReferrers(storage: Storage, query: Query, options?: ReportOptions): Promise<ReferrersResponse | ComparedReferrersResponse> {
  const { rows: referrers, note } = await breakdown<ReferrerRow, 'visitors' | 'sessions'>(storage, query, options, 'referrerSource', {
    rows: (groups) => groups.map(({ key, visitors, sessions }) => ({ source: key[0]!, visitors, sessions })),
    metrics: ['visitors', 'sessions'],
    names: ['source'],
  });
  return withNote({ referrers }, note);
}

/**
 * `/channels`: sessions by marketing channel.
 * @example const { channels } = await getChannels(storage, parseQuery('channels', { site_id: 'ST-demo' }));
 */
export async function getChannels(storage: Storage, query: Query, options?: ReportOptions): Promise<ChannelsResponse | ComparedChannelsResponse> {
  const { rows: channels, note } = await breakdown<ChannelRow, 'visitors' | 'sessions'>(storage, query, options, 'channel', {
    rows: (groups) => groups.map(({ key, visitors, sessions }) => ({ channel: key[0] as Channel, visitors, sessions })),
    metrics: ['visitors', 'sessions'],
    names: ['channel'],
  });
  return withNote({ channels }, note);
}

/**
 * `/locations`: visitors by country (`XX` / `Unknown` when not known).
 * @example const { locations } = await getLocations(storage, parseQuery('locations', { site_id: 'ST-demo' }));
 */
export async function getLocations(storage: Storage, query: Query, options?: ReportOptions): Promise<LocationsResponse | ComparedLocationsResponse> {
  const { rows: locations, note } = await breakdown<LocationRow, 'visitors'>(storage, query, options, 'countryCode', {
    rows: (groups) => groups.map(({ key, visitors }) => ({ country: countryName(key[0]!), country_code: key[0]!, visitors })),
    metrics: ['visitors'],
    names: ['country', 'country_code'],
  });
  return withNote({ locations }, note);
}

const DEVICE_DIMENSION = { device_type: 'deviceType', browser: 'browser', os: 'os' } as const;

/**
 * `/devices`: visitors by device type, browser or operating system.
 * @example const { devices } = await getDevices(storage, parseQuery('devices', { site_id: 'ST-demo', breakdown: 'browser' }));
 */
export async function getDevices(storage: Storage, query: Query, options?: ReportOptions): Promise<DevicesResponse | ComparedDevicesResponse> {
  const { rows: devices, note } = await breakdown<DeviceRow, 'visitors'>(storage, query, options, DEVICE_DIMENSION[query.breakdown], {
    rows: (groups) => groups.map(({ key, visitors }) => ({ name: key[0]!, visitors })),
    metrics: ['visitors'],
    names: ['name'],
  });
  return withNote({ breakdown: query.breakdown, devices }, note);
}

/**
 * `/campaigns`: sessions with all three of utm_source, utm_medium and utm_campaign.
 * @example const { campaigns } = await getCampaigns(storage, parseQuery('campaigns', { site_id: 'ST-demo' }));
 */
export async function getCampaigns(storage: Storage, query: Query, options?: ReportOptions): Promise<CampaignsResponse | ComparedCampaignsResponse> {
  const { rows: campaigns, note } = await breakdown<CampaignRow, 'visitors' | 'sessions'>(storage, query, options, 'utm', {
    rows: (groups) =>
      groups
        .filter(({ key }) => key.length === 3 && key.every((part) => part !== ''))
        .map(({ key: [source, medium, campaign], visitors, sessions }) => ({ source: source!, medium: medium!, campaign: campaign!, visitors, sessions })),
    metrics: ['visitors', 'sessions'],
    names: ['source', 'medium', 'campaign'],
  });
  return withNote({ campaigns }, note);
}
