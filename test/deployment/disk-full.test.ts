import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { localDay } from '@siteline/core';
import { deploymentSetup } from './engines.js';
import { CHROME_UA, command, serve, siteline } from './processes.js';

/**
 * The SQLite file on a real file system that fills up: a tmpfs of 8 MB mounted for the test
 * (which needs root; without it the test is skipped with this notice, and the http project's
 * disk-full.test.ts covers the same with SQLite's max_page_count). Beacons get 503 once
 * nothing more fits, an import is refused whole, reads keep answering; once space returns
 * both are accepted again, and the file is intact.
 */
const { dir, tls, stops } = deploymentSetup('disk-full', []);
const KEY = 'disk-full-test-key-0123456789abcdef0';
const mnt = join(dir, 'mnt');
mkdirSync(mnt);
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', mnt], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim() || 'mount failed';
  }
})();
if (mounted) console.warn(`SKIPPED the disk-full deployment test: cannot mount a tmpfs here (${mounted}); packages/http/src/collect/disk-full.test.ts covers it with max_page_count`);
afterAll(() => {
  if (!mounted) execFileSync('umount', ['-l', mnt]);
});

describe.skipIf(mounted !== undefined)('`siteline serve` with its SQLite file on a file system that fills up', () => {
  it('answers 503 for beacons and refuses an import while full, serves reads, and takes both once space returns; integrity_check ok, every 202 stored once', async () => {
    const file = join(mnt, 'siteline.db');
    const env = { DATABASE_URL: file, SERVICE_API_KEY: KEY, BEACONS_PER_MINUTE_PER_IP: '0' };
    await command(['sites', 'add', '--name', 'Full', '--id', 'ST-full', '--domain', 'full.example', '--timezone', 'UTC'], dir, env);
    const server = await serve(dir, env, tls);
    stops.push(() => server.stop());
    const agent = new https.Agent({ keepAlive: true, ca: readFileSync(tls.certFile), servername: 'localhost' });
    const post = (n: number) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ site_id: 'ST-full', type: 'pageview', url: `https://full.example/p${n}/${'x'.repeat(1500)}`, referrer: '' });
        https.request(`${server.origin}/collect`, { method: 'POST', agent, headers: { 'Content-Type': 'text/plain', 'User-Agent': `${CHROME_UA} v${n % 7}` } }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode!));
        }).on('error', reject).end(body);
      });
    const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ site_id: 'ST-full', type: 'pageview', ts: `2026-05-01T10:${String(i % 60).padStart(2, '0')}:00Z`, url: `/imported/${i}`, visitor_id: `v${i % 20}` }));
    writeFileSync(join(dir, 'events.ndjson'), `${lines.join('\n')}\n`);

    // Leave about 1 MB: a few dozen of these beacons fit (their commits grow the WAL), then none.
    const free = () => { const s = statfsSync(mnt); return s.bavail * s.bsize; };
    const filler = join(mnt, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 1024 * 1024)));
    const statuses: number[] = [];
    for (let n = 0; statuses.filter((s) => s === 503).length < 5; n++) {
      statuses.push(await post(n));
      if (n > 5000) throw new Error(`the disk never filled: ${free()} bytes free`);
    }
    const accepted = statuses.filter((s) => s === 202).length;
    expect(statuses.every((s) => s === 202 || s === 503)).toBe(true);
    expect(accepted).toBeGreaterThan(10); // each commit appends its pages to the WAL: tens of KB

    // While full: reads answer, from what was committed; an import is refused whole and says why.
    const today = localDay(Date.now(), 'UTC');
    const stats = await server.get(`/api/v1/stats?site_id=ST-full&from=${today}&to=${today}`, KEY);
    expect([stats.status, JSON.parse(stats.body).pageviews]).toEqual([200, accepted]);
    const refused = siteline(['import', 'events.ndjson'], dir, env);
    expect({ code: await refused.exited, stderr: refused.out.stderr }).toEqual({
      code: 1, stderr: "siteline: The database's disk is full; nothing was imported. Free some space and run the import again.\n",
    });

    // Space returns: taken again, without a restart.
    rmSync(filler);
    expect(await post(100_000)).toBe(202);
    await command(['import', 'events.ndjson'], dir, env);
    const after = await server.get(`/api/v1/stats?site_id=ST-full&from=2026-05-01&to=${today}`, KEY);
    expect(JSON.parse(after.body).pageviews).toBe(accepted + 1 + 200);
    expect(await server.stop()).toBe(0);
    agent.destroy();

    const db = new Database(file, { readonly: true });
    const counts = db.prepare("SELECT count(*) AS events, count(DISTINCT path) AS paths FROM events WHERE site_id = 'ST-full'").get();
    const integrity = db.pragma('integrity_check', { simple: true });
    db.close();
    expect({ counts, integrity }).toEqual({ counts: { events: accepted + 1 + 200, paths: accepted + 1 + 200 }, integrity: 'ok' });
    const log = `${server.out.stdout}${server.out.stderr}`;
    expect(log.split('\n').filter((line) => line.includes('"msg":"collect write failed; its beacons were answered 503"'))).toHaveLength(1);
  }, 180_000);
});
