import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay, openExport, parseExportQuery } from '@siteline/core';
import { clickhouseAvailable } from '../../packages/clickhouse/src/testing/test-server.js';
import { clickhouseServer, deploymentSetup } from './engines.js';
import { CHROME_UA, command, serve, siteline } from './processes.js';

/**
 * ClickHouse stopped for 30 s under a steady stream of beacons: the spool takes them (202)
 * while it has room (COLLECT_SPOOL_MB=1: about 300 of these beacons with 1.5 KB paths), then they are refused (503
 * with Retry-After), never a 500; once ClickHouse is back the spool drains in order and every
 * beacon answered 202 is stored once, and the reads show them. A second server on the same
 * spool directory is refused.
 */
const { dir, tls, stops } = deploymentSetup('outage', []);
const KEY = 'outage-test-key-0123456789abcdef01234';
const OUTAGE_MS = 30_000;
const VISITORS = 10;

describe.skipIf(!clickhouseAvailable)('`siteline serve` on ClickHouse while ClickHouse is stopped for 30 s', () => {
  it('no 5xx while the spool has room, then 503 with Retry-After; after the restart every accepted beacon stored once and shown; one server per spool directory', async () => {
    const engine = await clickhouseServer();
    stops.push(() => engine.server.stop());
    const spool = join(dir, 'spool');
    const env = { ...engine.env, SERVICE_API_KEY: KEY, BEACONS_PER_MINUTE_PER_IP: '0', COLLECT_SPOOL_DIR: spool, COLLECT_SPOOL_MB: '1' };
    await command(['sites', 'add', '--name', 'Outage', '--id', 'ST-out', '--domain', 'out.example'], dir, env);
    const server = await serve(dir, env, tls);
    stops.push(() => server.stop());

    // One server per spool directory: a second one on it refuses to start and says why.
    const second = siteline(['serve'], dir, { ...env, PORT: '0', TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile });
    expect(await second.exited).toBe(1);
    expect(second.out.stderr).toContain(`The spool directory ${spool} (COLLECT_SPOOL_DIR) is in use by another siteline process (pid ${server.child.pid} on`);

    // A steady stream, one beacon every 10 ms, each with a URL of its own, from VISITORS visitors in turn.
    const agent = new https.Agent({ keepAlive: true, ca: readFileSync(tls.certFile), servername: 'localhost' });
    const answers: { path: string; status: number; retryAfter?: string; phase: string }[] = [];
    let phase = 'before';
    let streaming = true;
    const post = (n: number) =>
      new Promise<void>((resolve) => {
        // 1.5 KB paths (as page, and as the session's entry page): the 1 MB spool fills within seconds.
        const path = `/b${n}/${'x'.repeat(1500)}`;
        const body = JSON.stringify({ site_id: 'ST-out', type: 'pageview', url: `https://out.example${path}`, referrer: '' });
        const req = https.request(`${server.origin}/collect`, { method: 'POST', agent, headers: { 'Content-Type': 'text/plain', 'User-Agent': `${CHROME_UA} v${n % VISITORS}` } }, (res) => {
          res.resume().on('end', () => {
            answers.push({ path, status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, phase });
            resolve();
          });
        });
        req.on('error', (error) => {
          answers.push({ path, status: 0, phase: `${phase}: ${error.message}` });
          resolve();
        }).end(body);
      });
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        await post(n);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    phase = 'outage';
    await engine.server.halt();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    phase = 'back';
    await engine.server.startAgain();
    // Drained: the server's own reads show every beacon answered 202 so far (and more keep coming).
    const today = localDay(Date.now(), 'UTC');
    const accepted = () => answers.filter((a) => a.status === 202).length;
    let shown = 0;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
      const wanted = accepted();
      const reply = await server.get(`/api/v1/stats?site_id=ST-out&from=${today}&to=${today}`, KEY);
      shown = reply.status === 200 ? (JSON.parse(reply.body) as { pageviews: number }).pageviews : 0;
      if (shown >= wanted) break;
    }
    streaming = false;
    await stream;
    const live = JSON.parse((await server.get('/api/v1/live?site_id=ST-out', KEY)).body) as { live: number };
    expect(await server.stop()).toBe(0);
    agent.destroy();

    const during = answers.filter((a) => a.phase === 'outage');
    console.log(`outage: ${answers.length} beacons; during the outage ${during.length}, of them ${during.filter((a) => a.status === 202).length} answered 202; shown ${shown}`);
    const firstRefused = during.findIndex((a) => a.status !== 202);
    expect(answers.filter((a) => a.status !== 202 && a.status !== 503)).toEqual([]); // no 5xx but 503, no error
    expect(firstRefused).toBeGreaterThan(100); // the spool took beacons for a good while
    expect(during.slice(firstRefused).every((a) => a.status === 503 && a.retryAfter === '5')).toBe(true); // then refused, none kept behind the client's back
    expect(answers.filter((a) => a.phase === 'before').every((a) => a.status === 202)).toBe(true);
    // Once ClickHouse is back, the spool is full until its first insert (within the 5 s retry): then 202 again, for good.
    const back = answers.filter((a) => a.phase === 'back');
    const takenAgain = back.findIndex((a) => a.status === 202);
    expect(takenAgain).toBeGreaterThanOrEqual(0);
    expect(back.slice(takenAgain).every((a) => a.status === 202)).toBe(true);
    expect(shown).toBeGreaterThanOrEqual(answers.filter((a) => a.status === 202 && a.phase !== 'back').length);
    expect(live).toEqual({ live: VISITORS });

    const backend = await engine.open();
    const stored = new Map<string, number>();
    for await (const chunk of (await openExport(backend.storage, parseExportQuery({ site_id: 'ST-out', from: today, to: today }))).chunks) {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const { url } = JSON.parse(line) as { url: string };
        stored.set(url, (stored.get(url) ?? 0) + 1);
      }
    }
    await backend.close();
    const accept = answers.filter((a) => a.status === 202).map((a) => a.path).sort();
    expect([...stored.keys()].sort()).toEqual(accept);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);

    // Logged once per outage: when it started and when it ended (and the spool's filling up, once).
    const log = `${server.out.stdout}${server.out.stderr}`;
    const count = (msg: string) => log.split('\n').filter((line) => line.includes(`"msg":"${msg}"`)).length;
    expect({
      refused: count('collect: the store refused the spool\'s insert; beacons are kept in the spool until it takes them'),
      back: count('collect: the store takes the spool\'s inserts again'),
      full: count('collect: the spool is full (COLLECT_SPOOL_MB); beacons answered 503 until the store takes spooled ones'),
    }).toEqual({ refused: 1, back: 1, full: 1 });
    console.log(`outage: ${answers.length} beacons, ${accept.length} answered 202 (${during.filter((a) => a.status === 202).length} during the outage), ${answers.length - accept.length} answered 503`);
  }, 240_000);
});
