import type { Funnel } from '../funnels/funnel.js';
import type { Goal, GoalDefinition } from '../goals/goal.js';
import type { DayBounds, ImportedDataset, ImportedRow, ImportedTotals, ImportedTotalsRequest } from '../imported/types.js';
import type { FilterOperator, Site } from '../types.js';

/** One property of a custom event as stored: `[key, value]`, both exactly as sent (numbers and booleans as `String()` writes them). */
export type PropEntry = readonly [key: string, value: string];

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
  /**
   * The custom event's properties in the order sent, keys distinct (properties-goals.md
   * section 1); absent or empty for none, and always for pageviews (their props are
   * accepted and ignored).
   */
  props?: readonly PropEntry[];
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

/** The session attributes of `StoredEvent` a filter can read (the session's first event's values). */
export type SessionAttribute =
  | 'entryPath'
  | 'referrerSource'
  | 'channel'
  | 'countryCode'
  | 'deviceType'
  | 'browser'
  | 'os'
  | 'utmSource'
  | 'utmMedium'
  | 'utmCampaign';

/**
 * One condition on a string: `is` (equals one of `values`), `is_not` (equals none),
 * `contains` (has one of them as a substring), `contains_not` (has none). Exact and
 * case-sensitive: strings compared by their bytes, no normalisation. The one
 * implementation to copy or call is `conditionHolds()` (storage/selection.ts).
 */
export interface Condition {
  operator: FilterOperator;
  /** 1 to 20 strings; `''` is the value of an unset UTM field. */
  values: readonly string[];
}

export interface AttributeCondition extends Condition {
  attribute: SessionAttribute;
}

/** A `prop:<key>` condition: on the value of `key` on a custom event, `''` when the event lacks the key. */
export interface PropCondition extends Condition {
  key: string;
}

/**
 * A `goal` condition, resolved against the site's goals: `converts` true, the session
 * converts on at least one of `goals` (`is`, `contains`); false, on none of them
 * (`is_not`, `contains_not`). `goals` may be empty (a name that is no goal).
 */
export interface GoalCondition {
  converts: boolean;
  goals: readonly GoalDefinition[];
}

/**
 * The compiled `filters` of a query (query-extensions.md section 1), the same for
 * every read of the query. All conditions of all three lists must hold:
 *
 * - A session **matches** when every `session` condition holds for its stored
 *   attribute (the value the session's first event carries), and, when `page` is not
 *   empty, at least one of its pageviews has a path for which every `page` condition
 *   holds, and, when `event` is not empty, at least one of its custom events has a
 *   name for which every `event` condition holds. "Its pageviews" and "its custom
 *   events" are all events of the session, whatever their day, also outside the range.
 * - The **selected pageviews** are the pageviews of matching sessions whose path
 *   satisfies every `page` condition (all their pageviews when `page` is empty).
 * - The **selected custom events** are the custom events of matching sessions whose
 *   name satisfies every `event` condition (all of them when `event` is empty).
 *
 * Every read then sums as it does without a selection, with "sessions" read as the
 * matching sessions, "pageviews" as the selected pageviews and "custom events" as
 * the selected custom events. A session or event still belongs to a range by its own
 * day: the sessions of a range are the matching sessions starting in it, the
 * pageviews the selected pageviews whose own day is in it (their session may have
 * started the day before). Per read:
 *
 * - `summary`, `timeseries`, `hourBuckets`: visitors, sessions, bounces and durations
 *   of matching sessions (a bounce is still a session with exactly one pageview and
 *   no custom event, counting all its events); `pageviews` counts selected pageviews.
 * - `sessionBreakdown`: matching sessions grouped by the dimension.
 * - `pages`: rows from selected pageviews: `pageviews`, `visitors` (per day, distinct
 *   visitor ids of the selected pageviews of the path), `timedViews`/`timeOnPageMs`
 *   (selected pageviews of the path followed by another event of their session, and
 *   the gaps to those events, whatever that next event is); `entrySessions` and
 *   `entryBounces` count matching sessions entering on the path.
 * - `customEvents`: selected custom events by name (`name` still applies on top).
 */
