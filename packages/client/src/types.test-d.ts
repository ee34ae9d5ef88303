/**
 * Type-level tests, checked by `tsc -p tsconfig.json` (never run): each
 * `@ts-expect-error` must hit a real error, or the build fails.
 */
import type {
  ComparedFunnelsResponse, ComparedGoalsResponse, ComparedPropertyValuesResponse, FunnelsResponse, ComparedStatsResponse, EndpointName, EndpointParams, EndpointResponses, GoalsResponse,
  PropertyKeysResponse, PropertyValuesResponse, StatsResponse,
} from '@siteline/core';
import type { SitelineClient } from './client.js';
import { PATHS } from './endpoints.js';

declare const client: SitelineClient;

// @ts-expect-error limit is a number
void client.pages({ site_id: 'ST-a', limit: '5' });
// @ts-expect-error breakdown is device_type, browser or os
void client.devices({ site_id: 'x', breakdown: 'country' });
// @ts-expect-error site_id is required
void client.stats({ from: '2026-11-01', to: '2026-11-30' });
// @ts-expect-error params are required
void client.referrers();
// @ts-expect-error period is 30d, 7d or 1d
void client.channels({ site_id: 'ST-a', period: '90d' });
// @ts-expect-error /live takes no dates
void client.live({ site_id: 'ST-a', from: '2026-11-01' });
// @ts-expect-error the key is an option of createClient, not a parameter
void client.events({ site_id: 'ST-a', api_key: 'k' });

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

check<Equal<keyof SitelineClient, EndpointName | 'csv' | 'export'>>();
check<Equal<Awaited<ReturnType<typeof client.csv<'pages'>>>, string>>();
// @ts-expect-error /live has no CSV
void client.csv('live', { site_id: 'ST-a' });
// @ts-expect-error csv() takes the endpoint's own parameters
void client.csv('pages', { site_id: 'ST-a', breakdown: 'os' });
check<Equal<keyof typeof PATHS, EndpointName>>();
check<Equal<Awaited<ReturnType<SitelineClient['live']>>, EndpointResponses['live']>>();
check<Equal<Awaited<ReturnType<SitelineClient['stats']>>['bounce_rate'], number>>();
// @ts-expect-error a wrong response type is caught
check<Equal<Awaited<ReturnType<SitelineClient['live']>>, { live: string }>>();

async function _usage(): Promise<number> {
  const { devices, breakdown } = await client.devices({ site_id: 'ST-a', breakdown: 'os', period: '7d' });
  const name: 'device_type' | 'browser' | 'os' = breakdown;
  void name;
  return devices.length + (await client.pages({ site_id: 'ST-a', limit: 5 })).pages[0]!.pageviews;
}
void _usage;

