/**
 * How demo sessions arrive: referrers, UTM tags and click ids, in shares
 * that exercise every channel rule (search, paid, social, AI, email,
 * referral, self-referral, partial UTM triples) and leave most visits direct.
 */
import type { DemoEvent } from './generate.js';
import { between, type Rng, token, weighted } from './random.js';

/** What the first pageview of a session carries besides its path. */
export interface Acquisition {
  referrer?: string;
  /** Click ids for the landing URL's query string (`gclid=...`). */
  clickIds?: string;
  utm?: { source?: string; medium?: string; campaign?: string };
}

const oneOf = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

const CAMPAIGNS = ['weekly-digest', 'product-update', 'launch-week', 'black-friday'];

/** Each way in, with its share of sessions (percent). `domain` is the site's own host. */
const SOURCES: readonly (readonly [(rng: Rng, domain: string) => Acquisition, number])[] = [
  [() => ({}), 36],
  [(r) => ({ referrer: oneOf(r, ['https://www.google.com/', 'https://www.google.de/', 'https://www.google.co.uk/', 'https://www.google.fr/']) }), 21],
  [(r) => ({
    referrer: 'https://www.google.com/',
    clickIds: `gclid=${token(r, 24)}`,
    ...(r() < 0.6 ? { utm: { source: 'google', medium: 'cpc', campaign: oneOf(r, ['brand-search', 'competitor-terms']) } } : {}),
  }), 3],
  [() => ({ referrer: 'https://www.bing.com/' }), 4],
  [() => ({ referrer: 'https://duckduckgo.com/' }), 3],
  [(r) => ({ referrer: oneOf(r, ['https://l.facebook.com/', 'https://m.facebook.com/']), ...(r() < 0.6 ? { clickIds: `fbclid=${token(r, 32)}` } : {}) }), 3],
  [(r) => ({ referrer: r() < 0.7 ? `https://t.co/${token(r, 10)}` : 'https://x.com/' }), 2.5],
  [() => ({ referrer: 'https://www.linkedin.com/feed/' }), 2],
  [(r) => ({ referrer: `https://www.reddit.com/r/${oneOf(r, ['webdev', 'selfhosted', 'analytics', 'SaaS'])}/comments/${token(r, 6)}/` }), 2],
  [(r) => ({ referrer: `https://news.ycombinator.com/item?id=${between(r, 40_000_000, 42_000_000)}` }), 2],
  [(r) => ({ referrer: 'https://chatgpt.com/', ...(r() < 0.5 ? { utm: { source: 'chatgpt.com' } } : {}) }), 2],
  [() => ({ referrer: 'https://www.perplexity.ai/' }), 0.7],
  [(r) => ({ utm: { source: 'newsletter', medium: 'email', campaign: oneOf(r, CAMPAIGNS) } }), 4],
  [() => ({ referrer: 'https://mail.google.com/' }), 0.5],
  [(r, domain) => ({ referrer: `https://${domain}${oneOf(r, ['/', '/blog', '/docs', '/pricing'])}` }), 3],
  [(r) => ({ referrer: oneOf(r, ['https://github.com/siteline/siteline', 'https://dev.to/t/analytics', 'https://stackoverflow.com/questions/4182', 'https://medium.com/@founder/our-stack', 'https://www.producthunt.com/products/siteline']) }), 5],
  // Partial triples: counted by source and channel, left out of /campaigns.
  [(r) => ({ utm: r() < 0.5 ? { source: 'producthunt' } : { source: 'partner-blog', medium: 'referral' } }), 2],
  [(r) => ({ referrer: 'https://l.facebook.com/', clickIds: `fbclid=${token(r, 32)}`, utm: { source: 'facebook', medium: 'paid_social', campaign: 'spring-sale' } }), 1],
  [() => ({ utm: { source: 'linkedin', medium: 'cpc', campaign: 'b2b-retargeting' } }), 0.5],
];

const pick = weighted(SOURCES);

/** How one session arrives. */
export const acquisition = (rng: Rng, domain: string): Acquisition => pick(rng)(rng, domain);

/** Sessions on a traffic-spike day mostly come from Hacker News. */
export const spikeAcquisition = (rng: Rng): Acquisition => ({
  referrer: `https://news.ycombinator.com/item?id=${between(rng, 40_000_000, 42_000_000)}`,
});

/** Puts referrer, UTM tags and click ids on a landing pageview: tags half in the URL, half as fields. */
export function land(rng: Rng, view: DemoEvent, domain: string, arrival: Acquisition): void {
  if (arrival.referrer) view.referrer = arrival.referrer;
  const query: string[] = [];
  const utm = arrival.utm ?? {};
  const inUrl = rng() < 0.5;
  for (const [field, value] of [['utm_source', utm.source], ['utm_medium', utm.medium], ['utm_campaign', utm.campaign]] as const) {
    if (value === undefined) continue;
    if (inUrl) query.push(`${field}=${encodeURIComponent(value)}`);
    else view[field] = value;
  }
  if (arrival.clickIds) query.push(arrival.clickIds);
  const base = rng() < 0.1 ? `https://${domain}${view.url}` : view.url;
  view.url = query.length > 0 ? `${base}?${query.join('&')}` : base;
}
