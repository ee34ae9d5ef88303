/**
 * @siteline/client: the typed SDK of the Siteline read API. Zero runtime
 * dependencies; needs a `fetch` (Node >= 18 has one). Server-side only.
 *
 * @example
 * import { createClient, NotFoundError } from '@siteline/client';
 * const siteline = createClient({ baseUrl: 'https://analytics.example.com/api/v1', apiKey: process.env.SITELINE_API_KEY! });
 * const stats = await siteline.stats({ site_id: 'ST-blog', period: '30d' });
 */
export { createClient, type SitelineClient, type Endpoint, type ExportParams } from './client.js';
export type { ClientOptions, Fetch, FetchInit, FetchResponse } from './options.js';
export type { RequestOptions } from './request.js';
export {
  SitelineError,
  APIError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  makeError,
  type HeadersLike,
} from './errors.js';
export type {
  EndpointName,
  EndpointParams,
  EndpointResponses,
  DateParams,
  ExtensionParams,
  FilterCondition,
  FilterOperator,
  FilterDimension,
  Compare,
  Interval,
  Compared,
  SummaryComparison,
  ComparedStatsResponse,
  ComparedTimeseriesResponse,
  ComparedPagesResponse,
  ComparedReferrersResponse,
  ComparedChannelsResponse,
  ComparedLocationsResponse,
  ComparedDevicesResponse,
  ComparedEventsResponse,
  ComparedCampaignsResponse,
  ComparedEndpointResponses,
  ComparableEndpoint,
  ResponseFor,
  Breakdown,
  Period,
  Channel,
  Summary,
  TimeseriesRow,
  PageRow,
  ReferrerRow,
  ChannelRow,
  LocationRow,
  DeviceRow,
  EventRow,
  CampaignRow,
  StatsResponse,
  TimeseriesResponse,
  PagesResponse,
  ReferrersResponse,
  ChannelsResponse,
  LocationsResponse,
  DevicesResponse,
  EventsResponse,
  CampaignsResponse,
  LiveResponse,
} from '@siteline/core';
