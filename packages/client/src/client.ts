import type {
  Compare, ComparableEndpoint, ComparedEndpointResponses, ComparedPropertyKeysResponse, ComparedPropertyValuesResponse, EndpointName, EndpointParams,
  EndpointResponses, PropertyKeysResponse, PropertyValuesResponse,
} from '@siteline/core';
import { type ClientOptions, resolveOptions } from './options.js';
import { createRequest, type RequestOptions } from './request.js';

/**
 * One endpoint method: its parameters (`site_id` required) to its response
 * body. The body has `comparison` exactly when `compare` is given; with
 * parameters whose `compare` is not known from their type, either shape.
 */
export type Endpoint<E extends EndpointName> = E extends ComparableEndpoint
  ? {
      (params: EndpointParams[E] & { compare: Compare }, options?: RequestOptions): Promise<ComparedEndpointResponses[E]>;
      (params: EndpointParams[E] & { compare?: undefined }, options?: RequestOptions): Promise<EndpointResponses[E]>;
      (params: EndpointParams[E], options?: RequestOptions): Promise<EndpointResponses[E] | ComparedEndpointResponses[E]>;
    }
  : (params: EndpointParams[E], options?: RequestOptions) => Promise<EndpointResponses[E]>;

/**
 * `properties`: the keys of an event's properties, or with `property` the values of one
 * key; `comparison` rows exactly when `compare` is given.
 */
export interface PropertiesEndpoint {
  (params: EndpointParams['properties'] & { property: string; compare: Compare }, options?: RequestOptions): Promise<ComparedPropertyValuesResponse>;
  (params: EndpointParams['properties'] & { property: string; compare?: undefined }, options?: RequestOptions): Promise<PropertyValuesResponse>;
  (params: EndpointParams['properties'] & { property?: undefined; compare: Compare }, options?: RequestOptions): Promise<ComparedPropertyKeysResponse>;
  (params: EndpointParams['properties'] & { property?: undefined; compare?: undefined }, options?: RequestOptions): Promise<PropertyKeysResponse>;
  (params: EndpointParams['properties'], options?: RequestOptions): Promise<EndpointResponses['properties'] | ComparedEndpointResponses['properties']>;
}

/** The read API, one method per endpoint. Dates are `YYYY-MM-DD`; without dates the last 30 days. */
export interface SitelineClient {
  /** `GET /stats`: visitors, pageviews, sessions, bounce rate and average duration. */
  stats: Endpoint<'stats'>;
  /** `GET /stats/timeseries`: the same counts per day (or `interval`: hour, ISO week, month). */
  timeseries: Endpoint<'timeseries'>;
  /** `GET /pages`: top pages by pageviews; `limit` 1-100, default 20. */
  pages: Endpoint<'pages'>;
  /** `GET /referrers`: visitors and sessions per referring host (`Direct / None` without one). */
  referrers: Endpoint<'referrers'>;
  /** `GET /channels`: visitors and sessions per channel (Organic Search, Direct, ...). */
  channels: Endpoint<'channels'>;
  /** `GET /locations`: visitors per country. */
  locations: Endpoint<'locations'>;
  /** `GET /devices`: visitors per `device_type` (default), `browser` or `os`. */
  devices: Endpoint<'devices'>;
  /** `GET /events`: custom events with their count, optionally one `name`. */
  events: Endpoint<'events'>;
  /** `GET /campaigns`: sessions with the full UTM source, medium and campaign. */
  campaigns: Endpoint<'campaigns'>;
  /** `GET /live`: visitors with a pageview in the last 5 minutes; poll at most every 30 s. */
  live: Endpoint<'live'>;
  /**
   * `GET /properties`: the property keys of the custom event `name` (or, with `property`, the
   * values of that key), each with its events and daily visitors; `limit` 1-100, default 20.
   */
  properties: PropertiesEndpoint;
  /** `GET /goals`: every goal of the site with its visitors, conversions and conversion rate. */
  goals: Endpoint<'goals'>;
  /**
   * `GET /funnels`: a funnel saved for the site (`funnel`, its name) or ad-hoc `steps` (2 to 8,
   * `{ page: '/pricing' }` or `{ event: 'signup' }`): each step's visitors, drop-off and
   * conversion rates, in funnel order.
   * @example const { steps } = await siteline.funnels({ site_id: 'ST-blog', steps: [{ page: '/pricing' }, { event: 'signup' }] });
   */
  funnels: Endpoint<'funnels'>;
  /**
   * Any report but `/live` as CSV text (`format=csv`): a header row of the JSON field names,
   * `comparison` fields as `comparison_<field>`, records ended by CRLF. Same errors as JSON.
   * @example const text = await siteline.csv('pages', { site_id: 'ST-blog', period: '7d' });
   * // 'url,pageviews,visitors,bounce_rate,avg_duration\r\n/,42,30,55.5,61.2\r\n...'
   */
  csv<E extends ComparableEndpoint>(endpoint: E, params: EndpointParams[E], options?: RequestOptions): Promise<string>;
  /**
   * `GET /export`: the site's raw events of the days as NDJSON text in the import format
   * (`siteline import` reads it back). The whole text is held in memory: for large ranges
   * stream `GET /export` yourself or use `siteline export`.
   * @example const ndjson = await siteline.export({ site_id: 'ST-blog', from: '2026-11-01', to: '2026-11-30' });
   */
  export(params: ExportParams, options?: RequestOptions): Promise<string>;
}

