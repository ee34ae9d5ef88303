/**
 * The response bodies of the read API as zod schemas, for the OpenAPI
 * document. The TypeScript types of `@siteline/core` (types.ts) are the
 * definition; `schemas.test-d.ts`-style checks below make any difference
 * between a schema and its type a compile error, so the two cannot drift.
 */
import {
  CHANNELS,
  type CampaignRow,
  type ChannelRow,
  type ComparedEndpointResponses,
  type DeviceRow,
  type EndpointResponses,
  type EventRow,
  type FunnelStepRow,
  type GoalRow,
  type PropertyRow,
  type PropertyValueRow,
  type LocationRow,
  MESSAGES,
  type PageRow,
  type ReferrerRow,
  type Summary,
  type SummaryComparison,
  type TimeseriesRow,
} from '@siteline/core';
import { z } from 'zod';
import { HTTP_MESSAGES } from '../errors.js';

/** Schemas that become `components/schemas` entries, by name. */
export const registry = z.registry<{ id: string; description?: string }>();
const named = <T extends z.ZodType>(schema: T, id: string, description?: string): T => {
  registry.add(schema, description === undefined ? { id } : { id, description });
  return schema;
};

const count = z.number().int().min(0);
const percent = z.number().min(0).max(100).describe('Percentage 0-100, one decimal place.');
const seconds = z.number().min(0).describe('Seconds, one decimal place.');
const day = z.string().meta({ format: 'date' });

const summaryShape = { visitors: count, pageviews: count, sessions: count, bounce_rate: percent, avg_duration: seconds };
export const summary = named(z.object(summaryShape).strict(), 'Summary', '`/stats`: the summary record.');
const summaryComparison = named(
  z.object({ from: day, to: day, ...summaryShape }).strict(),
  'SummaryComparison',
  'The compared range and its summary.',
);
const timeseriesRow = named(
  z.object({
    date: z.string().describe('The bucket label: `YYYY-MM-DD` (day, and the Monday of a week), `YYYY-MM-DDTHH:00:00±HH:MM` (hour) or `YYYY-MM` (month).'),
    visitors: count,
    pageviews: count,
    sessions: count,
  }).strict(),
  'TimeseriesRow',
);
const pageMetrics = { pageviews: count, visitors: count, bounce_rate: percent, avg_duration: seconds };
const pageRow = named(z.object({ url: z.string(), ...pageMetrics }).strict(), 'PageRow');
const sessionMetrics = { visitors: count, sessions: count };
const referrerRow = named(z.object({ source: z.string(), ...sessionMetrics }).strict(), 'ReferrerRow');
const channelRow = named(z.object({ channel: z.enum(CHANNELS), ...sessionMetrics }).strict(), 'ChannelRow');
const locationRow = named(z.object({ country: z.string(), country_code: z.string().length(2), visitors: count }).strict(), 'LocationRow');
const deviceRow = named(z.object({ name: z.string(), visitors: count }).strict(), 'DeviceRow');
const eventRow = named(z.object({ name: z.string(), count }).strict(), 'EventRow');
const campaignRow = named(z.object({ source: z.string(), medium: z.string(), campaign: z.string(), ...sessionMetrics }).strict(), 'CampaignRow');
const breakdown = z.enum(['device_type', 'browser', 'os']);
const propertyMetrics = { count, visitors: count };
const propertyRow = named(z.object({ property: z.string(), ...propertyMetrics }).strict(), 'PropertyRow', 'A property key of the event, with its events and daily visitors.');
const propertyValueRow = named(z.object({ value: z.string(), ...propertyMetrics }).strict(), 'PropertyValueRow', 'A value of the property, with its events and daily visitors.');
const goalMetrics = { visitors: count, conversions: count, conversion_rate: percent };
const goalRow = named(z.object({ goal: z.string().describe('The display name: the event name, or `Visit ` and the page pattern.'), ...goalMetrics }).strict(), 'GoalRow');
const funnelMetrics = { visitors: count, dropoff: count, dropoff_rate: percent, conversion_rate: percent, conversion_rate_step: percent };
const funnelStepRow = named(
  z.object({ step: z.string().describe('The step\'s display name: the event name, or `Visit ` and the page pattern.'), ...funnelMetrics }).strict(),
  'FunnelStepRow',
  'One step of the funnel, in funnel order: its visitors, drop-off from the step before, and conversion rates from step 1 and from the step before.',
);
const funnelName = z.string().nullable().describe('The saved funnel\'s name; `null` for ad-hoc `steps`.');

