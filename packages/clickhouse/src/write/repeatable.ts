/**
 * A write that can be repeated (`Storage.planWrite`, `Storage.applyWrite`): ClickHouse has no
 * transactions, and 18.16's plain MergeTree tables do not deduplicate inserts, so a write is
 * made exactly-once by being planned first and checked row by row when it is applied again.
 *
 * `plan` works out every row the write inserts (writer.ts `changes`) and returns them as
 * `TabSeparated` lines, each with the key that finds it and what the table sums to there
 * once it is in. The caller keeps the plan (the collector's spool) before `apply` inserts it.
 * `apply` with `resume` first reads, for each table, which of the plan's rows are in already
 * (each table's insert is one atomic block on a server; on a cluster each shard's part is)
 * and inserts only the others:
 *
 * - `events`: a row is in when its `(site, day, session, ts, seq)` is there (no two events
 *   share one: `seq` orders a session's events);
 * - `sessions`: a state's +1 row is in when its `(session, version)` sums to 1 (each write
 *   gives a session a new version), a replaced state's -1 row when its version sums to 0;
 * - `pageview_gaps`: a change is in when the pageview's sums are the stored sums plus the
 *   change (a change is never zero);
 * - `stale_sessions` (a ReplacingMergeTree) and `day_marks` (an extra mark only makes a day
 *   be counted again) are inserted again as they are.
 *
 * Rows another writer adds meanwhile would defeat the sums: plans are applied in order, one
 * at a time, by the one process whose collector made their sessions (sessions live in one
 * collector's memory).
 */
import type { StoredEvent, WritePlan } from '@siteline/core';
import { sqlDate, sqlString } from '../connection/escape.js';
import { GAP_COLUMNS } from '../schema/migrations/006-filter-layout.js';
import { SESSION_COLUMNS } from '../schema/migrations/008-name-counts.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { checkEvent, EVENT_LINE_COLUMNS, eventLine } from './events.js';
import { LINES_PER_PIECE } from './tsv.js';
import { type Changes, dayMarks, gapLine, sessionLine, type WriterIO } from './writer.js';

export const PLAN_FORMAT = 'clickhouse-write/1';

/** A key of `(site, day, session, ts, seq)`, as the plan keeps it. */
type EventKey = [site: string, day: string, session: string, ts: number, seq: number];

/** A write of the ClickHouse store, planned: `TabSeparated` lines per table and what finds each row. */
export interface ClickHouseWritePlan extends WritePlan {
  format: typeof PLAN_FORMAT;
  /** Lines of `events` (`EVENT_LINE_COLUMNS`) and each one's key. */
  events: { lines: string[]; keys: EventKey[] };
  /** Lines of `sessions` (`SESSION_COLUMNS` and `sign`): each row's site, day, session, version and what its version sums to once it is in. */
  sessions: { lines: string[]; keys: [site: string, day: string, session: string, version: number, sum: number][] };
  /** Lines of `pageview_gaps` (`GAP_COLUMNS`): each row's key and the pageview's sums of `timed` and `gap_ms` once it is in. */
  gaps: { lines: string[]; keys: [...EventKey, timed: number, gapMs: number][] };
  stale: { site_id: string; session_id: string }[];
  marks: ReturnType<typeof dayMarks>;
}

/** Keys per look-up query: well under ClickHouse's `max_query_size` (raised to 4 MiB for it). */
const KEYS_PER_QUERY = 5_000;
const LOOKUP = { max_query_size: String(4 * 1024 * 1024) };

/**
 * `plan` and `apply` over the writer's `changes` (called one at a time: the store queues them with its other writes).
 *
 * @example
 * const repeatable = createRepeatableWrites(io, target, write.changes);
 * const plan = await repeatable.plan(events); // keep it somewhere durable
 * await repeatable.apply(plan, { resume: false }); // after a crash: { resume: true }
 */