/** Parameters of `GET /export`: the site and its days (`from`/`to`, or `period`; default 30 days). */
export type ExportParams = Pick<EndpointParams['stats'], 'site_id' | 'from' | 'to' | 'period'>;

/**
 * A typed client for the Siteline read API. Use it from a back end only:
 * the key reads every site of its account.
 *
 * @example
 * import { createClient } from '@siteline/client';
 * const siteline = createClient({ baseUrl: 'https://analytics.example.com/api/v1', apiKey: process.env.SITELINE_API_KEY! });
 * const { visitors } = await siteline.stats({ site_id: 'ST-blog', period: '7d' });
 * const { pages } = await siteline.pages({ site_id: 'ST-blog', from: '2026-11-01', to: '2026-11-30', limit: 10 });
 * const de = await siteline.stats({ site_id: 'ST-blog', period: '30d', filters: [['is', 'country', ['DE']]], compare: 'previous_period' });
 * // de.comparison.visitors: the same filter over the 30 days before
 * const { values } = await siteline.properties({ site_id: 'ST-blog', name: 'Signup', property: 'plan' });
 * const { goals } = await siteline.goals({ site_id: 'ST-blog', filters: [['is', 'prop:plan', ['pro']]] });
 * const funnel = await siteline.funnels({ site_id: 'ST-blog', funnel: 'Pricing to signup', compare: 'previous_period' });
 */
export function createClient(options: ClientOptions): SitelineClient {
  const untyped = createRequest(resolveOptions(options));
  // One runtime function behind the overloads of each method (their bodies differ only in type).
  const request = untyped as unknown as <E extends EndpointName>(endpoint: E, params: EndpointParams[E], options?: RequestOptions) => never;
  return {
    stats: (params, opts) => request('stats', params, opts),
    timeseries: (params, opts) => request('timeseries', params, opts),
    pages: (params, opts) => request('pages', params, opts),
    referrers: (params, opts) => request('referrers', params, opts),
    channels: (params, opts) => request('channels', params, opts),
    locations: (params, opts) => request('locations', params, opts),
    devices: (params, opts) => request('devices', params, opts),
    events: (params, opts) => request('events', params, opts),
    campaigns: (params, opts) => request('campaigns', params, opts),
    live: (params, opts) => request('live', params, opts),
    csv: (endpoint, params, opts) => untyped(endpoint, params, opts, 'csv') as unknown as Promise<string>,
    export: (params, opts) => untyped('export', params, opts, 'ndjson') as unknown as Promise<string>,
    properties: ((params: EndpointParams['properties'], opts?: RequestOptions) => request('properties', params, opts)) as PropertiesEndpoint,
    goals: (params, opts) => request('goals', params, opts),
    funnels: (params, opts) => request('funnels', params, opts),
  };
}
