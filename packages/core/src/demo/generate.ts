import { acquisition, type Acquisition, land, spikeAcquisition } from './acquisition.js';
import { COUNTRIES, type DeviceProfile, DEVICES, EVENT_PROPS, eventsFor, HOUR_WEIGHTS, MONTH_WEIGHTS, PAGES, SESSION_LENGTHS, WALKS, WEEKDAY_WEIGHTS } from './catalog.js';
import { between, mulberry32, normal, poisson, type Rng, weighted, zipf } from './random.js';

export interface DemoOptions {
  /** Site the events belong to (must exist before they are imported). */
  siteId: string;
  /** Number of 24-hour days, ending at `end`. */
  days: number;
  /** Roughly how many pageviews a day (weekdays more, weekends fewer). */
  pageviewsPerDay: number;
  /** Same seed, same options: same events. Default 1. */
  seed?: number;
  /** Instant (epoch ms) the data ends at, exclusive; default now. */
  end?: number;
  /** Site time zone: shapes traffic by local hour and weekday. Default `UTC`. */
  timezone?: string;
  /** The site's own host, for self-referrals and full landing URLs. Default `demo.siteline.test`. */
  domain?: string;
  /**
   * A year's shape on top of the daily and weekly rhythm: each local day's traffic times
   * `seasonFactor(day)` (`MONTH_WEIGHTS`, mean 1). Default false, so shorter data stays as it was.
   */
  seasonal?: boolean;
}

/** One line of the import format (decisions.md section 8) as the generator writes it. */
export interface DemoEvent {
  site_id: string;
  ts: string;
  type: 'pageview' | 'event';
  name?: string;
  url?: string;
  visitor_id: string;
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  country_code: string;
  user_agent?: string;
  device_type?: string;
  browser?: string;
  os?: string;
  /** A custom event's properties (properties-goals.md section 1). */
  props?: Record<string, string | number | boolean>;
}

interface Visitor {
  id: string;
  country: string;
  device: DeviceProfile;
  /** Half the visitors carry explicit device fields, half a user agent, so both import paths run. */
  explicit: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETURNING_SHARE = 0.25;
const VISITOR_POOL = 5_000;

const pickCountry = weighted(COUNTRIES);
const pickDevice = weighted(DEVICES);
const pickLength = weighted(SESSION_LENGTHS);
const pickPage = zipf(PAGES);
const MEAN_PAGES = SESSION_LENGTHS.reduce((s, [n, w]) => s + n * w, 0) / SESSION_LENGTHS.reduce((s, [, w]) => s + w, 0);
const byTime = (a: { ts: number }, b: { ts: number }) => a.ts - b.ts;
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);

/**
 * Realistic, deterministic analytics traffic for one site, as import-format
 * lines in time order: Zipf-skewed pages, sessions of 1-8 pageviews with
 * gaps of seconds to minutes (a few pauses over 30 minutes, which the import
 * splits into two sessions), daily and weekly rhythm in the site's time zone,
 * a slight growth trend and the odd Hacker News spike, mixed referrers and
 * UTM tags, countries, devices and custom events. Lines are yielded as they
 * are made, so millions cost no more memory than a few hours of traffic.
 *
 * @example
 * for (const event of generateDemoEvents({ siteId: 'ST-demo', days: 30, pageviewsPerDay: 400, seed: 7 })) {
 *   out.write(`${JSON.stringify(event)}\n`);
 * }
 */
