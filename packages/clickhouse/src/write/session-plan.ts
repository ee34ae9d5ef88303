import type { SessionAttributeColumns, StoredEvent } from '@siteline/core';

/**
 * What a write does to the sessions it touches, worked out in memory from
 * the write's events and each session's stored state: the new state of every
 * session, the old states to cancel, and the changes to time on page. Pure,
 * so the rules are tested without a server.
 */

export type EventType = StoredEvent['type'];

/** A session as `session_state` and `sessions` hold it (the column names of migration 2; attributes of the first event by (ts, seq)). */
export interface SessionState extends SessionAttributeColumns {
  site_id: string;
  session_id: string;
  /** 1 for a new session, one more on every write that changes it. */
  version: number;
  /** Day, visitor and attributes of the first event by (ts, seq). */
  day: string;
  visitor_id: string;
  start_ts: number;
  start_seq: number;
  /** The last event by (ts, seq): where the next event's gap is counted. */
  end_ts: number;
  end_seq: number;
  end_day: string;
  end_type: EventType;
  end_path: string;
  pageview_count: number;
  event_count: number;
  /** Every distinct path of the session's pageviews and name of its custom events, sorted (schema version 6): page, event and goal conditions read them. */
  paths: string[];
  names: string[];
  /** How many custom events of each of `names` the session has, in the same order (schema version 8): `/events` of sessions wholly inside a range reads them. */
  name_counts: number[];
}

/** What time on page needs of an event. */
export interface Step {
  ts: number;
  seq: number;
  type: EventType;
  path: string;
  day: string;
}

/** A time-on-page change of one pageview (a `pageview_gaps` row): timed 1 and its gap, or the negation taking a gap back. */
export interface GapRow {
  site_id: string;
  day: string;
  path: string;
  session_id: string;
  ts: number;
  seq: number;
  timed: number;
  gap_ms: number;
}

/**
 * Time-on-page changes per pageview (schema version 6): a gap that goes away
 * is a row of `-1` and the negated gap, so the signed sums of `pageview_gaps`
 * (and of `page_totals`, its view) are the current gaps.
 */
export class GapChanges {
  readonly rows = new Map<string, GapRow>();
  /**
   * The stored sums of the pageviews whose gap a change takes back (`addSequence` of the stored
   * events with sign -1): what `pageview_gaps` holds for them before the write. Every other
   * changed pageview had none (a new one, or the session's stored last one, which no event followed).
   */
  private readonly taken = new Map<string, { timed: number; gap_ms: number }>();

  add(siteId: string, sessionId: string, view: Step, timed: number, ms: number): void {
    const key = `${siteId}\u0000${sessionId}\u0000${view.ts}\u0000${view.seq}`;
    const row = this.rows.get(key);
    if (row) {
      row.timed += timed;
      row.gap_ms += ms;
    } else this.rows.set(key, { site_id: siteId, day: view.day, path: view.path, session_id: sessionId, ts: view.ts, seq: view.seq, timed, gap_ms: ms });
    if (timed < 0) {
      const stored = this.taken.get(key) ?? { timed: 0, gap_ms: 0 };
      stored.timed -= timed;
      stored.gap_ms -= ms;
      this.taken.set(key, stored);
    }
  }

  /** What `pageview_gaps` sums to for a changed row's pageview once the change is in: the stored sums plus the change. */
  after(row: GapRow): { timed: number; gap_ms: number } {
    const stored = this.taken.get(`${row.site_id}\u0000${row.session_id}\u0000${row.ts}\u0000${row.seq}`);
    return { timed: (stored?.timed ?? 0) + row.timed, gap_ms: (stored?.gap_ms ?? 0) + row.gap_ms };
  }

  /** Gaps of consecutive events of one session (sorted by ts, seq): each pageview followed by an event, times `sign`. */
  addSequence(siteId: string, sessionId: string, steps: readonly Step[], sign: 1 | -1): void {
    for (let i = 0; i + 1 < steps.length; i++) {
      const s = steps[i]!;
      if (s.type === 'pageview') this.add(siteId, sessionId, s, sign, sign * (steps[i + 1]!.ts - s.ts));
    }
  }

  /** The rows whose sums do not cancel out. */
  changed(): GapRow[] {
    return [...this.rows.values()].filter((r) => r.timed !== 0 || r.gap_ms !== 0);
  }
}

