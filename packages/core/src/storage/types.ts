import type { Site } from '../types.js';

/**
 * One event as stored: already validated, sessionised and enriched by the core
 * (see `import/`), so every adapter stores the same values.
 */
export interface StoredEvent {
  siteId: string;
  /** UTC instant, milliseconds since the epoch. */
  ts: number;
  /** Calendar day of `ts` in the site's time zone, `YYYY-MM-DD`. */
  day: string;
  type: 'pageview' | 'event';
  /** Custom event name; `''` for pageviews. */
  name: string;
  /** Page path (`/` at least for pageviews; `''` when a custom event has no URL). */
  path: string;
  visitorId: string;
  sessionId: string;
  /**
   * Orders events with equal `ts` (lower first); increases in arrival order.
   * Time on page is the gap to the next event by `(ts, seq)`.
   */
  seq: number;
  /**
   * Attributes of the event's session: the core stamps every event of a
   * session with the values of the session's first event, so an adapter may
   * read them from any event (it takes them from the earliest one).
   */
  entryPath: string;
  referrerSource: string;
  channel: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  countryCode: string;
  deviceType: string;
  browser: string;
  os: string;
}

/**
 * Days of one site to report on. `from`/`to` are inclusive local days;
 * `startMs`/`endMs` are the UTC instants `[start, end)` that cover them, so an
 * adapter may filter either on the stored `day` or on `ts`.
 */
export interface DayRange {
  siteId: string;
  from: string;
  to: string;
  startMs: number;
  endMs: number;
}

/** Totals over sessions that start in a range (decisions.md section 3). */
export interface SessionTotals {
  /** Sum over days of distinct visitor ids among sessions starting that day. */
  visitors: number;
  sessions: number;
  /** Sessions with exactly one pageview and no custom event. */
  bounces: number;
  /** Sum of (last event ts - first event ts) over the sessions, in ms. */
  durationMs: number;
}

export interface SummaryTotals extends SessionTotals {
  /** Pageview events whose own day is in the range. */
  pageviews: number;
}

export interface DayTotals {
  day: string;
  visitors: number;
  sessions: number;
  pageviews: number;
}

/** Session attributes a breakdown can group by; `utm` groups by the triple. */
export type SessionDimension =
  | 'referrerSource'
  | 'channel'
  | 'countryCode'
  | 'deviceType'
  | 'browser'
  | 'os'
  | 'utm';

export interface BreakdownTotals {
  /** The dimension's value; for `utm`: `[source, medium, campaign]`. */
  key: string[];
  visitors: number;
  sessions: number;
}

export interface PageTotals {
  path: string;
  /** Pageviews of the path whose day is in the range. */
  pageviews: number;
  /** Sum over days of distinct visitors who viewed the path that day. */
  visitors: number;
  /** Sessions in the range whose entry page is the path, and how many bounced. */
  entrySessions: number;
  entryBounces: number;
  /** Pageviews of the path in range followed by another event of their session... */
  timedViews: number;
  /** ...and the sum of the gaps to those next events, in ms. */
  timeOnPageMs: number;
}

export interface EventTotals {
  name: string;
  count: number;
}

/** Hash and size of an imported batch, kept so a re-import is refused. */
export interface ImportRecord {
  hash: string;
  events: number;
  importedAt: string;
}

/**
 * The storage contract. Small on purpose: the core does validation, time
 * zones, sessionising, metric arithmetic, rounding and ordering once; an
 * adapter only stores events and sums them. Row order returned by the
 * aggregate methods does not matter.
 *
 * Prove an adapter with `testStorage()` from `@siteline/core/testing`.
 */
export interface Storage {
  /** Short adapter name for logs, e.g. `sqlite`. */
  readonly kind: string;

  insertSite(site: Site): Promise<void>;
  getSite(id: string): Promise<Site | undefined>;
  /** All sites, or those of one account (`null`: Community sites). */
  listSites(filter?: { accountId?: string | null }): Promise<Site[]>;

  /**
   * Stores events atomically (all or none), updating whatever sessions or
   * aggregates the adapter keeps. When `importRecord` is given it is stored in
   * the same transaction, and the call fails with `DuplicateImportError` if
   * that hash was imported before.
   */
  writeEvents(events: readonly StoredEvent[], importRecord?: ImportRecord): Promise<void>;

  summary(range: DayRange): Promise<SummaryTotals>;
  /** Rows only for days that have data; the core zero-fills. */
  timeseries(range: DayRange): Promise<DayTotals[]>;
  sessionBreakdown(range: DayRange, dimension: SessionDimension): Promise<BreakdownTotals[]>;
  pages(range: DayRange): Promise<PageTotals[]>;
  /** Custom events by name in the range, optionally one name only. */
  customEvents(range: DayRange, name?: string): Promise<EventTotals[]>;
  /** Distinct visitors with a pageview at `sinceMs < ts <= untilMs`. */
  liveVisitors(siteId: string, sinceMs: number, untilMs: number): Promise<number>;

  close(): Promise<void>;
}