export function createRepeatableWrites(io: WriterIO, target: SchemaTarget, changes: (events: readonly StoredEvent[]) => Promise<Changes>) {
  const plan = async (events: readonly StoredEvent[]): Promise<ClickHouseWritePlan> => {
    for (const e of events) checkEvent(e);
    const { touched, sessions, gaps, after, stale } = await changes(events);
    const changed = gaps.changed();
    return {
      format: PLAN_FORMAT,
      events: { lines: events.map(eventLine), keys: events.map((e) => [e.siteId, e.day, e.sessionId, e.ts, e.seq]) },
      sessions: {
        lines: sessions.map(({ state, sign }) => sessionLine(state, sign)),
        keys: sessions.map(({ state, sign }) => [state.site_id, state.day, state.session_id, state.version, sign === 1 ? 1 : 0]),
      },
      gaps: {
        lines: changed.map((g) => gapLine(g, after.get(`${g.site_id}\u0000${g.session_id}`)!)),
        keys: changed.map((g) => {
          const sums = gaps.after(g);
          return [g.site_id, g.day, g.session_id, g.ts, g.seq, sums.timed, sums.gap_ms];
        }),
      },
      stale,
      marks: dayMarks(touched),
    };
  };

  const apply = async (written: WritePlan, options: { resume: boolean }): Promise<void> => {
    if (written.format !== PLAN_FORMAT) throw new TypeError(`Not a plan of this store: ${written.format}`);
    const p = written as ClickHouseWritePlan;
    const [events, sessions, gaps] = options.resume
      ? await Promise.all([missingEvents(p), missingSessions(p), missingGaps(p)])
      : [p.events.lines, p.sessions.lines, p.gaps.lines];
    // Every insert settles before a failure is reported: the next attempt must not race one still landing.
    const inserted = await Promise.allSettled([
      events.length > 0 && io.insertLines('events', EVENT_LINE_COLUMNS, pieces(events)),
      p.stale.length > 0 && io.insert('stale_sessions', p.stale),
      sessions.length > 0 && io.insertLines('sessions', [...SESSION_COLUMNS, 'sign'], pieces(sessions)),
      gaps.length > 0 && io.insertLines('pageview_gaps', GAP_COLUMNS, pieces(gaps)),
    ]);
    const failed = inserted.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    // Last, as in `write`: a build that sees the mark also sees the rows.
    if (p.marks.length > 0) await io.insert('day_marks', p.marks);
  };

  /** The plan's `events` lines whose key is not stored. */
  const missingEvents = async (p: ClickHouseWritePlan): Promise<string[]> => {
    const found = new Set<string>();
    for (const [site, keys] of bySite(p.events.keys)) {
      for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
        const part = keys.slice(i, i + KEYS_PER_QUERY);
        const rows = await io.rows<{ session_id: string; ts: string; seq: string }>(
          `SELECT session_id, ts, seq FROM ${tableName(target, 'events')}
           WHERE site_id = ${sqlString(site)} AND day IN (${daysOf(part)}) AND (session_id, ts, seq) IN (${part.map(tuple).join(', ')})
           GROUP BY session_id, ts, seq`,
          LOOKUP,
        );
        for (const r of rows) found.add(keyOf(site, r.session_id, r.ts, r.seq));
      }
    }
    return p.events.lines.filter((_, i) => {
      const [site, , session, ts, seq] = p.events.keys[i]!;
      return !found.has(keyOf(site, session, ts, seq));
    });
  };

  /** The plan's `sessions` lines whose version does not sum to what it will once they are in. */
  const missingSessions = async (p: ClickHouseWritePlan): Promise<string[]> => {
    const sums = new Map<string, number>();
    const sites = new Map<string, { days: Set<string>; sessions: Set<string> }>();
    for (const [site, day, session] of p.sessions.keys) {
      const entry = sites.get(site) ?? { days: new Set<string>(), sessions: new Set<string>() };
      entry.days.add(day);
      entry.sessions.add(session);
      sites.set(site, entry);
    }
    for (const [site, { days, sessions }] of sites) {
      const ids = [...sessions];
      for (let i = 0; i < ids.length; i += KEYS_PER_QUERY) {
        const rows = await io.rows<{ session_id: string; version: string; s: string }>(
          `SELECT session_id, version, sum(sign) AS s FROM ${tableName(target, 'sessions')}
           WHERE site_id = ${sqlString(site)} AND day IN (${[...days].map(sqlDate).join(', ')})
             AND session_id IN (${ids.slice(i, i + KEYS_PER_QUERY).map(sqlString).join(', ')})
           GROUP BY session_id, version`,
          LOOKUP,
        );
        for (const r of rows) sums.set(keyOf(site, r.session_id, r.version), Number(r.s));
      }
    }
    return p.sessions.lines.filter((_, i) => {
      const [site, , session, version, sum] = p.sessions.keys[i]!;
      return (sums.get(keyOf(site, session, version)) ?? 0) !== sum;
    });
  };

  /** The plan's `pageview_gaps` lines whose pageview does not sum to what it will once they are in. */
  const missingGaps = async (p: ClickHouseWritePlan): Promise<string[]> => {
    const sums = new Map<string, string>();
    for (const [site, keys] of bySite(p.gaps.keys)) {
      for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
        const part = keys.slice(i, i + KEYS_PER_QUERY);
        const rows = await io.rows<{ session_id: string; ts: string; seq: string; timed: string; gap_ms: string }>(
          `SELECT session_id, ts, seq, sum(timed) AS timed, sum(gap_ms) AS gap_ms FROM ${tableName(target, 'pageview_gaps')}
           WHERE site_id = ${sqlString(site)} AND day IN (${daysOf(part)}) AND (session_id, ts, seq) IN (${part.map(tuple).join(', ')})
           GROUP BY session_id, ts, seq`,
          LOOKUP,
        );
        for (const r of rows) sums.set(keyOf(site, r.session_id, r.ts, r.seq), `${Number(r.timed)}/${Number(r.gap_ms)}`);
      }
    }
    return p.gaps.lines.filter((_, i) => {
      const [site, , session, ts, seq, timed, gapMs] = p.gaps.keys[i]!;
      return (sums.get(keyOf(site, session, ts, seq)) ?? '0/0') !== `${timed}/${gapMs}`;
    });
  };

  return { plan, apply };
}

const keyOf = (...parts: (string | number)[]): string => parts.join('\u0000');
const tuple = (k: readonly (string | number)[]): string => `(${sqlString(String(k[2]))}, ${Number(k[3])}, ${Number(k[4])})`;
const daysOf = (keys: readonly (readonly (string | number)[])[]): string => [...new Set(keys.map((k) => String(k[1])))].map(sqlDate).join(', ');

function bySite<K extends readonly (string | number)[]>(keys: readonly K[]): Map<string, K[]> {
  const out = new Map<string, K[]>();
  for (const k of keys) {
    const site = String(k[0]);
    const list = out.get(site);
    if (list) list.push(k);
    else out.set(site, [k]);
  }
  return out;
}

/** Lines as `TabSeparated` pieces, each ending in a newline. */
function* pieces(lines: readonly string[]): Generator<string> {
  for (let i = 0; i < lines.length; i += LINES_PER_PIECE) yield `${lines.slice(i, i + LINES_PER_PIECE).join('\n')}\n`;
}