/** True when `a` comes before `(ts, seq)`. */
const precedes = (a: { ts: number; seq: number }, ts: number, seq: number) => a.ts < ts || (a.ts === ts && a.seq < seq);
const byTime = (a: { ts: number; seq: number }, b: { ts: number; seq: number }) => a.ts - b.ts || a.seq - b.seq;

/** Sorts a session's events of one write by (ts, seq), in place, unless they already are. */
export function sortByTime<T extends { ts: number; seq: number }>(events: T[]): T[] {
  for (let i = 1; i < events.length; i++) if (byTime(events[i - 1]!, events[i]!) > 0) return events.sort(byTime);
  return events;
}

/**
 * Whether merging `events` into `prior` needs the session's stored events:
 * only when one of them falls inside the stored span (then a stored gap is
 * split). Events before the first or after the last are placed from the
 * state alone.
 */
export function needsStoredEvents(events: readonly StoredEvent[], prior: SessionState | undefined): boolean {
  if (!prior) return false;
  return events.some((e) => !precedes(e, prior.start_ts, prior.start_seq) && !precedes({ ts: prior.end_ts, seq: prior.end_seq }, e.ts, e.seq));
}

/** Sets the state's first-event fields from an event (its own day and visitor, its session attributes as stamped). */
function setStart(s: SessionState, e: StoredEvent): void {
  s.day = e.day;
  s.visitor_id = e.visitorId;
  s.start_ts = e.ts;
  s.start_seq = e.seq;
  s.entry_path = e.entryPath;
  s.referrer_source = e.referrerSource;
  s.channel = e.channel;
  s.utm_source = e.utmSource;
  s.utm_medium = e.utmMedium;
  s.utm_campaign = e.utmCampaign;
  s.country_code = e.countryCode;
  s.device_type = e.deviceType;
  s.browser = e.browser;
  s.os = e.os;
}

/** Sets the state's last-event fields. */
function setEnd(s: SessionState, e: Step): void {
  s.end_ts = e.ts;
  s.end_seq = e.seq;
  s.end_day = e.day;
  s.end_type = e.type;
  s.end_path = e.path;
}

/** The distinct paths of the pageviews of `events` and `known`, sorted: a session's `paths`. */
export function contents(events: readonly StoredEvent[], known: readonly string[] = []): string[] {
  const found = new Set(known);
  for (const e of events) if (e.type === 'pageview') found.add(e.path);
  return found.size === known.length ? [...known] : [...found].sort();
}

/**
 * The custom events per name of `events` added to `known` (`names` and
 * `name_counts` of a state): the session's `names` and their counts, both in
 * the order of the names. Every event merged counts once, as `event_count`
 * does.
 *
 * @example
 * nameCounts([signup, signup, download], { names: ['signup'], name_counts: [1] }) // { names: ['download', 'signup'], name_counts: [1, 3] }
 */
export function nameCounts(events: readonly StoredEvent[], known: Pick<SessionState, 'names' | 'name_counts'> = { names: [], name_counts: [] }): Pick<SessionState, 'names' | 'name_counts'> {
  const counts = new Map<string, number>();
  for (let i = 0; i < known.names.length; i++) counts.set(known.names[i]!, known.name_counts[i] ?? 0);
  let added = false;
  for (const e of events) {
    if (e.type !== 'event') continue;
    counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    added = true;
  }
  if (!added) return { names: [...known.names], name_counts: [...known.name_counts] };
  const names = counts.size === known.names.length ? [...known.names] : [...counts.keys()].sort();
  return { names, name_counts: names.map((n) => counts.get(n)!) };
}

export interface SessionChange {
  state: SessionState;
  /** The stored state this one replaces (its `sessions` row gets a -1 row). */
  cancel?: SessionState;
}

/** Whether two sets of session attributes are the same (every column of `SESSION_ATTRIBUTE_COLUMN`). */
function sameAttributes(a: SessionAttributeColumns, b: SessionAttributeColumns): boolean {
  return a.entry_path === b.entry_path && a.referrer_source === b.referrer_source && a.channel === b.channel && a.utm_source === b.utm_source
    && a.utm_medium === b.utm_medium && a.utm_campaign === b.utm_campaign && a.country_code === b.country_code && a.device_type === b.device_type
    && a.browser === b.browser && a.os === b.os;
}

