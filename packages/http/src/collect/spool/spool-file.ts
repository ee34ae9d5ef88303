/**
 * The spool's file: a SQLite database in WAL mode, opened with `locking_mode = EXCLUSIVE`, so
 * the process that opened it holds a lock on it until it exits: the operating system drops
 * the lock of a process that dies, so a crashed owner never keeps the next one out, and a
 * second live one is refused at once. Commits do not wait for the disk (`synchronous =
 * NORMAL`, which still syncs around checkpoints); `sync()` flushes the WAL with an fdatasync
 * on the libuv thread pool, one for every commit made while the previous one ran (group
 * fsync), so neither the thread nor the next appends wait for it.
 */
import { closeSync, fdatasync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { StoredEvent, WritePlan } from '@siteline/core';

/** The oldest spooled beacons' events, whole appends at a time. */
export interface SpoolHead {
  /** The last append taken: `done(lastId)` removes it and every one before it. */
  lastId: number;
  events: StoredEvent[];
  /** When the oldest of them was appended (ms since the epoch). */
  oldestAt: number;
}

/**
 * Opens (or creates, 0600 in a 0700 directory) the spool of `dir`, taking its lock; throws
 * when another process holds it.
 *
 * @example
 * const file = openSpoolFile('/var/lib/siteline/spool');
 * file.append(events, Date.now());
 */
export function openSpoolFile(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'spool.db');
  closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path, { timeout: 0 });
  try {
    // Before anything reads the file: no shared-memory index, and the lock is kept once taken.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`The spool directory ${dir} (COLLECT_SPOOL_DIR) is in use by another siteline process${owner(dir)}; give each server process a spool directory of its own.`);
  }
  writeFileSync(join(dir, 'owner'), `${process.pid} ${hostname()} ${new Date().toISOString()}\n`, { mode: 0o600 });
  db.exec(`
    CREATE TABLE IF NOT EXISTS appends (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, events INTEGER NOT NULL, bytes INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS plan (only INTEGER PRIMARY KEY CHECK (only = 1), last_id INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS meta (only INTEGER PRIMARY KEY CHECK (only = 1), database TEXT NOT NULL);
  `);
  const boundTo = db.prepare<[], string>('SELECT database FROM meta').pluck();
  const bind = db.prepare('INSERT INTO meta (only, database) VALUES (1, ?) ON CONFLICT DO UPDATE SET database = excluded.database');
  const insert = db.prepare('INSERT INTO appends (at, events, bytes, body) VALUES (?, ?, ?, ?)');
  const totals = db.prepare<[], { events: number | null; bytes: number | null }>('SELECT sum(events) AS events, sum(bytes) AS bytes FROM appends');
  const oldest = db.prepare<[], { id: number; at: number; events: number; body: string }>('SELECT id, at, events, body FROM appends ORDER BY id');
  const plan = db.prepare<[], { last_id: number; body: string }>('SELECT last_id, body FROM plan');
  const savePlan = db.prepare('INSERT INTO plan (only, last_id, body) VALUES (1, ?, ?)');
  const removed = db.prepare<[number], { events: number | null; bytes: number | null }>('SELECT sum(events) AS events, sum(bytes) AS bytes FROM appends WHERE id <= ?');
  const remove = db.prepare('DELETE FROM appends WHERE id <= ?');
  const dropPlan = db.prepare('DELETE FROM plan');
  const done = db.transaction((lastId: number) => {
    const freed = removed.get(lastId)!;
    remove.run(lastId);
    dropPlan.run();
    return { events: freed.events ?? 0, bytes: freed.bytes ?? 0 };
  });

  // The group fsync of the WAL (opened once it exists: after the first commit).
  let wal: number | undefined;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    if (wal === undefined) {
      wal = openSync(`${path}-wal`, 'r+');
      // The WAL is a new file: its directory entry must reach the disk too.
      const dirFd = openSync(dir, 'r');
      try {
        fsyncSync(dirFd);
      } finally {
        closeSync(dirFd);
      }
    }
    const fd = wal;
    running = new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))).finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    /**
     * Resolves once every commit made before this call is on disk. A flush already running may
     * have started before the latest commit: callers meanwhile share the one after it.
     */
    sync(): Promise<void> {
      if (!running) return flush();
      queued ??= running.then(flush, flush).finally(() => {
        queued = undefined;
      });
      return queued;
    },
    /**
     * Ties the spool to the database its beacons go to (as logs show it, no password). A spool
     * still holding beacons for another database is refused: they must not go to this one.
     */
    bindTo(database: string): void {
      const held = totals.get()!.events ?? 0;
      const bound = boundTo.get();
      if ((held > 0 || plan.get()) && bound !== undefined && bound !== database) {
        db.close();
        throw new Error(`The spool directory ${dir} (COLLECT_SPOOL_DIR) holds ${held} beacons for ${bound}, not for ${database}: start siteline with that DATABASE_URL to send them, or move the directory away.`);
      }
      bind.run(database);
    },
    /** Events and bytes spooled (appended and not yet known to be in the store). */
    totals(): { events: number; bytes: number } {
      const t = totals.get()!;
      return { events: t.events ?? 0, bytes: t.bytes ?? 0 };
    },
    /** Appends one group of events (`body`, their JSON, of `bytes`); on disk once `sync()` resolves after it. */
    append(body: string, bytes: number, events: number, at: number): void {
      insert.run(at, events, bytes, body);
    },
    /** The oldest appends, whole, until `maxEvents` are reached (at least one append); `undefined` when empty. */
    head(maxEvents: number): SpoolHead | undefined {
      const head: SpoolHead = { lastId: 0, events: [], oldestAt: 0 };
      for (const row of oldest.iterate()) {
        if (head.events.length > 0 && head.events.length + row.events > maxEvents) break;
        if (head.lastId === 0) head.oldestAt = row.at;
        head.lastId = row.id;
        for (const e of JSON.parse(row.body) as StoredEvent[]) head.events.push(e);
      }
      return head.lastId === 0 ? undefined : head;
    },
    /** When the oldest append was made, or `undefined` when the spool is empty. */
    oldestAt(): number | undefined {
      for (const row of oldest.iterate()) return row.at;
      return undefined;
    },
    /** The plan saved for the appends up to `lastId` and not yet known to be applied whole. */
    savedPlan(): { lastId: number; plan: WritePlan } | undefined {
      const row = plan.get();
      return row && { lastId: row.last_id, plan: JSON.parse(row.body) as WritePlan };
    },
    /** Saves the plan of the appends up to `lastId` (on disk once `sync()` resolves after it). */
    savePlan(lastId: number, writePlan: WritePlan): void {
      savePlan.run(lastId, JSON.stringify(writePlan));
    },
    /** The appends up to `lastId` are in the store: removes them and their plan; returns what they held. */
    done: (lastId: number): { events: number; bytes: number } => done.immediate(lastId),
    /** Closes the file once the flushes under way are done. */
    async close(): Promise<void> {
      await Promise.allSettled([running, queued]);
      if (db.open) db.close();
      if (wal !== undefined) closeSync(wal);
      wal = undefined;
    },
  };
}

export type SpoolFile = ReturnType<typeof openSpoolFile>;

/** ` (pid 1234 on host, since ...)` from the owner's note, when it can be read. */
function owner(dir: string): string {
  try {
    const [pid, host, since] = readFileSync(join(dir, 'owner'), 'utf8').trim().split(' ');
    return pid ? ` (pid ${pid} on ${host}, since ${since})` : '';
  } catch {
    return '';
  }
}
