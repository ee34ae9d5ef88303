import Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createChunkBuilder } from './sqlite-chunk-builder.js';
import { createChunkReader } from './sqlite-chunk-reader.js';
import type { DayChunk, SiteDictionaries } from './sqlite-columns.js';
import { createDayVersions, type DayVersions } from './sqlite-day-versions.js';
import { isSqliteFile } from './sqlite-file.js';

/** What a load gives: the day's chunk (none: too large) and the versions of the days it read. */
export interface LoadResult {
  chunk: DayChunk | undefined;
  versions: Map<string, number>;
}

/** A load under way; `promote()` lets it go before the warming's. */
export type Loading = Promise<LoadResult> & { promote(): void };

/** A connection with the reads of a chunk: the store's own, or the loader's. */
export interface Reader {
  db: Database.Database;
  readDay: ReturnType<typeof createChunkReader>;
  versions: DayVersions;
}

/** The versions of what a day's chunk was read from (its day and its foreign sessions' days); call in the same snapshot. */
export function versionsOf(reader: Reader, siteId: string, day: string, foreignDays: readonly string[]): Map<string, number> {
  let from = day;
  let to = day;
  for (const d of foreignDays) {
    if (d < from) from = d;
    if (d > to) to = d;
  }
  return reader.versions.between(siteId, from, to);
}

/**
 * Loads a day's chunk a step at a time, for a store on a file: on a second,
 * read-only connection to it (opened on first use), in one read transaction
 * held across a turn of the event loop after every batch of rows
 * (sqlite-chunk-reader.ts: about half a megabyte of text), then built a few
 * milliseconds at a time with a turn after each step (sqlite-chunk-builder.ts). The store's own connection cannot do this: every request
 * uses it, so it cannot hold a transaction across a pause. One load at a time
 * (one transaction on the connection). `available()` is false in memory (no
 * other connection can open it) or when the file cannot be opened again.
 */
export function createIncrementalLoader(db: Database.Database) {
  let reader: Reader | null | undefined;
  const open = (): Reader | undefined => {
    if (reader === undefined) {
      reader = null;
      const file = (db.pragma('database_list') as { name: string; file: string }[]).find((d) => d.name === 'main')?.file ?? '';
      if (isSqliteFile(file)) {
        try {
          const conn = new Database(file, { readonly: true, fileMustExist: true });
          conn.pragma('busy_timeout = 5000');
          reader = { db: conn, readDay: createChunkReader(conn), versions: createDayVersions(conn) };
        } catch {
          // The store then loads each day at once on its own connection.
        }
      }
    }
    return reader ?? undefined;
  };

  /**
   * Loads waiting for the connection: one runs at a time, a query's before the warming's, and
   * none of the warming's while a query is loading its days (`foreground`), between two of them.
   */
  const waiting: { background: boolean; start: () => void }[] = [];
  let running = false;
  let queries = 0;
  const startNext = () => {
    if (running || waiting.length === 0) return;
    let next = waiting.findIndex((w) => !w.background);
    if (next < 0 && queries === 0) next = 0;
    if (next < 0) return;
    running = true;
    waiting.splice(next, 1)[0]!.start();
  };
  const load = async (siteId: string, day: string, timezone: string, dicts: SiteDictionaries, maxText: number): Promise<LoadResult> => {
    const r = open()!;
    const builder = createChunkBuilder(day, dicts);
    let text: number | undefined;
    let versions: Map<string, number>;
    r.db.exec('BEGIN');
    try {
      const steps = r.readDay(siteId, day, timezone, builder.sink, maxText);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          text = step.value;
          break;
        }
        await nextTurn();
      }
      versions = versionsOf(r, siteId, day, text === undefined ? [] : builder.foreignDays());
    } finally {
      if (r.db.open && r.db.inTransaction) r.db.exec('COMMIT');
    }
    if (text === undefined) return { chunk: undefined, versions };
    await nextTurn();
    const build = builder.finish();
    for (let step = build.next(); ; step = build.next()) {
      if (step.done) return { chunk: step.value, versions };
      await nextTurn();
    }
  };

  return {
    available: (): boolean => open() !== undefined,

    /**
     * The day's chunk and the versions of the days it read, from one snapshot; after the loads
     * asked for before it, a `background` one (the warming) after every other. No chunk when
     * the day's rows pass `maxText` characters (then the versions are the day's own).
     */
    load(siteId: string, day: string, timezone: string, dicts: SiteDictionaries, o: { maxText?: number; background?: boolean } = {}): Loading {
      const job = { background: o.background ?? false, start: () => {} };
      const result = new Promise<LoadResult>((resolve, reject) => {
        job.start = () => {
          load(siteId, day, timezone, dicts, o.maxText ?? Infinity).then(resolve, reject).finally(() => {
            running = false;
            startNext();
          });
        };
      });
      waiting.push(job);
      startNext();
      // A query waiting for a load the warming asked for makes it a query's (or it would wait for itself).
      const promote = () => {
        job.background = false;
        startNext();
      };
      return Object.assign(result, { promote });
    },

    /** Marks a query loading its days until the returned function is called: the warming's loads wait meanwhile. */
    foreground(): () => void {
      queries++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        queries--;
        startNext();
      };
    },

    /** Closes the second connection, if open (a load in progress then fails). */
    close(): void {
      if (reader?.db.open) reader.db.close();
    },
  };
}

export type IncrementalLoader = ReturnType<typeof createIncrementalLoader>;