/** A row with `comparison`: its metric fields over the compared range. */
const compared = <S extends z.ZodRawShape, M extends z.ZodRawShape>(row: z.ZodObject<S>, metrics: M, id: string) =>
  named(row.extend({ comparison: z.object(metrics).strict() }).strict(), id);

/** Each endpoint's 200 body: the v1 body, or (with `compare`) the compared one. */
export const bodies = {
  stats: z.union([summary, named(summary.extend({ comparison: summaryComparison }).strict(), 'ComparedStats')]),
  timeseries: z.union([
    z.object({ timeseries: z.array(timeseriesRow) }).strict(),
    z.object({ timeseries: z.array(timeseriesRow), comparison: z.array(timeseriesRow) }).strict(),
  ]),
  pages: z.union([
    z.object({ pages: z.array(pageRow) }).strict(),
    z.object({ pages: z.array(compared(pageRow, pageMetrics, 'ComparedPageRow')) }).strict(),
  ]),
  referrers: z.union([
    z.object({ referrers: z.array(referrerRow) }).strict(),
    z.object({ referrers: z.array(compared(referrerRow, sessionMetrics, 'ComparedReferrerRow')) }).strict(),
  ]),
  channels: z.union([
    z.object({ channels: z.array(channelRow) }).strict(),
    z.object({ channels: z.array(compared(channelRow, sessionMetrics, 'ComparedChannelRow')) }).strict(),
  ]),
  locations: z.union([
    z.object({ locations: z.array(locationRow) }).strict(),
    z.object({ locations: z.array(compared(locationRow, { visitors: count }, 'ComparedLocationRow')) }).strict(),
  ]),
  devices: z.union([
    z.object({ breakdown, devices: z.array(deviceRow) }).strict(),
    z.object({ breakdown, devices: z.array(compared(deviceRow, { visitors: count }, 'ComparedDeviceRow')) }).strict(),
  ]),
  events: z.union([
    z.object({ events: z.array(eventRow) }).strict(),
    z.object({ events: z.array(compared(eventRow, { count }, 'ComparedEventRow')) }).strict(),
  ]),
  campaigns: z.union([
    z.object({ campaigns: z.array(campaignRow) }).strict(),
    z.object({ campaigns: z.array(compared(campaignRow, sessionMetrics, 'ComparedCampaignRow')) }).strict(),
  ]),
  live: z.object({ live: count }).strict(),
  properties: z.union([
    z.object({ name: z.string(), properties: z.array(propertyRow) }).strict(),
    z.object({ name: z.string(), property: z.string(), values: z.array(propertyValueRow) }).strict(),
    z.object({ name: z.string(), properties: z.array(compared(propertyRow, propertyMetrics, 'ComparedPropertyRow')) }).strict(),
    z.object({ name: z.string(), property: z.string(), values: z.array(compared(propertyValueRow, propertyMetrics, 'ComparedPropertyValueRow')) }).strict(),
  ]),
  goals: z.union([
    z.object({ goals: z.array(goalRow) }).strict(),
    z.object({ goals: z.array(compared(goalRow, goalMetrics, 'ComparedGoalRow')) }).strict(),
  ]),
  funnels: z.union([
    z.object({ funnel: funnelName, visitors: count, steps: z.array(funnelStepRow) }).strict(),
    z.object({
      funnel: funnelName,
      visitors: count,
      steps: z.array(compared(funnelStepRow, funnelMetrics, 'ComparedFunnelStepRow')),
      comparison: named(z.object({ from: day, to: day, visitors: count }).strict(), 'FunnelComparison', 'The compared range and its `/stats` visitors.'),
    }).strict(),
  ]),
};
for (const [endpoint, schema] of Object.entries(bodies)) {
  registry.add(schema, { id: `${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}Response` });
}