/** Whether an event's stamped session attributes are `s`'s (compared field by field: this runs for every event written). */
const stampedAs = (e: StoredEvent, s: SessionAttributeColumns): boolean =>
  e.entryPath === s.entry_path && e.referrerSource === s.referrer_source && e.channel === s.channel && e.utmSource === s.utm_source
  && e.utmMedium === s.utm_medium && e.utmCampaign === s.utm_campaign && e.countryCode === s.country_code && e.deviceType === s.device_type
  && e.browser === s.browser && e.os === s.os;

/**
 * Whether a write makes the session stale (`stale_sessions`): one of its
 * events is stamped with attributes other than the session's after the write,
 * or the write changed the session's attributes (its stored events and gaps
 * keep the old ones). A session never stale has every event and gap row
 * carrying exactly its attributes.
 *
 * @example
 * makesStale(group, change) // false for a session whose events all carry its first event's stamp
 */
export function makesStale(events: readonly StoredEvent[], change: SessionChange): boolean {
  if (change.cancel && !sameAttributes(change.cancel, change.state)) return true;
  return events.some((e) => !stampedAs(e, change.state));
}

/**
 * Merges one session's events of a write (sorted by ts, seq) into its stored
 * state, recording time-on-page changes in `gaps`. `stored` (the session's
 * stored events, sorted) is needed only when `needsStoredEvents` says so.
 *
 * @example
 * const gaps = new GapChanges();
 * const { state } = mergeSession(sortByTime(events), undefined, undefined, gaps);
 */
export function mergeSession(events: readonly StoredEvent[], prior: SessionState | undefined, stored: readonly Step[] | undefined, gaps: GapChanges): SessionChange {
  const first = events[0]!;
  const last = events[events.length - 1]!;
  let pageviews = 0;
  for (const e of events) if (e.type === 'pageview') pageviews++;
  if (!prior) {
    gaps.addSequence(first.siteId, first.sessionId, events, 1);
    // Written out field by field: this runs once per session of an import.
    const state: SessionState = {
      site_id: first.siteId, session_id: first.sessionId, version: 1,
      day: first.day, visitor_id: first.visitorId, start_ts: first.ts, start_seq: first.seq,
      end_ts: last.ts, end_seq: last.seq, end_day: last.day, end_type: last.type, end_path: last.path,
      pageview_count: pageviews, event_count: events.length - pageviews,
      entry_path: first.entryPath, referrer_source: first.referrerSource, channel: first.channel, utm_source: first.utmSource,
      utm_medium: first.utmMedium, utm_campaign: first.utmCampaign, country_code: first.countryCode, device_type: first.deviceType,
      browser: first.browser, os: first.os, paths: contents(events), ...nameCounts(events),
    };
    return { state };
  }
  const next: SessionState = {
    ...prior,
    version: prior.version + 1,
    pageview_count: prior.pageview_count + pageviews,
    event_count: prior.event_count + events.length - pageviews,
    paths: contents(events, prior.paths),
    ...nameCounts(events, prior),
  };
  if (stored) {
    // An event inside the stored span: the gaps of the whole session are recomputed.
    gaps.addSequence(first.siteId, first.sessionId, stored, -1);
    const merged = sortByTime<Step>([...stored, ...events]);
    gaps.addSequence(first.siteId, first.sessionId, merged, 1);
    if (precedes(first, prior.start_ts, prior.start_seq)) {
      setStart(next, first);
    }
    setEnd(next, merged[merged.length - 1]!);
    return { state: next, cancel: prior };
  }
  // Events before the stored first one and/or after the stored last one.
  let split = 0;
  while (split < events.length && precedes(events[split]!, prior.start_ts, prior.start_seq)) split++;
  if (split > 0) {
    const before = events.slice(0, split);
    const lead = before[split - 1]!;
    gaps.addSequence(first.siteId, first.sessionId, before, 1);
    if (lead.type === 'pageview') gaps.add(first.siteId, first.sessionId, lead, 1, prior.start_ts - lead.ts);
    setStart(next, first);
  }
  if (split < events.length) {
    const after = split === 0 ? events : events.slice(split);
    if (prior.end_type === 'pageview') gaps.add(first.siteId, first.sessionId, { ts: prior.end_ts, seq: prior.end_seq, type: 'pageview', path: prior.end_path, day: prior.end_day }, 1, after[0]!.ts - prior.end_ts);
    gaps.addSequence(first.siteId, first.sessionId, after, 1);
    setEnd(next, last);
  }
  return { state: next, cancel: prior };
}
