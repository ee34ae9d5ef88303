/**
 * A generated dataset for the differential test (used only by tests):
 * several sites in different time zones, visitors returning across days,
 * sessions by the 30-minute rule and by imported session ids (some spanning
 * days and import batches), equal timestamps, UTM triples, referrers, click
 * ids, user agents and IPs to derive from. Deterministic for a seed.
 */
import { mulberry32 } from '@siteline/core';

export const DIFF_SITES: readonly { id: string; name: string; timezone: string; domain?: string }[] = [
  { id: 'ST-diffutc', name: 'UTC', timezone: 'UTC', domain: 'utc.example' },
  { id: 'ST-diffny', name: 'New York', timezone: 'America/New_York', domain: 'ny.example' },
  { id: 'ST-diffkol', name: 'Kolkata', timezone: 'Asia/Kolkata' },
  { id: 'ST-diffakl', name: 'Auckland', timezone: 'Pacific/Auckland', domain: 'akl.example' },
];

/** First and last day of generated data (UTC), with room for every zone. */
export const DIFF_SPAN = { from: '2026-10-20', to: '2026-11-29' };

const PATHS = ['/', '/pricing', '/docs', '/docs/', '/blog/a', '/blog/b', '/caf%C3%A9', '/about', '/d_cs', '/50%off'];
const EVENTS = ['signup', 'download', 'play', 'share'];
const REFERRERS = [
  '', '', '', 'https://www.google.com/search?q=x', 'https://www.bing.com/', 'https://news.ycombinator.com/item?id=1',
  'https://t.co/abc', 'https://www.facebook.com/', 'https://mail.google.com/mail/u/0/', 'https://blog.example.org/post',
  'https://chatgpt.com/', 'https://WWW.Example.NET/x',
];
const ENTRY_QUERIES = [
  '', '', '', '?utm_source=news&utm_medium=email&utm_campaign=nov', '?utm_source=google&utm_medium=cpc&utm_campaign=brand&gclid=g1',
  '?utm_source=fb&utm_medium=paid-social', '?fbclid=f1', '?utm_source=x&utm_medium=social&utm_campaign=launch',
];
const PEOPLE = [
  { country_code: 'GB', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' },
  { country_code: 'DE', device_type: 'Desktop', browser: 'Firefox', os: 'Linux' },
  { country_code: 'US', device_type: 'Mobile', browser: 'Safari', os: 'iOS' },
  { country_code: 'IN', device_type: 'Tablet', browser: 'Chrome', os: 'Android' },
  {},
  { ip: '8.8.8.8', user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15' },
  { ip: '2001:4860:4860::8888', user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0' },
];

/** Property values, with every character the stores must keep exactly: quotes, backslashes, tab, newline, %, _, *, Unicode. */
const ODD = ["it's", 'back\\slash', 'tab\there', 'line\nbreak', '50%', 'a_b', 'a*b', 'é😀', '"q"', '[,]'];
const PLANS = ['free', 'free', 'free', 'pro', 'pro', 'Pro', 'team', ''];

/** The goals of every differential site: event goals, page goals with `*`, and patterns whose `%` and `_` are literal. */
export const DIFF_GOALS = [
  { type: 'event', value: 'signup' },
  { type: 'event', value: 'play' },
  { type: 'page', value: '/blog/*' },
  { type: 'page', value: '/docs*' },
  { type: 'page', value: '/d_cs' },
  { type: 'page', value: '/50%off' },
  { type: 'page', value: '/*a*' },
  { type: 'event', value: 'never' },
] as const;

/** The funnels saved for every differential site: a plain one and one whose first step comes again. */
export const DIFF_FUNNELS = [
  { name: 'Pricing', steps: [{ page: '/' }, { page: '/pricing' }, { event: 'signup' }] },
  { name: 'Repeat', steps: [{ page: '/' }, { page: '/docs*' }, { page: '/' }] },
] as const;

/** Ad-hoc funnels of the differential: an event twice and a literal `%`; patterns with `*` and a literal `_`; eight steps. */
export const DIFF_STEPS = [
  [{ page: '/blog/*' }, { event: 'play' }, { event: 'play' }, { page: '/50%off' }],
  [{ page: '*a*' }, { page: '/d_cs' }, { event: 'download' }, { page: '*' }],
  [{ page: '*' }, { page: '*' }, { page: '*' }, { page: '*' }, { page: '*' }, { page: '*' }, { page: '*' }, { page: '*' }],
] as const;

/** A custom event's props, from their own generator (so the rest of the data stays what it was): a few keys, skewed values, odd text. */
function propsOf(rand: () => number): Record<string, unknown> | undefined {
  if (rand() < 0.15) return undefined;
  const props: Record<string, unknown> = {};
  const plan = PLANS[Math.floor(rand() * PLANS.length)]!;
  if (rand() < 0.8) props.plan = plan === '' ? null : plan;
  if (rand() < 0.4) props.seats = [1, 1, 2, 5, 10][Math.floor(rand() * 5)];
  if (rand() < 0.3) props.odd = ODD[Math.floor(rand() * ODD.length)];
  if (rand() < 0.1) props[ODD[Math.floor(rand() * ODD.length)]!] = rand() < 0.5;
  return props;
}

/**
 * About `sessions` x 5 events per site, as import lines split by time into
 * `batches` equal slices of the span. Sessions with imported ids run across
 * slice borders, so one session is written by two imports; importing the
 * slices out of order (see the test) makes a later import bring a session's
 * earlier events.
 */
export function generateDiffData(seed = 42, sessions = 1500, batches = 3): object[][] {
  const rand = mulberry32(seed);
  const propRand = mulberry32(seed + 1);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const out: object[][] = Array.from({ length: batches }, () => []);
  const spanStart = Date.parse(`${DIFF_SPAN.from}T12:00:00Z`);
  const spanMs = Date.parse(`${DIFF_SPAN.to}T12:00:00Z`) - spanStart;

  for (const site of DIFF_SITES) {
    for (let k = 0; k < sessions; k++) {
      const person = pick(PEOPLE);
      const visitor = person.ip ? undefined : `v${int(400)}`;
      const explicit = rand() < 0.15 ? `${site.id}-s${k}` : undefined;
      const referrer = pick(REFERRERS).replace('WWW.Example.NET', rand() < 0.3 && site.domain ? `www.${site.domain}` : 'WWW.Example.NET');
      let ts = spanStart + int(spanMs / 1000) * 1000 + (rand() < 0.2 ? int(1000) : 0);
      const count = 1 + Math.min(12, Math.floor(-Math.log(1 - rand()) * 4));
      for (let i = 0; i < count; i++) {
        if (i > 0) {
          const r = rand();
          ts += r < 0.1 ? 0 : r < 0.16 ? 31 * 60_000 + int(3_600_000) * (explicit ? 8 : 1) : int(600_000);
        }
        const isEvent = i > 0 && rand() < 0.2;
        const url = i === 0 ? `https://${site.domain ?? 'site.example'}${pick(PATHS)}${pick(ENTRY_QUERIES)}` : pick(PATHS);
        const line: Record<string, unknown> = { site_id: site.id, ts: new Date(ts).toISOString(), type: isEvent ? 'event' : 'pageview', ...person };
        if (isEvent) line.name = pick(EVENTS);
        const props = isEvent ? propsOf(propRand) : undefined;
        if (props) line.props = props;
        if (!isEvent || rand() < 0.7) line.url = url;
        if (visitor) line.visitor_id = visitor;
        if (explicit) line.session_id = explicit;
        if (i === 0 && referrer) line.referrer = referrer;
        out[Math.min(batches - 1, Math.max(0, Math.floor(((ts - spanStart) / spanMs) * batches)))]!.push(line);
      }
    }
  }
  return out;
}