export interface Selection {
  session: readonly AttributeCondition[];
  page: readonly Condition[];
  event: readonly Condition[];
  /**
   * `prop:` conditions (properties-goals.md section 3), given only to a storage declaring
   * `capabilities.properties`. A custom event **passes** when every `event` and every
   * `prop` condition holds for it; with `event` or `prop` conditions a session matches
   * only when one of its custom events passes, and the selected custom events are the
   * passing custom events of matching sessions. Pageviews are not tested by them.
   */
  prop?: readonly PropCondition[];
  /**
   * `goal` conditions (properties-goals.md section 4), given only to a storage declaring
   * `capabilities.goals`: session conditions, judged on all of the session's events
   * (`meetsGoal`, goals/goal.ts), whatever the other conditions select.
   */
  goal?: readonly GoalCondition[];
}

/** `Storage.properties`: one property key (or, for one key, one value) with its totals. */
export interface PropertyTotals {
  /** The key, or the value when a key was asked for. */
  key: string;
  /** Selected custom events of the name carrying it (with that value), by their own day. */
  count: number;
  /** Sum over days of distinct visitor ids among those events. */
  visitors: number;
}

/** `Storage.goalTotals`: the totals of one goal (same index as the goals asked for). */
export interface GoalTotals {
  /** Sum over days d of distinct visitor ids among matching sessions starting on d that convert on the goal. */
  visitors: number;
  /** Events meeting the goal, in matching sessions that convert, whose own day is in the range. */
  conversions: number;
}

/** Totals of one time bucket of `Storage.hourBuckets`. */
export interface BucketTotals {
  /** The bucket's first instant (one of the `starts` given), ms since the epoch. */
  start: number;
  /** Distinct visitor ids among the sessions whose first event is in the bucket. */
  visitors: number;
  /** Sessions whose first event is in the bucket. */
  sessions: number;
  /** Pageviews whose timestamp is in the bucket. */
  pageviews: number;
}

/** Optional parts of the contract an adapter implements, declared (never detected). */
export interface StorageCapabilities {
  /**
   * The aggregate reads honour their `selection` argument. Without it the core
   * refuses filtered queries with an error instead of answering unfiltered numbers.
   */
  readonly selection?: boolean;
  /**
   * Custom event properties (properties-goals.md): `writeEvents` stores `props` exactly,
   * `properties` reads them, and selections may carry `prop` conditions. Without it the
   * core refuses `/properties` and `prop:` filters with an error.
   */
  readonly properties?: boolean;
  /**
   * Goals: `insertGoal`, `listGoals`, `deleteGoal` keep them, `goalTotals` reads them, and
   * selections may carry `goal` conditions. Without it the core refuses goal management,
   * `/goals` and `goal` filters with an error.
   */
  readonly goals?: boolean;
  /**
   * Funnels (funnels.md): `insertFunnel`, `listFunnels`, `deleteFunnel` keep them and
   * `funnelVisitors` reads them. Without it the core refuses `/funnels` and funnel management
   * with an error (a 422 over HTTP), never an answer of zeros.
   */
  readonly funnels?: boolean;
  /**
   * Imported daily totals (issue 39, docs/behaviour.md "Imported data"): `writeImported`,
   * `listImports`, `deleteImport`, `importedTotals` and `nativeDays`. Without it the core
   * refuses a Plausible import and reports read events only.
   */
  readonly imported?: boolean;
}

/** A write worked out by `Storage.planWrite`: plain JSON, meaningful only to the store that made it. */
export interface WritePlan {
  /** Which store and plan layout made it; `applyWrite` refuses a plan of another. */
  readonly format: string;
}

/** One page of `Storage.eventPage`. */
export interface EventPage {
  events: StoredEvent[];
  /** Where the next page starts; `undefined` when this was the last. */
  next: string | undefined;
}

/** What an edit of a site may change (see `Storage.updateSite`). */
export interface SiteChanges {
  name: string;
  domain: string | null;
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
 * Query extensions: `filters` reach the aggregate reads as a `Selection` (only
 * when the query has filters, and only to an adapter declaring
 * `capabilities.selection`); `compare` is the same reads over a second range;
 * `interval=week|month` is computed by the core from `timeseries` day rows;
 * `interval=hour` needs `hourBuckets`.
 *
 * Prove an adapter with `testStorage()` from `@siteline/core/testing`.
 */
export interface Storage {
  /** Short adapter name for logs, e.g. `sqlite`. */
  readonly kind: string;
  /** Optional parts of this contract the adapter implements. */
  readonly capabilities?: StorageCapabilities;

