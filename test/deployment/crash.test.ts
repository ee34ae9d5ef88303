import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getStats, localDay, openExport, parseExportQuery, parseQuery } from '@siteline/core';
import { deploymentSetup } from './engines.js';
import { CHROME_UA, command, serve, type Served } from './processes.js';

/**
 * 202 means stored: `siteline serve` is killed with SIGKILL at a random moment while several
 * clients post beacons at once, then started again, round after round; at the end every
 * beacon that was answered 202 is stored exactly once. Each beacon has a URL of its own
 * (`/r<round>/c<client>/b<n>`), so a lost one and a doubled one are both visible.
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const CLIENTS = 4;
const { dir, tls, stops, engines } = deploymentSetup('crash', ['SQLite', 'ClickHouse']);
const KEY = 'crash-test-key-0123456789abcdef0123';

/** Each client posts beacons one after another on a keep-alive connection until the server is gone. */
async function client(server: Served, round: number, id: number, accepted: Set<string>, sent: Set<string>, agent: https.Agent, answered: () => void): Promise<void> {
  for (let n = 0; ; n++) {
    const path = `/r${round}/c${id}/b${n}`;
    const body = JSON.stringify({ site_id: 'ST-crash', type: 'pageview', url: `https://crash.example${path}`, referrer: '' });
    sent.add(path);
    const status = await new Promise<number>((resolve) => {
      const req = https.request(`${server.origin}/collect`, {
        method: 'POST', agent, headers: { 'Content-Type': 'text/plain', 'User-Agent': `${CHROME_UA} r${round}c${id}` },
      }, (res) => res.resume().on('end', () => resolve(res.statusCode!)).on('error', () => resolve(0)));
      req.on('error', () => resolve(0)).end(body); // reset or refused: the server is gone, nothing was promised
    });
    if (status === 202) {
      accepted.add(path);
      answered();
    } else if (status === 0) return;
    else throw new Error(`beacon ${path} answered ${status}`);
  }
}

describe.each(engines)('`siteline serve` killed with SIGKILL on %s', (name, make) => {
  it(`${ROUNDS} rounds of ${CLIENTS} clients posting at once, SIGKILL at a random moment, restart: every beacon answered 202 is stored once`, async () => {
    const engine = await make('crash');
    // Small, frequent writes (ClickHouse: an insert from the spool every 10 ms), so kills land in the middle of them too.
    const env = {
      ...engine.env, SERVICE_API_KEY: KEY, BEACONS_PER_MINUTE_PER_IP: '0', COLLECT_SPOOL_DIR: join(dir, `spool-${name}`),
      COLLECT_BATCH_EVENTS: '40', COLLECT_BATCH_MS: '10',
    };
    await command(['sites', 'add', '--name', 'Crash', '--id', 'ST-crash', '--domain', 'crash.example'], dir, env);
    const ca = readFileSync(tls.certFile);
    const accepted = new Set<string>();
    const sent = new Set<string>();
    const kills: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = await serve(dir, env, tls);
      stops.push(async () => (server.child.kill('SIGKILL'), server.exited));
      const agent = new https.Agent({ keepAlive: true, ca, servername: 'localhost' });
      let answered = () => {};
      const first = new Promise<void>((resolve) => (answered = resolve));
      const running = Array.from({ length: CLIENTS }, (_, id) => client(server, round, id, accepted, sent, agent, answered));
      // Anywhere from before the first answer to well into the stream (a few hundred beacons): odd rounds count the
      // delay from the start, even ones from the round's first 202, so at least half the rounds store something
      // however slow the machine is.
      const delay = Math.floor(Math.random() * 400);
      kills.push(delay);
      if (round % 2 === 0) await Promise.race([first, Promise.all(running)]);
      await new Promise((resolve) => setTimeout(resolve, delay));
      server.child.kill('SIGKILL');
      await Promise.all(running);
      await server.exited;
      agent.destroy();
    }
    // The last round's beacons are replayed by the next start (ClickHouse's spool) like every other round's.
    const last = await serve(dir, env, tls);
    stops.push(() => last.stop());
    expect(await last.stop()).toBe(0);

    const backend = await engine.open();
    const today = localDay(Date.now(), 'UTC');
    const yesterday = localDay(Date.now() - 86_400_000, 'UTC');
    const stored = new Map<string, number>();
    const { chunks } = await openExport(backend.storage, parseExportQuery({ site_id: 'ST-crash', from: yesterday, to: today }));
    for await (const chunk of chunks) {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const { url } = JSON.parse(line) as { url: string };
        stored.set(url, (stored.get(url) ?? 0) + 1);
      }
    }
    const stats = await getStats(backend.storage, parseQuery('stats', { site_id: 'ST-crash', from: yesterday, to: today }));
    await backend.close();

    const lost = [...accepted].filter((path) => !stored.has(path));
    const doubled = [...stored].filter(([, n]) => n > 1).map(([path]) => path);
    const unknown = [...stored.keys()].filter((path) => !sent.has(path));
    expect({ lost, doubled, unknown }).toEqual({ lost: [], doubled: [], unknown: [] });
    // A beacon stored but not answered (killed between the commit and the answer) is fine; the rounds must have posted
    // for real: every even round waited for its first 202 before its kill.
    expect(accepted.size).toBeGreaterThanOrEqual(Math.ceil(ROUNDS / 2));
    // The reports agree with the raw rows: one visitor and one session per client and round that stored anything.
    const pairs = new Set([...stored.keys()].map((path) => path.split('/').slice(1, 3).join('/')));
    expect(stats).toMatchObject({ pageviews: stored.size, visitors: pairs.size, sessions: pairs.size });
    console.log(`${name}: ${accepted.size} beacons answered 202, ${stored.size} stored, of ${sent.size} sent; kills after ${kills.join(', ')} ms`);
  }, 900_000);
});