/** Every 422 message of decisions.md section 5 and query-extensions.md section 4. */
export const VALIDATION_MESSAGES: string[] = Object.values(MESSAGES).flatMap((m) =>
  typeof m === 'string' ? [m] : m.length === 1 ? (['from', 'to'] as const).map((f) => (m as (f: 'from' | 'to') => string)(f)) : [(m as (a: 'from' | 'to', b: 'from' | 'to') => string)('to', 'from'), (m as (a: 'from' | 'to', b: 'from' | 'to') => string)('from', 'to')],
);

/** Error bodies by status, each with the exact messages it can carry. */
export const errors = {
  401: named(z.object({ error: z.literal(HTTP_MESSAGES.unauthorized) }).strict(), 'Unauthorized', 'Key missing, invalid or revoked.'),
  403: named(z.object({ error: z.literal(HTTP_MESSAGES.https) }).strict(), 'HttpsRequired', 'The request did not arrive over HTTPS.'),
  404: named(z.object({ error: z.enum(['Site not found.', HTTP_MESSAGES.notFound]) }).strict(), 'NotFound', 'No such site for this key, or no such path.'),
  414: named(z.object({ error: z.literal(HTTP_MESSAGES.uriTooLong) }).strict(), 'UriTooLong', 'The request target is longer than 8,192 characters.'),
  422: named(z.object({ error: z.enum(VALIDATION_MESSAGES as [string, ...string[]]) }).strict(), 'ValidationError', 'The first failing validation rule.'),
  429: named(z.object({ error: z.literal(HTTP_MESSAGES.tooManyRequests) }).strict(), 'TooManyRequests', 'The key spent its request budget.'),
  500: named(z.object({ error: z.literal(HTTP_MESSAGES.serverError) }).strict(), 'ServerError', 'The detail is in the server log under X-Request-Id.'),
} as const;

// Compile-time: each schema's type is exactly the core type (a difference fails `npm run typecheck`).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const same = <T extends true>(): T | undefined => undefined;
same<Equal<z.infer<typeof summary>, Summary>>();
same<Equal<z.infer<typeof summaryComparison>, Mutable<SummaryComparison>>>();
same<Equal<z.infer<typeof timeseriesRow>, TimeseriesRow>>();
same<Equal<z.infer<typeof pageRow>, PageRow>>();
same<Equal<z.infer<typeof referrerRow>, ReferrerRow>>();
same<Equal<z.infer<typeof channelRow>, ChannelRow>>();
same<Equal<z.infer<typeof locationRow>, LocationRow>>();
same<Equal<z.infer<typeof deviceRow>, DeviceRow>>();
same<Equal<z.infer<typeof eventRow>, EventRow>>();
same<Equal<z.infer<typeof campaignRow>, CampaignRow>>();
same<Equal<z.infer<typeof propertyRow>, PropertyRow>>();
same<Equal<z.infer<typeof propertyValueRow>, PropertyValueRow>>();
same<Equal<z.infer<typeof goalRow>, GoalRow>>();
same<Equal<z.infer<typeof funnelStepRow>, FunnelStepRow>>();
same<Equal<z.infer<typeof bodies.live>, EndpointResponses['live']>>();
// Whole bodies: the v1 and compared shapes and the core types are assignable both ways.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Bodies = { [E in keyof typeof bodies]: z.infer<(typeof bodies)[E]> };
type Core = { [E in keyof typeof bodies]: E extends keyof ComparedEndpointResponses ? EndpointResponses[E] | ComparedEndpointResponses[E] : EndpointResponses[E] };
same<Mutual<Bodies, Core>>();
