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
const percent = z.number().min(0).max(100);
const seconds = z.number().min(0);
const day = z.string().meta({ format: 'date' });

/** Every number a reader meets, said once: what it counts, over which days. */
const visitors = count.describe('Unique visitors: for each day of the range, the distinct visitors of the sessions that started that day, summed over the days.');
const sessionsOfRow = count.describe('Sessions that started on the days of the range.');
const summaryShape = {
  visitors,
  pageviews: count.describe('Pageviews recorded on the days of the range.'),
  sessions: count.describe('Sessions that started on the days of the range (a session ends after 30 minutes without an event).'),
  bounce_rate: percent.describe('Percentage of those sessions with exactly one pageview and no custom event, one decimal place.'),
  avg_duration: seconds.describe('Mean session length in seconds, first to last event (a bounce counts as 0), one decimal place.'),
};
export const summary = z.object(summaryShape).strict();
const summaryComparison = named(
  z.object({ from: day.describe('First day of the compared range.'), to: day.describe('Last day of the compared range.'), ...summaryShape }).strict(),
  'SummaryComparison',
  'The compared range and its summary.',
);
const timeseriesRow = named(
  z.object({
    date: z.string().describe('The bucket label: `YYYY-MM-DD` (day, and the Monday of a week), `YYYY-MM-DDTHH:00:00±HH:MM` (hour) or `YYYY-MM` (month).'),
    visitors: count.describe('Unique visitors of the bucket: of a day, its distinct visitors; of an hour, the distinct visitors whose sessions started in it; of a week or month, its days\' visitors summed.'),
    pageviews: count.describe('Pageviews in the bucket.'),
    sessions: count.describe('Sessions that started in the bucket.'),
  }).strict(),
  'TimeseriesRow',
);
const pageMetrics = {
  pageviews: count.describe('Pageviews of the path.'),
  visitors: count.describe('For each day, the distinct visitors who viewed the path, summed over the days.'),
  bounce_rate: percent.describe('Bounce rate of the sessions that entered the site on this path, one decimal place.'),
  avg_duration: seconds.describe('Mean time on the page in seconds: from each view to the next event of its session (a session\'s last view does not count); 0 when no view has a next event.'),
};
const pageRow = named(z.object({ url: z.string().describe('The path of the page, without query string or fragment.'), ...pageMetrics }).strict(), 'PageRow');
const sessionMetrics = { visitors, sessions: sessionsOfRow };
const referrerRow = named(z.object({
  source: z.string().describe('The referring host, lower-cased, without `www.`; `Direct / None` for sessions without a referrer or referred by the site itself.'),
  ...sessionMetrics,
}).strict(), 'ReferrerRow');
const channelRow = named(z.object({ channel: z.enum(CHANNELS).describe('The session\'s marketing channel, from its referrer, UTM tags and click ids.'), ...sessionMetrics }).strict(), 'ChannelRow');
const locationRow = named(z.object({
  country: z.string().describe('The country\'s English short name; `Unknown` when the address could not be placed.'),
  country_code: z.string().length(2).describe('ISO 3166-1 alpha-2 code; `XX` for unknown.'),
  visitors,
}).strict(), 'LocationRow');
const deviceRow = named(z.object({ name: z.string().describe('A device type (`Desktop`, `Mobile`, `Tablet`, `Unknown`), browser or operating system, by `breakdown`.'), visitors }).strict(), 'DeviceRow');
const eventCount = count.describe('Times it was recorded on the days of the range.');
const eventRow = named(z.object({ name: z.string().describe('The custom event\'s name.'), count: eventCount }).strict(), 'EventRow');
const campaignRow = named(z.object({
  source: z.string().describe('`utm_source`, as recorded.'),
  medium: z.string().describe('`utm_medium`, as recorded.'),
  campaign: z.string().describe('`utm_campaign`, as recorded.'),
  ...sessionMetrics,
}).strict(), 'CampaignRow');
const breakdown = z.enum(['device_type', 'browser', 'os']).describe('The breakdown used.');
const propertyMetrics = {
  count: count.describe('Events of that name carrying the key (or that value).'),
  visitors: count.describe('For each day, the distinct visitors among those events, summed over the days.'),
};
const propertyRow = named(z.object({ property: z.string().describe('A property key.'), ...propertyMetrics }).strict(), 'PropertyRow', 'A property key of the event, with its events and daily visitors.');
const propertyValueRow = named(z.object({ value: z.string().describe('A value of the key, as text (numbers and booleans as JavaScript writes them).'), ...propertyMetrics }).strict(), 'PropertyValueRow', 'A value of the property, with its events and daily visitors.');
const goalMetrics = {
  visitors: count.describe('For each day, the distinct visitors of the sessions that started that day and converted, summed.'),
  conversions: count.describe('Events that met the goal, in the sessions that converted, on the days of the range.'),
  conversion_rate: percent.describe('`visitors` as a percentage of the `/stats` visitors with the same parameters, one decimal place.'),
};
const goalRow = named(z.object({ goal: z.string().describe('The display name: the event name, or `Visit ` and the page pattern.'), ...goalMetrics }).strict(), 'GoalRow');
const eventName = z.string().describe('The event asked for (`name`).');
const propertyKey = z.string().describe('The key asked for (`property`).');
const funnelMetrics = {
  visitors: count.describe('For each day, the distinct visitors of the counted sessions (matching, started that day) that reached this step, summed over the days.'),
  dropoff: count.describe('The step before\'s visitors minus this step\'s; 0 for step 1.'),
  dropoff_rate: percent.describe('`dropoff` as a percentage of the step before\'s visitors, one decimal place; 0 for step 1 and when that is 0.'),
  conversion_rate: percent.describe('`visitors` as a percentage of step 1\'s visitors, one decimal place; 0 when that is 0.'),
  conversion_rate_step: percent.describe('`visitors` as a percentage of the step before\'s visitors (step 1: 100 when it has visitors), one decimal place; 0 when that is 0.'),
};
const funnelStepRow = named(
  z.object({ step: z.string().describe('The step\'s display name: the event name, or `Visit ` and the page pattern.'), ...funnelMetrics }).strict(),
  'FunnelStepRow',
  'One step of the funnel, in funnel order: its visitors, drop-off from the step before, and conversion rates from step 1 and from the step before.',
);
const funnelName = z.string().nullable().describe('The saved funnel\'s name; `null` for ad-hoc `steps`.');
const funnelVisitors = count.describe('The `/stats` visitors with the same parameters (the sessions counted before any step).');