export function* generateDemoEvents(options: DemoOptions): Generator<DemoEvent> {
  const { siteId, days, pageviewsPerDay, seed = 1, end = Date.now(), timezone = 'UTC', domain = 'demo.siteline.test', seasonal = false } = options;
  if (!(Number.isInteger(days) && days >= 1)) throw new RangeError('days must be a positive integer.');
  if (!(pageviewsPerDay > 0)) throw new RangeError('pageviewsPerDay must be positive.');
  if (!Number.isFinite(end)) throw new RangeError('end must be an instant in epoch milliseconds.');
  const rng = mulberry32(seed);
  const clock = localClock(timezone);
  const start = end - days * DAY;
  const sessionsPerHour = pageviewsPerDay / MEAN_PAGES / HOUR_TOTAL;
  const visitors: Visitor[] = [];
  let visitorCount = 0;
  const idPrefix = `${(seed >>> 0).toString(36)}-`;
  const newVisitor = (): Visitor => {
    const visitor = { id: idPrefix + visitorCount.toString(36), country: pickCountry(rng), device: pickDevice(rng), explicit: rng() < 0.5 };
    visitors[visitorCount++ % VISITOR_POOL] = visitor;
    return visitor;
  };

  let pending: { ts: number; event: DemoEvent }[] = [];
  let today = '';
  let dayFactor = 1;
  let spike = false;
  for (let slot = Math.floor(start / HOUR) * HOUR; slot < end; slot += HOUR) {
    const from = Math.max(slot, start);
    const to = Math.min(slot + HOUR, end);
    const local = clock(slot);
    if (local.day !== today) {
      today = local.day;
      spike = rng() < 0.03;
      dayFactor = Math.exp(0.12 * normal(rng) - 0.0072) * (spike ? 2.2 : 1) * (seasonal ? seasonFactor(today) : 1);
    }
    const trend = 0.85 + (0.3 * (slot - start)) / (end - start);
    const lambda = sessionsPerHour * HOUR_WEIGHTS[local.hour]! * (WEEKDAY_WEIGHTS[local.weekday] ?? 1) * trend * dayFactor * ((to - from) / HOUR);
    for (let n = poisson(rng, lambda); n > 0; n--) {
      const returning = visitors.length > 0 && rng() < RETURNING_SHARE;
      const visitor = returning ? visitors[Math.floor(rng() * visitors.length)]! : newVisitor();
      const arrival = spike && rng() < 0.5 ? spikeAcquisition(rng) : acquisition(rng, domain);
      const t0 = Math.ceil((from + rng() * (to - from)) / 1000) * 1000;
      for (const event of session(rng, siteId, domain, visitor, arrival, t0)) pending.push(event);
    }
    // Sessions of later slots start at `to` or after, so everything before `to` is final.
    pending.sort(byTime);
    let i = 0;
    for (; i < pending.length && pending[i]!.ts < to; i++) yield pending[i]!.event;
    pending = pending.slice(i);
  }
  // What is left lies at or after `end`: in the future, so it is dropped.
}

/**
 * The seasonal weight of a local day (`YYYY-MM-DD`): `MONTH_WEIGHTS` at the 15th of each
 * month, straight lines between, so the year's curve has no steps.
 * @example seasonFactor('2026-08-15') // 0.8
 */
export function seasonFactor(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const at = month - 1 + (date - 15) / length;
  const i = Math.floor(at);
  const t = at - i;
  const weight = (m: number) => MONTH_WEIGHTS[(m + 12) % 12]!;
  return weight(i) * (1 - t) + weight(i + 1) * t;
}

/**
 * The same lines as NDJSON text lines, ready for `importEvents`.
 * @example await importEvents(storage, demoNdjson({ siteId: 'ST-demo', days: 30, pageviewsPerDay: 400 }));
 */
export function* demoNdjson(options: DemoOptions): Generator<string> {
  for (const event of generateDemoEvents(options)) yield JSON.stringify(event);
}

/**
 * Events of one visit: pageviews with human gaps, and custom events between them. Now and then
 * a visitor walks on from a page to the one it leads to (`WALKS`: pricing to signup, docs to the
 * download page), so the demo's funnels have visitors at every step. Whether and what then
 * happens is drawn from a generator of its own (`seeded`), and the main one draws what it would
 * have for the page it replaced: every other visit stays what it was before walks existed.
 */
