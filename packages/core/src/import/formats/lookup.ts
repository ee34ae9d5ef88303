/**
 * A key-value table in a temporary SQLite file, for the side tables of an export that the
 * main one refers to by id (Umami's `session` and `event_data` rows): filled once, looked up
 * per event, so memory does not grow with the export. Deleted when closed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new lookup whose values are lists of strings (one key may be added several times: the
 * lists are kept in order, as `get` returns them).
 * @example const sessions = openLookup(); sessions.add('s1', ['chrome', 'Windows 10']); sessions.get('s1'); sessions.close();
 */
export function openLookup() {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-lookup-'));
  const db = new Database(join(dir, 'lookup.db'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec('CREATE TABLE kv (k TEXT NOT NULL, v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO kv VALUES (?, ?)');
  let pending: [string, string][] = [];
  const flush = db.transaction(() => {
    for (const [k, v] of pending) insert.run(k, v);
    pending = [];
  });
  let indexed = false;
  let select: Database.Statement<[string], string> | undefined;
  let size = 0;
  return {
    add(key: string, values: readonly string[]): void {
      pending.push([key, JSON.stringify(values)]);
      size++;
      if (pending.length >= 10_000) flush();
    },
    /** Every list added under `key`, in the order added. Call after the last `add`. */
    get(key: string): string[][] {
      if (!indexed) {
        flush();
        db.exec('CREATE INDEX kv_k ON kv (k)');
        select = db.prepare<[string], string>('SELECT v FROM kv WHERE k = ? ORDER BY rowid').pluck();
        indexed = true;
      }
      return select!.all(key).map((v) => JSON.parse(v) as string[]);
    },
    get size(): number {
      return size;
    },
    close(): void {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Lookup = ReturnType<typeof openLookup>;