// Query extensions: typed filter conditions, compare, interval; `comparison` exactly when `compare` is given.
async function _extensions(params: EndpointParams['stats']): Promise<void> {
  const site_id = 'ST-a';
  const plain = await client.stats({ site_id, filters: [['is', 'country', ['DE', 'AT']], ['contains_not', 'page', ['/admin']]] });
  check<Equal<typeof plain, EndpointResponses['stats']>>();
  // @ts-expect-error no comparison without compare
  void plain.comparison;
  const compared = await client.stats({ site_id, compare: 'previous_period' });
  check<Equal<typeof compared, ComparedStatsResponse>>();
  const from: string = compared.comparison.from;
  const visitors: number = compared.comparison.visitors;
  const pages = await client.pages({ site_id, compare: 'year_over_year', limit: 5 });
  const pageviews: number = pages.pages[0]!.comparison.pageviews;
  // @ts-expect-error a row's comparison has its metric fields, not its name fields
  void pages.pages[0]!.comparison.url;
  const series = await client.timeseries({ site_id, interval: 'hour', period: '7d', compare: 'previous_period' });
  const labels: string[] = series.comparison.map((row) => row.date);
  const { devices } = await client.devices({ site_id, breakdown: 'os', compare: 'previous_period' });
  const deviceVisitors: number = devices[0]!.comparison.visitors;
  // Parameters whose compare is not known from their type: either shape.
  const either = await client.stats(params);
  check<Equal<typeof either, StatsResponse | ComparedStatsResponse>>();
  void [from, visitors, pageviews, labels, deviceVisitors];
  // @ts-expect-error unknown filter operator
  void client.stats({ site_id, filters: [['equals', 'country', ['DE']]] });
  // @ts-expect-error unknown filter dimension
  void client.stats({ site_id, filters: [['is', 'planet', ['Mars']]] });
  // @ts-expect-error filter values are strings
  void client.stats({ site_id, filters: [['is', 'country', [49]]] });
  // @ts-expect-error compare is previous_period or year_over_year
  void client.stats({ site_id, compare: 'last_week' });
  // @ts-expect-error interval is a /stats/timeseries parameter
  void client.stats({ site_id, interval: 'week' });
  // @ts-expect-error interval is day, hour, week or month
  void client.timeseries({ site_id, interval: 'minute' });
  // @ts-expect-error /live takes no filters or compare
  void client.live({ site_id, compare: 'previous_period' });
}
void _extensions;

// Properties and goals: `values` exactly when `property` is given, `comparison` exactly when `compare` is.
async function _propertiesAndGoals(): Promise<void> {
  const site_id = 'ST-a';
  const keys = await client.properties({ site_id, name: 'Signup' });
  check<Equal<typeof keys, PropertyKeysResponse>>();
  const values = await client.properties({ site_id, name: 'Signup', property: 'plan', compare: 'previous_period' });
  check<Equal<typeof values, ComparedPropertyValuesResponse>>();
  const plain = await client.properties({ site_id, name: 'Signup', property: 'plan', limit: 5 });
  check<Equal<typeof plain, PropertyValuesResponse>>();
  const goals = await client.goals({ site_id, filters: [['is', 'prop:plan', ['pro']], ['is_not', 'goal', ['Visit /thanks*']]] });
  check<Equal<typeof goals, GoalsResponse>>();
  const compared = await client.goals({ site_id, compare: 'year_over_year' });
  check<Equal<typeof compared, ComparedGoalsResponse>>();
  const rate: number = compared.goals[0]!.comparison.conversion_rate;
  void rate;
  // @ts-expect-error name is required
  void client.properties({ site_id });
  // @ts-expect-error /goals takes no limit
  void client.goals({ site_id, limit: 5 });
  // @ts-expect-error a property key filter needs the prop: prefix
  void client.stats({ site_id, filters: [['is', 'plan', ['pro']]] });
}
void _propertiesAndGoals;

// Funnels: exactly one of funnel and steps; `comparison` exactly when `compare` is given.
async function _funnels(): Promise<void> {
  const site_id = 'ST-a';
  const saved = await client.funnels({ site_id, funnel: 'Pricing to signup' });
  check<Equal<typeof saved, FunnelsResponse>>();
  const adHoc = await client.funnels({ site_id, steps: [{ page: '/pricing' }, { event: 'signup' }], compare: 'previous_period' });
  check<Equal<typeof adHoc, ComparedFunnelsResponse>>();
  const rate: number = adHoc.steps[0]!.comparison.dropoff_rate;
  const name: string | null = saved.funnel;
  void [rate, name];
  // @ts-expect-error one of funnel and steps is required
  void client.funnels({ site_id });
  // @ts-expect-error not both
  void client.funnels({ site_id, funnel: 'F', steps: [{ page: '/a' }, { page: '/b' }] });
  // @ts-expect-error a step is a page or an event
  void client.funnels({ site_id, steps: [{ goal: 'x' }, { page: '/b' }] });
  // @ts-expect-error a step's comparison has its metrics, not its name
  void adHoc.steps[0]!.comparison.step;
}
void _funnels;