function session(rng: Rng, siteId: string, domain: string, visitor: Visitor, arrival: Acquisition, t0: number) {
  const events: { ts: number; event: DemoEvent }[] = [];
  let path = pickPage(rng);
  let shown = path;
  let t = t0;
  const pages = pickLength(rng);
  for (let k = 0; k < pages; k++) {
    let walked: string | undefined;
    if (k > 0) {
      let next = pickPage(rng);
      if (next === path) next = pickPage(rng);
      path = next;
      walked = walkFrom(shown, seeded(`${visitor.id}\u0000${t}\u0000walk`));
    }
    shown = walked ?? path;
    const view = line(siteId, visitor, t, 'pageview', shown);
    if (k === 0) land(rng, view, domain, arrival);
    events.push({ ts: t, event: view });
    let busy = 0;
    const add = (name: string, wait: number) => {
      busy += wait;
      const ts = t + busy * 1000;
      const event = line(siteId, visitor, ts, 'event', shown, name);
      const props = propsOf(name, `${visitor.id}\u0000${ts}\u0000${name}`);
      if (props) event.props = props;
      events.push({ ts, event });
    };
    for (const [name, probability] of eventsFor(path)) {
      if (rng() >= probability) continue;
      const wait = between(rng, 2, 30);
      if (!walked) add(name, wait);
    }
    if (walked) {
      const own = seeded(`${visitor.id}\u0000${t}\u0000${walked}`);
      for (const [name, probability] of eventsFor(walked)) if (own() < probability) add(name, between(own, 2, 30));
    }
    t += (busy + pause(rng)) * 1000;
  }
  return events;
}

/** The page a visitor on `path` walks on to next, or undefined (they go wherever the draw takes them). */
function walkFrom(path: string, rng: Rng): string | undefined {
  for (const [from, to, share] of WALKS) if ((from.endsWith('*') ? path.startsWith(from.slice(0, -1)) : path === from) && rng() < share) return to;
  return undefined;
}

/** A generator seeded by a text (FNV-1a of it), for draws that must leave the main stream alone. */
function seeded(identity: string): Rng {
  let hash = 2166136261;
  for (let i = 0; i < identity.length; i++) hash = Math.imul(hash ^ identity.charCodeAt(i), 16777619);
  return mulberry32(hash);
}

function line(siteId: string, visitor: Visitor, ts: number, type: DemoEvent['type'], url: string, name?: string): DemoEvent {
  const iso = new Date(ts).toISOString().slice(0, 19) + 'Z';
  const event: DemoEvent = { site_id: siteId, ts: iso, type, url, visitor_id: visitor.id, country_code: visitor.country };
  if (name !== undefined) event.name = name;
  const { device } = visitor;
  if (visitor.explicit) {
    event.device_type = device.deviceType;
    event.browser = device.browser;
    event.os = device.os;
  } else {
    event.user_agent = device.userAgent;
  }
  return event;
}

const PROP_PICKERS = Object.fromEntries(
  Object.entries(EVENT_PROPS).map(([name, keys]) => [name, keys.map(([key, share, values]) => [key, share, weighted(values)] as const)]),
);

/**
 * An event's properties, drawn from a generator seeded by the event itself (visitor, time,
 * name): the main stream stays what it was before events had properties, so every other
 * field of the data is unchanged.
 */
function propsOf(name: string, identity: string): DemoEvent['props'] {
  const pickers = PROP_PICKERS[name];
  if (!pickers) return undefined;
  const rng = seeded(identity);
  const props: NonNullable<DemoEvent['props']> = {};
  for (const [key, share, pick] of pickers) if (rng() < share) props[key] = pick(rng);
  return Object.keys(props).length > 0 ? props : undefined;
}

/** Seconds until the next pageview: mostly tens of seconds, a tail of minutes, rarely a break over 30 minutes. */
function pause(rng: Rng): number {
  if (rng() < 0.04) return between(rng, 31 * 60, 120 * 60);
  return Math.round(Math.min(1500, Math.max(2, Math.exp(Math.log(35) + normal(rng)))));
}

/** Local day, hour and weekday of an instant in `timezone` (called once per hour of data, so Intl's cost does not matter). */
function localClock(timezone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', weekday: 'short',
  });
  return (ms: number) => {
    const parts: Record<string, string> = {};
    for (const { type, value } of format.formatToParts(ms)) parts[type] = value;
    return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24, weekday: parts.weekday ?? '' };
  };
}
