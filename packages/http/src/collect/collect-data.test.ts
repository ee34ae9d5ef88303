import { readFileSync, existsSync } from 'node:fs';
import { createSite, getStats, parseQuery } from '@siteline/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySaltStore } from '@siteline/core';
import { CHROME_UA, startCollector, type TestCollector } from './test-helpers.js';

const IP = '81.2.69.142'; // a GB address in the country database
const page = (path: string, extra: object = {}) => ({ site_id: 'ST-blog', type: 'pageview', url: `https://blog.example${path}`, referrer: '', ...extra });
const rows = (c: TestCollector) =>
  c.db.prepare('SELECT * FROM events JOIN sessions USING (site_id, session_id) ORDER BY ts, seq').all() as Record<string, unknown>[];

describe.each([
  { mode: 'in the request thread', worker: false },
  { mode: 'on the worker thread', worker: true },
])('collect handler: what is stored, $mode', ({ worker }) => {
  let c: TestCollector;
  afterEach(() => c.close());

  async function start(now: () => number, options: Parameters<typeof startCollector>[0] = {}) {
    c = await startCollector({ now, trustProxy: true, batch: { maxEvents: 100 }, worker, ...options });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example', timezone: 'Europe/London' });
  }

  it('derives everything through the core and never stores the IP or the user agent', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z');
    await start(() => now);
    const xff = { 'X-Forwarded-For': `${IP}, 10.0.0.1` };
    await c.beacon(page('/landing?utm_source=news&utm_medium=email&utm_campaign=fall', { referrer: 'https://mail.example/' }), xff);
    now += 60_000;
    await c.beacon(page('/pricing', { referrer: 'https://blog.example/landing' }), xff);
    now += 30_000;
    await c.beacon({ ...page('/pricing'), type: 'event', name: 'signup' }, xff);
    await c.handler.flush();

    const events = rows(c);
    expect(events.map((e) => [e.type, e.name, e.path])).toEqual([[0, '', '/landing'], [0, '', '/pricing'], [1, 'signup', '/pricing']]);
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
    expect(events[0]).toMatchObject({
      entry_path: '/landing', referrer_source: 'mail.example', channel: 'Email', utm_source: 'news', utm_medium: 'email',
      utm_campaign: 'fall', country_code: 'GB', device_type: 'Desktop', browser: 'Chrome', os: 'Linux', day: '2026-11-01',
    });
    const stats = await getStats(c.storage, parseQuery('stats', { site_id: 'ST-blog', period: '1d' }), { now });
    expect(stats).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 90 });

    await c.storage.close(); // the bytes on disk, WAL included, must not hold the IP or user agent
    const bytes = Buffer.concat([c.dbPath, `${c.dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.includes('mail.example')).toBe(true); // the scan does see the stored data
    for (const secret of [IP, CHROME_UA, Buffer.from(IP.split('.').map(Number)).toString('latin1')]) {
      expect(bytes.includes(Buffer.from(secret, 'latin1'))).toBe(false);
    }
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const now = Date.parse('2026-11-01T10:00:00Z');
    await start(() => now, { trustProxy: false });
    await c.beacon(page('/'), { 'X-Forwarded-For': IP });
    await c.handler.flush();
    expect(rows(c)[0]!.country_code).toBe('XX'); // the loopback socket address
  });

  it('answers 202 only once the beacon is committed (it is in the file, read by another connection, when the answer arrives), and 503 once closed', async () => {
    await start(Date.now);
    const stored: number[] = [];
    for (const path of ['/1', '/2', '/3']) {
      expect((await c.beacon(page(path))).status).toBe(202);
      stored.push(rows(c).length);
    }
    expect(stored).toEqual([1, 2, 3]);
    await c.handler.close();
    const late = await c.beacon(page('/4'));
    expect([late.status, JSON.parse(late.body)]).toEqual([503, { error: 'Service Unavailable' }]);
    expect(rows(c)).toHaveLength(3);
  });

});

describe('collect handler: salts from a given store (in the request thread)', () => {
  let c: TestCollector;
  afterEach(() => c.close());

  async function start(now: () => number, options: Parameters<typeof startCollector>[0] = {}) {
    c = await startCollector({ now, trustProxy: true, batch: { maxEvents: 100 }, ...options });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example', timezone: 'Europe/London' });
  }

  it('rotates the salt daily: the same IP and user agent are a new visitor the next day; old salts go after 48 h', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z');
    const salts = createMemorySaltStore({ now: () => now });
    await start(() => now, { salts });
    const xff = { 'X-Forwarded-For': IP };
    await c.beacon(page('/a'), xff);
    now += 3_600_000; // new session (> 30 min), same day: same visitor
    await c.beacon(page('/b'), xff);
    now = Date.parse('2026-11-02T10:00:00Z');
    await c.beacon(page('/c'), xff);
    expect(salts.days()).toEqual(['2026-11-01', '2026-11-02']);
    now = Date.parse('2026-11-03T10:00:00Z');
    await c.beacon(page('/d'), xff);
    expect(salts.days()).toEqual(['2026-11-02', '2026-11-03']);
    await c.handler.flush();
    const ids = rows(c).map((e) => e.visitor_id);
    expect(new Set(rows(c).map((e) => e.session_id)).size).toBe(4);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(3);
  });

  it('on close, waits for a beacon still deriving its event and writes it too', async () => {
    const memory = createMemorySaltStore();
    let entered!: () => void;
    const inSaltStore = new Promise<void>((resolve) => (entered = resolve));
    const slowSalts = {
      async saltFor(day: string) {
        entered();
        await new Promise((r) => setTimeout(r, 100));
        return memory.saltFor(day);
      },
    };
    await start(Date.now, { salts: slowSalts });
    const reply = c.beacon(page('/slow'));
    await inSaltStore;
    await c.handler.close();
    expect((await reply).status).toBe(202);
    expect(rows(c).map((e) => e.path)).toEqual(['/slow']);
  });
});

describe('collect handler: salts on the worker thread', () => {
  let c: TestCollector;
  afterEach(() => c.close());

  it('keeps the day\'s salts in the database: same visitor within a day, a new one the next day', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z');
    c = await startCollector({ now: () => now, trustProxy: true, batch: { maxEvents: 100 }, worker: true });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example', timezone: 'Europe/London' });
    const xff = { 'X-Forwarded-For': IP };
    await c.beacon(page('/a'), xff);
    now += 3_600_000;
    await c.beacon(page('/b'), xff);
    now = Date.parse('2026-11-02T10:00:00Z');
    await c.beacon(page('/c'), xff);
    await c.handler.flush();
    const ids = rows(c).map((e) => e.visitor_id);
    expect(new Set(rows(c).map((e) => e.session_id)).size).toBe(3);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    const days = c.db.prepare('SELECT day FROM salts ORDER BY day').pluck().all();
    expect(days).toEqual(['2026-11-01', '2026-11-02']);
  });
});

describe('collect handler: a worker that cannot open its database', () => {
  it('is reported by ready(), answers 503 instead of accepting beacons it would lose, and closes cleanly', async () => {
    const c = await startCollector({ worker: '/nonexistent-siteline-dir/collect.db', batch: { maxEvents: 100 } });
    try {
      await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example' });
      await expect(c.handler.ready()).rejects.toThrow(/The collector's worker could not start: .*(directory does not exist|unable to open|no such file or directory)/);
      const reply = await c.beacon(page('/'));
      expect([reply.status, JSON.parse(reply.body), reply.headers['retry-after']]).toEqual([503, { error: 'Service Unavailable' }, '5']);
      expect(c.logs.map((l) => l.msg)).toContain('collect worker stopped; restarting it');
      await expect(c.handler.flush()).rejects.toThrow('The collect worker is not running (see the log); it is being restarted.');
    } finally {
      await c.close();
    }
  });
});
