import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testStorage } from '../../testing/conformance.js';
import { WRITE_UNAVAILABLE_MESSAGES, WriteUnavailableError } from '../../errors.js';
import { createSqliteStorage, createSqliteStore } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

testStorage({ name: 'sqlite file', create: async () => createSqliteStorage(join(dir, 'conformance.db')) });
testStorage({ name: 'sqlite :memory:', create: async () => createSqliteStorage(':memory:') });

describe('walAutocheckpointPages', () => {
  /** Commits `transactions` writes of 100 fresh 4 KB pages each on `storage`'s connection; the frames left in its WAL. */
  const framesAfterWrites = (storage: ReturnType<typeof createSqliteStore>, transactions: number): number => {
    storage.db.exec('CREATE TABLE scratch (b BLOB)');
    const insert = storage.db.prepare('INSERT INTO scratch VALUES (zeroblob(4000))');
    const write = storage.db.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run();
    });
    for (let i = 0; i < transactions; i++) write();
    // PASSIVE with another connection holding no lock: returns [busy, frames in the WAL, frames checkpointed].
    const [result] = storage.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    return result!.log;
  };

  it("checkpoints after SQLite's default of 1000 pages without it, and only after the given number with it", async () => {
    const plain = createSqliteStore(join(dir, 'wal-default.db'));
    const larger = createSqliteStore(join(dir, 'wal-larger.db'), { walAutocheckpointPages: 10_000 });
    expect(plain.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(larger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    // 30 commits of ~100 pages: ~3,000 frames. The default checkpoints after the commit that passes
    // 1000 frames and the next commit starts the WAL over, so it never holds more than 1000 + one commit.
    expect(framesAfterWrites(plain, 30)).toBeLessThan(1000 + 110);
    expect(framesAfterWrites(larger, 30)).toBeGreaterThan(3000);
    await plain.close();
    await larger.close();
  });

  it('with 0, never checkpoints by itself', async () => {
    const never = createSqliteStore(join(dir, 'wal-never.db'), { walAutocheckpointPages: 0 });
    expect(framesAfterWrites(never, 30)).toBeGreaterThan(3000);
    await never.close();
  });

  it('is a setting of the connection: another connection to the same file keeps the default', async () => {
    const writer = createSqliteStore(join(dir, 'wal-shared.db'), { walAutocheckpointPages: 10_000 });
    const reader = createSqliteStore(join(dir, 'wal-shared.db'));
    expect(reader.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await reader.close();
    await writer.close();
  });

  it('refuses anything but a whole number >= 0, before opening the file', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => createSqliteStore(join(dir, 'wal-bad.db'), { walAutocheckpointPages: bad })).toThrow(
        new RangeError(`walAutocheckpointPages must be a whole number >= 0, got ${bad}`),
      );
    }
    expect(existsSync(join(dir, 'wal-bad.db'))).toBe(false);
  });
});

describe('column cache options', () => {
  it('refuse anything but a whole number (>= 1 bytes, >= 0 days and rebuild bytes), before opening the file', () => {
    for (const name of ['columnCacheWarmDays', 'rebuildMemoryBytes'] as const) {
      for (const bad of [-1, 2.5, Number.NaN]) {
        expect(() => createSqliteStore(join(dir, 'cache-bad.db'), { [name]: bad })).toThrow(new RangeError(`${name} must be a whole number >= 0, got ${bad}`));
      }
    }
    for (const bad of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createSqliteStore(join(dir, 'cache-bad.db'), { columnCacheBytes: bad })).toThrow(new RangeError(`columnCacheBytes must be a whole number >= 1, got ${bad}`));
    }
    expect(existsSync(join(dir, 'cache-bad.db'))).toBe(false);
  });
});

describe('a store that cannot be written', () => {
  it('a read-only connection refuses a write with WriteUnavailableError (readonly), writes nothing, and still reads', async () => {
    const path = join(dir, 'readonly.db');
    const writable = createSqliteStorage(path);
    await writable.insertSite({ id: 'ST-ro', name: 'RO', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-11-01T00:00:00Z' });
    await writable.close();
    const readonly = createSqliteStorage(path, { readonly: true });
    const event = {
      siteId: 'ST-ro', ts: Date.parse('2026-11-02T10:00:00Z'), day: '2026-11-02', type: 'pageview' as const, name: '', path: '/', visitorId: 'v', sessionId: 's', seq: 1,
      entryPath: '/', referrerSource: '', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'XX', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux',
    };
    const refusal = await readonly.writeEvents([event]).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WriteUnavailableError);
    expect([(refusal as WriteUnavailableError).reason, (refusal as Error).message]).toEqual(['readonly', WRITE_UNAVAILABLE_MESSAGES.readonly]);
    expect((await readonly.getSite('ST-ro'))?.name).toBe('RO');
    expect(await readonly.summary({ siteId: 'ST-ro', from: '2026-11-02', to: '2026-11-02', startMs: Date.parse('2026-11-02T00:00:00Z'), endMs: Date.parse('2026-11-03T00:00:00Z') })).toMatchObject({ pageviews: 0 });
    await readonly.close();
  });
});
