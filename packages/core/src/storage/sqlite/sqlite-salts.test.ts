import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSaltStore } from './sqlite-salts.js';
import { createSqliteStore } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-salts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite salt store', () => {
  it('every connection to the file gets the same salt for a day; days differ; old salts are deleted after 48 h', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z');
    const file = join(dir, 'salts.db');
    const a = createSqliteStore(file);
    const b = createSqliteStore(file);
    const saltsA = createSqliteSaltStore(a.db, { now: () => now });
    const saltsB = createSqliteSaltStore(b.db, { now: () => now });
    const first = await saltsA.saltFor('2026-11-01');
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(await saltsB.saltFor('2026-11-01')).toBe(first);
    const second = await saltsB.saltFor('2026-11-02');
    expect(second).not.toBe(first);
    const days = () => (a.db.prepare('SELECT day FROM salts ORDER BY day').pluck().all() as string[]);
    expect(days()).toEqual(['2026-11-01', '2026-11-02']);

    now = Date.parse('2026-11-03T00:00:00Z'); // 48 h after 11-01 began
    await saltsA.saltFor('2026-11-03');
    expect(days()).toEqual(['2026-11-02', '2026-11-03']);
    // A restart (new store, same file) keeps the salt of a day that is still kept.
    expect(await createSqliteSaltStore(a.db, { now: () => now }).saltFor('2026-11-02')).toBe(second);
    await a.close();
    await b.close();
  });
});
