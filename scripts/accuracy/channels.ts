/**
 * Channel agreement with GA4's default channel grouping (dbt-ga4's unit cases) and with
 * PostHog's channel tests, and source-category agreement with Google's GA4 source list and
 * PostHog's domain types. Every case goes through `enrichEvent`, the code the import and
 * the collector run, from a landing URL and a referrer, so URL parsing counts too.
 */
import { sourceCategory } from '../../packages/core/src/derive/sources.js';
import { referrerHost } from '../../packages/core/src/derive/referrer.js';
import { enrichEvent } from '../../packages/core/src/import/enrich.js';
import type { Site } from '../../packages/core/src/types.js';
import { CHANNEL_NAMES, SOURCE_CATEGORY_NAMES } from './channel-names.js';
import { describeSource, readFixture } from './fixtures.js';
import { compare, createTally, exclude, type Tally } from './tally.js';

/** The target of issue 27 (issue 14 had 95%): channel agreement on comparable cases of every fixture set. */
export const CHANNEL_TARGET = 0.97;
/**
 * The target of issue 27 for agreement with Google's GA4 source-category list. The list is
 * shipped in the core (`derive/ga4-source-categories.json`), so this checks that it is wired
 * in, not how the categories generalise (docs/derivations.md).
 */
export const GA4_LIST_TARGET = 0.95;

const SITE: Site = { id: 'ST-accuracy', name: 'Accuracy', timezone: 'UTC', domain: 'site.example', accountId: null } as Site;

/** The channel our pipeline gives a landing URL and a referrer. */
export function channelOf(url: string, referrer: string): string {
  return enrichEvent(SITE, { ts: 0, type: 'pageview', url, referrer }, () => 'salt', 0).channel;
}

/** A landing URL on our test site carrying the given query parameters (empty ones left out). */
function landingUrl(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return `https://site.example/landing${query ? `?${query}` : ''}`;
}

/** Maps a peer's channel name, or explains why the case is left out. */
export function expectedChannel(tally: Tally, name: string, input: string): string | undefined {
  const ours = CHANNEL_NAMES[name];
  if (ours === undefined) throw new Error(`${tally.name}: no mapping for channel name "${name}"; add it to channel-names.ts`);
  if (ours === null) exclude(tally, `"${name}" has no counterpart in our channels`, input);
  return ours ?? undefined;
}

interface Ga4Case {
  source: string;
  medium: string;
  campaign: string;
  expected_channel: string;
}

/** GA4's placeholders for absent values. */
const GA4_ABSENT = new Set(['(direct)', '(none)', '(not set)', '']);

export function dbtGa4Channels(dir: string): Tally {
  const fixture = readFixture<Ga4Case>(dir, 'channel-dbt-ga4.json');
  const tally = createTally('channel (dbt-ga4, GA4 default)', describeSource(fixture), CHANNEL_TARGET);
  for (const c of fixture.cases) {
    const input = `source=${JSON.stringify(c.source)} medium=${JSON.stringify(c.medium)} campaign=${JSON.stringify(c.campaign)}`;
    const expected = expectedChannel(tally, c.expected_channel, input);
    if (expected === undefined) continue;
    const tag = (value: string) => (GA4_ABSENT.has(value) ? undefined : value);
    const url = landingUrl({ utm_source: tag(c.source), utm_medium: tag(c.medium), utm_campaign: tag(c.campaign) });
    compare(tally, input, expected, channelOf(url, ''));
  }
  return tally;
}

interface PostHogCase {
  test: string;
  kind: 'props' | 'wild';
  props?: Record<string, string>;
  url?: string;
  referrer?: string;
  expected: string;
}

/** PostHog writes absent values as `null` strings and no referrer as `$direct`. */
const POSTHOG_ABSENT = new Set(['', 'null', '$direct']);
/** An Android app id given as a referring domain (`com.google.android.gm`); we see it as `android-app://<id>/`. */
const APP_ID = /^(com|org|net|io)\.[a-z0-9_.]+$/i;

function referrerOfDomain(domain: string | undefined): string {
  if (domain === undefined || POSTHOG_ABSENT.has(domain)) return '';
  return APP_ID.test(domain) ? `android-app://${domain}/` : `https://${domain}/`;
}

export function postHogChannels(dir: string): Tally {
  const fixture = readFixture<PostHogCase>(dir, 'channel-posthog.json');
  const tally = createTally('channel (PostHog)', describeSource(fixture), CHANNEL_TARGET);
  for (const c of fixture.cases) {
    const input = c.kind === 'wild' ? `${c.test}: url=${c.url} referrer=${c.referrer || '(none)'}` : `${c.test}: ${JSON.stringify(c.props)}`;
    const expected = expectedChannel(tally, c.expected, input);
    if (expected === undefined) continue;
    if (c.kind === 'wild') {
      compare(tally, input, expected, channelOf(c.url ?? '', c.referrer ?? ''));
      continue;
    }
    const props = c.props ?? {};
    const present = (key: string) => (POSTHOG_ABSENT.has(props[key] ?? '') ? undefined : props[key]);
    const url = landingUrl({
      utm_source: present('utm_source'),
      utm_medium: present('utm_medium'),
      utm_campaign: present('utm_campaign'),
      gclid: present('gclid'),
      gad_source: present('gad_source'),
    });
    compare(tally, input, expected, channelOf(url, referrerOfDomain(props['referring_domain'])));
  }
  return tally;
}

interface SourceCase {
  source: string;
  category: string;
}

/** GA4's source list: each source (a host or a name) -> its category, against `sourceCategory`. */
export function ga4SourceCategories(dir: string): Tally {
  const fixture = readFixture<SourceCase>(dir, 'source-categories-ga4.json');
  const tally = createTally('source category (GA4 list)', describeSource(fixture), GA4_LIST_TARGET);
  for (const c of fixture.cases) {
    const expected = SOURCE_CATEGORY_NAMES[c.category];
    if (expected === undefined) throw new Error(`no mapping for source category "${c.category}"; add it to channel-names.ts`);
    if (expected === null) exclude(tally, `${c.category} has no counterpart in our categories`, c.source);
    else compare(tally, c.source, expected, String(sourceCategory(c.source)));
  }
  return tally;
}

/** PostHog's domain types: a referring host -> its category, as our referrer path reads it. */
export function postHogDomainTypes(dir: string): Tally {
  const fixture = readFixture<PostHogCase, { domain_type: { domain: string; expected: string }[] }>(dir, 'channel-posthog.json');
  const tally = createTally('source category (PostHog domains)', describeSource(fixture));
  for (const c of fixture.domain_type) {
    const expected = SOURCE_CATEGORY_NAMES[c.expected];
    if (expected === undefined) throw new Error(`no mapping for domain type "${c.expected}"; add it to channel-names.ts`);
    if (expected === null) exclude(tally, `${c.expected} has no counterpart in our categories`, c.domain);
    else compare(tally, c.domain, expected, String(sourceCategory(referrerHost(`https://${c.domain}/`) ?? '')));
  }
  return tally;
}
