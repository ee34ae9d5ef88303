/**
 * Where import time goes: the steps of `importEvents` (import.ts) run one at
 * a time over the same lines, each timed on its own, then the store's write.
 * The steps are called as import.ts calls them; this file only measures.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { type EnrichedEvent, enrichEvent } from '../../packages/core/src/import/enrich.js';
import { parseImportLine } from '../../packages/core/src/import/line-schema.js';
import { Sessionizer, stampSessions } from '../../packages/core/src/import/sessionize.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import { batchInsert } from '../../packages/core/src/storage/sqlite/sqlite-batch.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import type { StoredEvent } from '../../packages/core/src/storage/types.js';
import type { Site } from '../../packages/core/src/types.js';
import { removeDatabase } from './measure.js';

export interface Stage {
  stage: string;
  microsPerEvent: number;
  /** A floor to compare with, not a step of the import (not in the total). */
  reference?: boolean;
}

/** Times each import step over `lines` (all of `site`) and the write into a fresh store at `file`. */
export async function importStages(lines: readonly string[], site: Omit<Site, 'createdAt' | 'accountId'>, file: string, now: () => number): Promise<Stage[]> {
  const stages: Stage[] = [];
  const timed = async <T>(stage: string, fn: () => T | Promise<T>, reference = false): Promise<T> => {
    const t = performance.now();
    const result = await fn();
    stages.push({ stage, microsPerEvent: ((performance.now() - t) * 1000) / lines.length, ...(reference ? { reference } : {}) });
    return result;
  };
  const full: Site = { ...site, accountId: null, createdAt: new Date(0).toISOString() };
  await timed('sha256 of the lines (duplicate check)', () => {
    const hash = createHash('sha256');
    for (const line of lines) hash.update(line).update('\n');
    return hash.digest('hex');
  });
  const sha = stages.at(-1)!;
  const parsed = await timed('parseImportLine (JSON.parse + plain checks)', () => lines.map((line) => parseImportLine(line)));
  await timed('  of which JSON.parse alone', () => lines.map((line) => JSON.parse(line) as unknown));
  const jsonParse = stages.at(-1)!;
  const salt = () => 'bench-salt';
  const enriched = await timed('enrichEvent (derivations)', () =>
    parsed.map((p, i) => {
      if (!p.ok) throw new Error(p.reason);
      const { site_id: _, ...event } = p.line;
      return enrichEvent(full, event, salt, i);
    }),
  );
  const sessioned = await timed('sort + Sessionizer (30-minute rule)', () => {
    const sessionizer = new Sessionizer();
    const ordered = [...enriched].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
    for (const e of ordered) e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts);
    return ordered as (EnrichedEvent & { sessionId: string })[];
  });
  const stored: StoredEvent[] = await timed('stampSessions (session attributes)', () => stampSessions(sessioned));
  removeDatabase(file);
  const storage = createSqliteStore(file, { now });
  await createSite(storage, site);
  await timed('storage.writeEvents (SQLite, incl. rollups)', () =>
    storage.writeEvents(stored, { hash: 'bench', events: stored.length, importedAt: new Date(0).toISOString() }),
  );
  // Floors of any SQLite write of these events: their stored rows alone, through the same multi-row INSERT,
  // into empty tables of the same definitions (without secondary indexes) in the same file: no lookups, no rollups.
  await timed('reference: the events rows alone, bare multi-row INSERT', bareInsert(storage.db, ['events']), true);
  const eventsInsert = stages.at(-1)!;
  await timed('reference: the events and sessions rows alone, bare multi-row INSERTs', bareInsert(storage.db, ['events', 'sessions']), true);
  // What one thread must do for any import of these lines before deriving anything: hash, parse, write the events rows.
  stages.push({
    stage: 'reference: sha256 + JSON.parse alone + the events rows INSERT (no checks, derivations, sessions, rollups)',
    microsPerEvent: sha.microsPerEvent + jsonParse.microsPerEvent + eventsInsert.microsPerEvent,
    reference: true,
  });
  // What splitting the import over the two cores would add: the stored events crossing to another thread.
  const thread = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m.length));", { eval: true });
  await once(thread, 'online');
  const handOver = async () => {
    for (let i = 0; i < stored.length; i += 10_000) {
      thread.postMessage(stored.slice(i, i + 10_000));
      await once(thread, 'message');
    }
  };
  await timed('reference: handing the stored events to another thread (postMessage, 10,000 at a time)', handOver, true);
  await thread.terminate();
  await storage.close();
  removeDatabase(file);
  return stages;
}

/**
 * Copies of `tables` (same definitions, empty, named `floor_<table>_<n>`) and their stored rows as
 * bound values, read before timing; returns the timed part: inserting those rows in one transaction.
 */
function bareInsert(db: Database.Database, tables: readonly string[]): () => void {
  const copies = tables.map((table) => {
    const select = db.prepare(`SELECT * FROM ${table}`).raw();
    const rows = select.all() as unknown[][];
    const copy = `floor_${table}_${db.prepare<[], number>("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").pluck().get()}`;
    const ddl = db.prepare<[string], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table)!;
    db.exec(ddl.replace(new RegExp(`^CREATE TABLE "?${table}"?`), `CREATE TABLE ${copy}`));
    return { rows, insert: batchInsert(db, copy, select.columns().map((c) => c.name), 100) };
  });
  return db.transaction(() => {
    for (const { rows, insert } of copies) {
      for (const row of rows) insert.add(row);
      insert.flush();
    }
  });
}