  insertSite(site: Site): Promise<void>;
  getSite(id: string): Promise<Site | undefined>;
  /** All sites, or those of one account (`null`: Community sites). */
  listSites(filter?: { accountId?: string | null }): Promise<Site[]>;
  /**
   * Sets a site's name and domain (validated by the core's `updateSite`); resolves the
   * changed site, or `undefined` when there is no such site. Nothing else of a site
   * changes: its time zone decides the days its data is stored under.
   */
  updateSite(id: string, changes: SiteChanges): Promise<Site | undefined>;

  /**
   * Stores events atomically (all or none), updating whatever sessions or
   * aggregates the adapter keeps. When `importRecord` is given it is stored in
   * the same transaction, and the call fails with `DuplicateImportError` if
   * that hash was imported before.
   */
  writeEvents(events: readonly StoredEvent[], importRecord?: ImportRecord): Promise<void>;
  /**
   * Optional: stores a large import given as batches, as `writeEvents(all, importRecord)`
   * would (all or none where the engine has transactions; `DuplicateImportError` before
   * anything is written), holding one batch in memory at a time. Batches come in time order
   * (`(ts, seq)`), so a session split across two continues in the second. Without it the
   * core collects the batches into one `writeEvents` call.
   */
  writeImport?(importRecord: ImportRecord, batches: Iterable<readonly StoredEvent[]>): Promise<void>;
  /**
   * Optional, for a store whose write is several inserts with no transaction around them
   * (ClickHouse): `writeEvents(events)` in two steps, so a write cut short (a crash, the
   * server going away part-way) can be finished later without storing anything twice.
   * `planWrite` works out every row the write inserts against what is stored now and returns
   * them as plain JSON, which the caller keeps (the collector's spool) before it calls
   * `applyWrite`; `applyWrite` inserts them, and with `resume` (after a crash or a failure)
   * first leaves out the rows already stored. Plans must be applied in the order they were
   * made, each before the next is made. The collector writes through these when a store has
   * them (see its spool).
   */
  planWrite?(events: readonly StoredEvent[]): Promise<WritePlan>;
  applyWrite?(plan: WritePlan, options: { resume: boolean }): Promise<void>;

  /** The aggregate reads: `selection` (see `Selection`) is given only for a filtered query. */
  summary(range: DayRange, selection?: Selection): Promise<SummaryTotals>;
  /**
   * Optional: `summary(range, selection).visitors` alone, for a store where the other
   * totals cost reads that visitors do not (the conversion rate of `/goals` needs only
   * this). Without it the core reads the summary.
   */
  summaryVisitors?(range: DayRange, selection?: Selection): Promise<number>;
  /** Rows only for days that have data; the core zero-fills. */
  timeseries(range: DayRange, selection?: Selection): Promise<DayTotals[]>;
  sessionBreakdown(range: DayRange, dimension: SessionDimension, selection?: Selection): Promise<BreakdownTotals[]>;
  pages(range: DayRange, selection?: Selection): Promise<PageTotals[]>;
  /** Custom events by name in the range, optionally one name only. */
  customEvents(range: DayRange, name?: string, selection?: Selection): Promise<EventTotals[]>;
  /**
   * `interval=hour`: totals of consecutive time buckets that tile the range.
   * `starts` are ascending UTC instants, the first is `range.startMs`; bucket i is
   * `[starts[i], starts[i + 1])`, the last ends at `range.endMs`. The core makes the
   * buckets (local hours of the site, DST and 30/45-minute offsets included) and
   * their labels. Rows only for buckets with data, keyed by `start`.
   */
  hourBuckets?(range: DayRange, starts: readonly number[], selection?: Selection): Promise<BucketTotals[]>;
  /**
   * Export (issue 27): the stored events of the range's days, ordered by `(ts, seq)` and then
   * by anything that makes the order total, at most `limit` of them, after the position
   * `after` (the `next` of the previous page; `undefined` for the first). `next` is
   * `undefined` on the last page. Each event carries its session's attributes as they are
   * now (the session's first event's). The cursor is the adapter's own text. Without this
   * method the core refuses an export (`UnsupportedQueryError`).
   */
  eventPage?(range: DayRange, after: string | undefined, limit: number): Promise<EventPage>;
  /** Distinct visitors with a pageview at `sinceMs < ts <= untilMs`. */
  liveVisitors(siteId: string, sinceMs: number, untilMs: number): Promise<number>;

