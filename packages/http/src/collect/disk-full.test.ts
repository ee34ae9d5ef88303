import type Database from 'better-sqlite3';
import { createSite, getPages, getStats, importEvents, parseQuery, WRITE_UNAVAILABLE_MESSAGES, WriteUnavailableError } from '@siteline/core';
import { afterEach, describe, expect, it } from 'vitest';
import { startCollector, type TestCollector } from './test-helpers.js';

/**
 * A full disk, made with SQLite's `max_page_count` on the store's connection (portable; the
 * deployment test fills a real file system): beacons get 503 and are not stored, an import is
 * refused whole, reads answer, and once there is room again everything is accepted, with the
 * file intact. In the request thread, whose writes go through the connection the test limits.
 */
describe('collect handler on a full disk (SQLite max_page_count)', () => {
  let c: TestCollector;
  afterEach(() => c.close());

  it('answers 503 and stores nothing for beacons it cannot commit, refuses an import whole, keeps answering reads, and takes both again once there is room', async () => {
    const now = Date.parse('2026-11-02T12:00:00Z');
    c = await startCollector({ now: () => now });
    await createSite(c.storage, { id: 'ST-full', name: 'Full', domain: 'full.example', timezone: 'UTC' });
    const db = (c.storage as unknown as { db: Database.Database }).db;
    const count = () => c.db.prepare("SELECT count(*) FROM events WHERE site_id = 'ST-full'").pluck().get() as number;
    const page = (n: number) => ({ site_id: 'ST-full', type: 'pageview', url: `https://full.example/p${n}/${'x'.repeat(1000)}`, referrer: '' });

    // Room for a few dozen of these beacons, then none.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 20}`);
    const statuses: number[] = [];
    for (let n = 0; n < 200 && !statuses.includes(503); n++) statuses.push((await c.beacon(page(n))).status);
    const accepted = statuses.filter((s) => s === 202).length;
    expect(accepted).toBeGreaterThan(5);
    expect(statuses).toEqual([...Array<number>(accepted).fill(202), 503]);
    expect(count()).toBe(accepted); // the refused beacon's write was rolled back whole
    const refused = await c.beacon(page(1000));
    expect([refused.status, JSON.parse(refused.body), refused.headers['retry-after']]).toEqual([503, { error: 'Service Unavailable' }, '5']);
    expect(c.logs.filter((l) => l.msg === 'collect write failed; its beacons were answered 503')).toHaveLength(1);

    // An import (at once, and staged in batches) is refused whole, with what to do.
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ site_id: 'ST-full', type: 'pageview', ts: `2026-11-01T10:${String(i % 60).padStart(2, '0')}:00Z`, url: `/imported/${i}/${'y'.repeat(500)}`, visitor_id: `v${i}` }));
    for (const stageAfterEvents of [100_000, 100]) {
      const refusal = await importEvents(c.storage, lines.join('\n'), { stageAfterEvents }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(WriteUnavailableError);
      expect((refusal as Error).message).toBe(WRITE_UNAVAILABLE_MESSAGES.importFull);
    }
    expect(c.db.prepare('SELECT count(*) FROM imports').pluck().get()).toBe(0);

    // Reads answer meanwhile, from what was committed.
    const day = { site_id: 'ST-full', from: '2026-11-02', to: '2026-11-02' };
    expect(await getStats(c.storage, parseQuery('stats', day), { now })).toMatchObject({ pageviews: accepted });
    expect((await getPages(c.storage, parseQuery('pages', { ...day, limit: '100' }), { now })).pages).toHaveLength(accepted);

    // Room again: beacons and the import are taken, nothing was left half-written.
    db.pragma('max_page_count = 1073741823');
    expect((await c.beacon(page(2000))).status).toBe(202);
    expect(c.logs.filter((l) => l.msg === 'collect writes work again')).toHaveLength(1);
    expect((await importEvents(c.storage, lines.join('\n'))).events).toBe(300);
    expect(count()).toBe(accepted + 1 + 300);
    expect(c.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
