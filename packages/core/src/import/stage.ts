/**
 * Where a large import waits between reading its lines and writing them: a temporary
 * SQLite file keyed by `(ts, seq)`, so the events come back in time order however the
 * file was ordered, a batch at a time, and the import's memory stays flat in the file's
 * size (docs/performance.md, "Import"). Deleted when closed.
 */
import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_FILE_MODE } from '../storage/sqlite/sqlite-file.js';
import { WRITE_UNAVAILABLE_MESSAGES, WriteUnavailableError } from '../errors.js';
import { writeUnavailable } from '../storage/sqlite/sqlite-errors.js';
import type { PropEntry } from '../storage/types.js';
import type { EnrichedEvent } from './enrich.js';

/** Columns of a staged event, in insert order (`toRow`). */
const COLUMNS = [
  'ts', 'seq', 'site_id', 'day', 'type', 'name', 'path', 'visitor_id', 'session_id', 'referrer_source', 'channel',
  'utm_source', 'utm_medium', 'utm_campaign', 'country_code', 'device_type', 'browser', 'os', 'props',
] as const;
type Row = (string | number | null)[];

/** Rows per INSERT statement. */
const ROWS_PER_INSERT = 50;

const toRow = (e: EnrichedEvent): Row => [
  e.ts, e.seq, e.siteId, e.day, e.type === 'pageview' ? 0 : 1, e.name, e.path, e.visitorId, e.sessionId ?? null, e.referrerSource, e.channel,
  e.utmSource, e.utmMedium, e.utmCampaign, e.countryCode, e.deviceType, e.browser, e.os, e.props ? JSON.stringify(e.props) : null,
];

const fromRow = (r: Row): EnrichedEvent => {
  const e: EnrichedEvent = {
    ts: r[0] as number, seq: r[1] as number, siteId: r[2] as string, day: r[3] as string, type: r[4] === 0 ? 'pageview' : 'event',
    name: r[5] as string, path: r[6] as string, visitorId: r[7] as string, sessionId: (r[8] as string | null) ?? undefined,
    referrerSource: r[9] as string, channel: r[10] as string, utmSource: r[11] as string, utmMedium: r[12] as string,
    utmCampaign: r[13] as string, countryCode: r[14] as string, deviceType: r[15] as string, browser: r[16] as string, os: r[17] as string,
  };
  if (r[18] !== null) e.props = JSON.parse(r[18] as string) as PropEntry[];
  return e;
};

/**
 * A new stage in a directory of its own under the system's temporary directory.
 *
 * @example
 * const stage = openStage();
 * stage.add(events);
 * for (const e of stage.ordered()) console.log(e.ts);
 * stage.close();
 */
export function openStage() {
  return staging(stageIn);
}

/**
 * Runs a step of the stage, reporting a full (or read-only) temporary directory as
 * `WriteUnavailableError` with the stage's own message: it is not the database's disk.
 */
function staging<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    const refused = writeUnavailable(error);
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (refused || code === 'ENOSPC' || code === 'EROFS') throw new WriteUnavailableError(refused?.reason ?? (code === 'EROFS' ? 'readonly' : 'full'), WRITE_UNAVAILABLE_MESSAGES.stageFull, { cause: error });
    throw error;
  }
}

function stageIn() {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-import-'));
  const file = join(dir, 'stage.db');
  // The import's events are data like the database's: created 0600 (in a 0700 directory), whatever the umask.
  closeSync(openSync(file, 'wx', DATA_FILE_MODE));
  const db = new Database(file);
  // Nobody else reads it and it is deleted after: no journal, no syncs; a small cache, sorts on disk.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = FILE');
  db.exec(`CREATE TABLE staged (
    ts INTEGER NOT NULL, seq INTEGER NOT NULL, site_id TEXT NOT NULL, day TEXT NOT NULL, type INTEGER NOT NULL, name TEXT NOT NULL,
    path TEXT NOT NULL, visitor_id TEXT NOT NULL, session_id TEXT, referrer_source TEXT NOT NULL, channel TEXT NOT NULL,
    utm_source TEXT NOT NULL, utm_medium TEXT NOT NULL, utm_campaign TEXT NOT NULL, country_code TEXT NOT NULL,
    device_type TEXT NOT NULL, browser TEXT NOT NULL, os TEXT NOT NULL, props TEXT,
    PRIMARY KEY (ts, seq)) WITHOUT ROWID`);
  const row = `(${COLUMNS.map(() => '?').join(', ')})`;
  const insertMany = db.prepare(`INSERT INTO staged VALUES ${Array(ROWS_PER_INSERT).fill(row).join(', ')}`);
  const insertOne = db.prepare(`INSERT INTO staged VALUES ${row}`);
  const add = db.transaction((events: readonly EnrichedEvent[]) => {
    let i = 0;
    for (; i + ROWS_PER_INSERT <= events.length; i += ROWS_PER_INSERT) insertMany.run(events.slice(i, i + ROWS_PER_INSERT).flatMap(toRow));
    for (; i < events.length; i++) insertOne.run(toRow(events[i]!));
  });
  let firstOf: Database.Statement | undefined;

  return {
    /** Where the stage is (deleted by `close`). */
    file,

    /** Adds events (in any order). */
    add: (events: readonly EnrichedEvent[]): void => staging(() => void add(events)),

    /** Every staged event by `(ts, seq)`, read a page of the b-tree at a time. Call once, after the last `add`. */
    *ordered(): Generator<EnrichedEvent> {
      // An index of the sessions the lines give, for `firstOf` (built before the read: the connection is busy during it).
      staging(() => db.exec('CREATE INDEX staged_session ON staged (site_id, session_id, ts, seq) WHERE session_id IS NOT NULL'));
      firstOf = db.prepare(`SELECT ${COLUMNS.join(', ')} FROM staged WHERE site_id = ? AND session_id = ? AND session_id IS NOT NULL ORDER BY ts, seq LIMIT 1`).raw();
      for (const r of db.prepare(`SELECT ${COLUMNS.join(', ')} FROM staged ORDER BY ts, seq`).raw().iterate() as IterableIterator<Row>) yield fromRow(r);
    },

    /**
     * The first event (by `(ts, seq)`) of a session the import's lines give, while `ordered`
     * runs: for an import that no longer holds it in memory (the session was idle for a while).
     */
    firstOf: (siteId: string, sessionId: string): EnrichedEvent => fromRow(firstOf!.get(siteId, sessionId) as Row),

    /** Closes and deletes the file. */
    close(): void {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Stage = ReturnType<typeof stageIn>;