/** `imported` of a body (docs/behaviour.md, "Imported data"): only on sites with imported days that count in the range. */
const importedNote = named(
  z.object({
    included: z.boolean().describe('Whether the numbers include the imported days.'),
    days: count.describe('Imported days of the range that count: days without native events.'),
    reason: z.string().optional().describe('Why the imported days are left out, when they are.'),
  }).strict().describe('Only on sites with imported daily totals (a Plausible import) on days of the range without native events: whether the numbers include them, how many days, and why not.'),
  'ImportedNote',
);
const imported = importedNote.optional();

/** A row with `comparison`: its metric fields over the compared range. */
const compared = <S extends z.ZodRawShape, M extends z.ZodRawShape>(row: z.ZodObject<S>, metrics: M, id: string) =>
  named(row.extend({ comparison: z.object(metrics).strict() }).strict(), id);

/** Each endpoint's 200 body: the v1 body, or (with `compare`) the compared one. */
export const bodies = {
  stats: z.union([named(summary.extend({ imported }).strict(), 'Summary', '`/stats`: the summary record.'), named(summary.extend({ comparison: summaryComparison, imported }).strict(), 'ComparedStats')]),
  timeseries: z.union([
    z.object({ timeseries: z.array(timeseriesRow), imported }).strict(),
    z.object({ timeseries: z.array(timeseriesRow), comparison: z.array(timeseriesRow), imported }).strict(),
  ]),
  pages: z.union([
    z.object({ pages: z.array(pageRow), imported }).strict(),
    z.object({ pages: z.array(compared(pageRow, pageMetrics, 'ComparedPageRow')), imported }).strict(),
  ]),
  referrers: z.union([
    z.object({ referrers: z.array(referrerRow), imported }).strict(),
    z.object({ referrers: z.array(compared(referrerRow, sessionMetrics, 'ComparedReferrerRow')), imported }).strict(),
  ]),
  channels: z.union([
    z.object({ channels: z.array(channelRow), imported }).strict(),
    z.object({ channels: z.array(compared(channelRow, sessionMetrics, 'ComparedChannelRow')), imported }).strict(),
  ]),
  locations: z.union([
    z.object({ locations: z.array(locationRow), imported }).strict(),
    z.object({ locations: z.array(compared(locationRow, { visitors }, 'ComparedLocationRow')), imported }).strict(),
  ]),
  devices: z.union([
    z.object({ breakdown, devices: z.array(deviceRow), imported }).strict(),
    z.object({ breakdown, devices: z.array(compared(deviceRow, { visitors }, 'ComparedDeviceRow')), imported }).strict(),
  ]),
  events: z.union([
    z.object({ events: z.array(eventRow), imported }).strict(),
    z.object({ events: z.array(compared(eventRow, { count: eventCount }, 'ComparedEventRow')), imported }).strict(),
  ]),
  campaigns: z.union([
    z.object({ campaigns: z.array(campaignRow), imported }).strict(),
    z.object({ campaigns: z.array(compared(campaignRow, sessionMetrics, 'ComparedCampaignRow')), imported }).strict(),
  ]),
  live: z.object({ live: count.describe('Distinct visitors with a pageview in the last 5 minutes.') }).strict(),
  properties: z.union([
    z.object({ name: eventName, properties: z.array(propertyRow), imported }).strict(),
    z.object({ name: eventName, property: propertyKey, values: z.array(propertyValueRow), imported }).strict(),
    z.object({ name: eventName, properties: z.array(compared(propertyRow, propertyMetrics, 'ComparedPropertyRow')), imported }).strict(),
    z.object({ name: eventName, property: propertyKey, values: z.array(compared(propertyValueRow, propertyMetrics, 'ComparedPropertyValueRow')), imported }).strict(),
  ]),
  goals: z.union([
    z.object({ goals: z.array(goalRow), imported }).strict(),
    z.object({ goals: z.array(compared(goalRow, goalMetrics, 'ComparedGoalRow')), imported }).strict(),
  ]),
  funnels: z.union([
    z.object({ funnel: funnelName, visitors: funnelVisitors, steps: z.array(funnelStepRow), imported }).strict(),
    named(z.object({
      funnel: funnelName,
      visitors: funnelVisitors,
      steps: z.array(compared(funnelStepRow, funnelMetrics, 'ComparedFunnelStepRow')),
      comparison: named(z.object({ from: day, to: day, visitors: funnelVisitors }).strict(), 'FunnelComparison', 'The compared range and its `/stats` visitors.'),
      imported,
    }).strict(), 'ComparedFunnels'),
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