  /**
   * `capabilities.properties`: the selected custom events named `name` whose own day is in
   * the range, by property key (`property` undefined; one row per key some such event
   * carries) or by the value of `property` (events without it are left out). Rows only
   * for keys or values with events, in any order.
   */
  properties?(range: DayRange, name: string, property: string | undefined, selection?: Selection): Promise<PropertyTotals[]>;
  /** `capabilities.goals`: the totals of each goal of `goals`, in the same order (`GoalTotals`). */
  goalTotals?(range: DayRange, goals: readonly GoalDefinition[], selection?: Selection): Promise<GoalTotals[]>;
  /** `capabilities.goals`: stores a goal (the core has checked it and the site's limits). */
  insertGoal?(goal: Goal): Promise<void>;
  /** `capabilities.goals`: the site's goals, in any order. */
  listGoals?(siteId: string): Promise<Goal[]>;
  /** `capabilities.goals`: deletes the site's goal with that display name; whether there was one. */
  deleteGoal?(siteId: string, name: string): Promise<boolean>;

  /**
   * `capabilities.funnels`: for each step of a funnel (in funnel order, each as the goal with its
   * definition), the sum over days d of the range of distinct visitor ids among the matching
   * sessions starting on d that reach it. How far a session gets is `stepsReached`
   * (funnels/funnel.ts) over all of its events, whatever their day and whatever the selection
   * selects: events in strictly increasing `(ts, seq)` order meeting the steps in turn, others
   * between them. A session starting in the range counts even when it reaches a step after
   * the range's end. Same length and order as `steps`.
   */
  funnelVisitors?(range: DayRange, steps: readonly GoalDefinition[], selection?: Selection): Promise<number[]>;
  /**
   * `capabilities.funnels`: stores a funnel (the core has checked it and the site's limits just
   * before); resolves false, storing nothing, when the site has a funnel of that name or
   * `MAX_FUNNELS` of them by then. A store that can check both in one atomic step does, so two
   * owners adding at once cannot pass them; one that cannot resolves true.
   */
  insertFunnel?(funnel: Funnel): Promise<boolean>;
  /** `capabilities.funnels`: the site's funnels, in any order, each with its steps as stored. */
  listFunnels?(siteId: string): Promise<Funnel[]>;
  /** `capabilities.funnels`: deletes the site's funnel of that name; whether there was one. */
  deleteFunnel?(siteId: string, name: string): Promise<boolean>;
  /**
   * `capabilities.imported`: stores an import of daily totals and its rows, all or nothing where
   * the engine has transactions; where it has not, the rows count only once the dataset is stored,
   * which is done last. `DuplicateImportError` (nothing stored) when the site has a dataset with
   * the same hash. Batches hold at most a few thousand rows each.
   */
  writeImported?(dataset: ImportedDataset, batches: Iterable<readonly ImportedRow[]>): Promise<void>;
  /** `capabilities.imported`: the site's imports, in any order. */
  listImports?(siteId: string): Promise<ImportedDataset[]>;
  /** `capabilities.imported`: removes the site's import and exactly its rows; whether there was one. */
  deleteImport?(siteId: string, importId: string): Promise<boolean>;
  /** `capabilities.imported`: sums of imported rows (`ImportedTotalsRequest`); groups without rows may be left out. */
  importedTotals?(request: ImportedTotalsRequest): Promise<ImportedTotals[]>;
  /** `capabilities.imported`: which of these days of the site have native events (any event whose `ts` is in the day's bounds). */
  nativeDays?(siteId: string, days: readonly DayBounds[]): Promise<string[]>;

  close(): Promise<void>;
}
