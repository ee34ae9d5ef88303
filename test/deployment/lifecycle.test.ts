import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPages, getStats, localDay, parseQuery } from '@siteline/core';
import { deploymentSetup, sqliteEngine } from './engines.js';
import { CHROME_UA, command, serve, siteline } from './processes.js';

/**
 * Start, use and stop the product many times over, on the Node.js that runs the suite (CI runs
 * it on every supported version). A native module that crashes the process at exit one time in
 * five (better-sqlite3 12.x on Node 24 did, from its collector thread) fails one of 8 runs with
 * probability 1 - 0.8^8 = 83% in each test that starts a server (two of the three).
 */
const RUNS = 8;
const { dir, tls, stops } = deploymentSetup('lifecycle', ['SQLite']);
const KEY = 'lifecycle-test-key-0123456789abcdef';
const make = (name: string) => sqliteEngine(join(dir, `${name}.db`));
const today = () => localDay(Date.now(), 'UTC');

describe(`${RUNS} starts and stops on SQLite, Node ${process.versions.node}`, () => {
  it('`siteline serve`: beacons while it runs, then SIGTERM with some in flight; every run exits 0 and stores every accepted beacon', async () => {
    const engine = make('serve');
    const env = { ...engine.env, SERVICE_API_KEY: KEY };
    await command(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog', '--domain', 'blog.example'], dir, env);
    const ca = readFileSync(tls.certFile);
    const accepted: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const server = await serve(dir, env, tls);
      stops.push(() => server.stop());
      const body = JSON.stringify({ site_id: 'ST-blog', type: 'pageview', url: `https://blog.example/run-${run}`, referrer: '' });
      const post = (i: number) =>
        new Promise<number>((resolve) => {
          const req = https.request(`${server.origin}/collect`, {
            method: 'POST', ca, servername: 'localhost', agent: false,
            headers: { 'Content-Type': 'text/plain', 'User-Agent': `${CHROME_UA} r${run}v${i}` },
          }, (res) => res.resume().on('end', () => resolve(res.statusCode!)));
          req.on('error', () => resolve(0)).end(body); // refused once the server has stopped listening: not accepted
        });
      // 20 beacons answered while the server runs, then 20 more sent as SIGTERM arrives.
      const before = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i)));
      const during = Array.from({ length: 20 }, (_, i) => post(20 + i));
      server.child.kill('SIGTERM');
      const statuses = [...before, ...(await Promise.all(during))];
      expect({ run, code: await server.exited, stderr: server.out.stderr }).toEqual({ run, code: 0, stderr: '' });
      expect(before.every((s) => s === 202)).toBe(true);
      expect(statuses.every((s) => s === 202 || s === 503 || s === 0)).toBe(true);
      accepted.push(statuses.filter((s) => s === 202).length);
    }
    const backend = await engine.open();
    const { pages } = await getPages(backend.storage, parseQuery('pages', { site_id: 'ST-blog', from: today(), to: today(), limit: '100' }));
    await backend.close();
    const stored = Array.from({ length: RUNS }, (_, run) => pages.find((p) => p.url === `/run-${run}`)?.pageviews ?? 0);
    expect(stored).toEqual(accepted);
  }, 300_000);

  it('`siteline import`: every run exits 0 and stores the whole file', async () => {
    const cwd = join(dir, 'import');
    mkdirSync(cwd);
    // 50 visitors with 4 pageviews each, a minute apart: 200 pageviews in 50 sessions on 2026-05-01.
    const lines = Array.from({ length: 200 }, (_, i) => {
      const visitor = Math.floor(i / 4);
      const minute = String(i % 4).padStart(2, '0');
      return JSON.stringify({ site_id: 'ST-blog', type: 'pageview', ts: `2026-05-01T${String(8 + (visitor % 10)).padStart(2, '0')}:${minute}:00Z`, url: `/p${i % 4}`, visitor_id: `v${visitor}` });
    });
    writeFileSync(join(cwd, 'events.ndjson'), `${lines.join('\n')}\n`);
    for (let run = 0; run < RUNS; run++) {
      const engine = make(`import-${run}`);
      await command(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog'], cwd, engine.env);
      const imported = siteline(['import', 'events.ndjson'], cwd, engine.env);
      expect({ run, code: await imported.exited, stderr: imported.out.stderr }).toEqual({ run, code: 0, stderr: '' });
      expect(imported.out.stdout).toMatch(/^Imported 200 events \(200 pageviews, 0 custom events\) in 50 sessions for ST-blog in \d+\.\d s\.\n$/);
      const backend = await engine.open();
      const stats = await getStats(backend.storage, parseQuery('stats', { site_id: 'ST-blog', from: '2026-05-01', to: '2026-05-01' }));
      await backend.close();
      expect({ run, ...stats }).toMatchObject({ run, visitors: 50, pageviews: 200, sessions: 50 });
    }
  }, 300_000);

  it('`siteline start` (the demo): every run adds the demo site, answers, and exits 0 on SIGTERM', async () => {
    for (let run = 0; run < RUNS; run++) {
      const cwd = join(dir, `start-${run}`);
      mkdirSync(cwd);
      const engine = make(`start-${run}`);
      const started = siteline(['start'], cwd, { ...engine.env, PORT: '0', HOST: '127.0.0.1' });
      stops.push(async () => (started.child.kill('SIGTERM'), started.exited));
      const [, pageviews] = await started.waitFor('stderr', /^Added ST-demo \("Demo"\): ([\d,]+) pageviews/m, 60_000);
      await started.waitFor('stderr', /^ {2}curl .+$/m, 60_000);
      started.child.kill('SIGTERM');
      expect({ run, code: await started.exited }).toEqual({ run, code: 0 });
      const backend = await engine.open();
      const { pages } = await getPages(backend.storage, parseQuery('pages', { site_id: 'ST-demo', period: '30d', limit: '100' }));
      // The demo site's own days (Europe/Berlin): its today runs ahead of UTC's in the last hour or two before UTC midnight.
      const demoDay = (ms: number) => localDay(ms, 'Europe/Berlin');
      const stats = await getStats(backend.storage, parseQuery('stats', { site_id: 'ST-demo', from: demoDay(Date.now() - 90 * 86_400_000), to: demoDay(Date.now()) }));
      await backend.close();
      expect(pages.length).toBeGreaterThan(0);
      expect(stats.pageviews).toBe(Number(pageviews!.replaceAll(',', '')));
    }
  }, 300_000);
});
