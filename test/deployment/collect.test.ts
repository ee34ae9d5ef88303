import { readFileSync } from 'node:fs';
import https from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { getPages, getStats, localDay, parseQuery } from '@siteline/core';
import { deploymentSetup, type Engine } from './engines.js';
import { CHROME_UA, command, serve } from './processes.js';

const { dir, tls, stops, engines } = deploymentSetup('collect', ['SQLite', 'ClickHouse']);
const KEY = 'deployment-test-key-0123456789abcdef';
describe.each(engines)('collection by `siteline serve` on %s', (_name, make) => {
  let engine: Engine;
  const env = () => ({ ...engine.env, SERVICE_API_KEY: KEY });
  const today = () => localDay(Date.now(), 'UTC');

  beforeAll(async () => {
    engine = await make('collect');
    await command(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog', '--domain', 'blog.example'], dir, env());
  });

  it('keeps the day\'s salt across a restart: the same person is one visitor before and after', async () => {
    const page = (path: string) => ({ site_id: 'ST-blog', type: 'pageview', url: `https://blog.example${path}`, referrer: '' });
    const first = await serve(dir, env(), tls);
    expect(await first.beacon(page('/before-restart'))).toBe(202);
    expect(await first.stop()).toBe(0);
    const second = await serve(dir, env(), tls);
    stops.push(() => second.stop());
    expect(await second.beacon(page('/after-restart'))).toBe(202);
    expect(await second.stop()).toBe(0);
    const backend = await engine.open();
    const query = (endpoint: 'stats' | 'pages') => parseQuery(endpoint, { site_id: 'ST-blog', from: today(), to: today() });
    const { pages } = await getPages(backend.storage, query('pages'));
    const stats = await getStats(backend.storage, query('stats'));
    await backend.close();
    expect(pages.map((p) => p.url).sort()).toEqual(['/after-restart', '/before-restart']);
    // A new salt after the restart would make two visitors; the restart does end the session in progress.
    expect(stats).toMatchObject({ visitors: 1, pageviews: 2, sessions: 2 });
  });

  it('writes every accepted beacon when stopped by SIGTERM in the middle of a burst', async () => {
    const server = await serve(dir, env(), tls);
    stops.push(() => server.stop());
    const ca = readFileSync(tls.certFile);
    const agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca, servername: 'localhost' });
    const body = JSON.stringify({ site_id: 'ST-blog', type: 'pageview', url: 'https://blog.example/burst', referrer: '' });
    const post = (i: number) =>
      new Promise<number>((resolve) => {
        const req = https.request(`${server.origin}/collect`, { method: 'POST', agent, headers: { 'Content-Type': 'text/plain', 'User-Agent': `${CHROME_UA} b${i}` } }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode!));
        });
        req.on('error', () => resolve(0)).end(body); // refused or reset once the server has stopped: not accepted
      });
    let accepted = 0;
    let signalled = false;
    const burst = Array.from({ length: 600 }, async (_, i) => {
      const status = await post(i);
      if (status === 202) accepted++;
      if (accepted >= 150 && !signalled) {
        signalled = true;
        server.child.kill('SIGTERM'); // mid-burst: hundreds still queued or in flight
      }
      return status;
    });
    const statuses = await Promise.all(burst);
    expect(await server.exited).toBe(0);
    agent.destroy();
    // Every request was either accepted (202), refused while closing (503) or never reached a listener (0).
    expect(statuses.every((s) => s === 202 || s === 503 || s === 0)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(150);
    expect(accepted).toBeLessThan(600);
    const backend = await engine.open();
    const { pages } = await getPages(backend.storage, parseQuery('pages', { site_id: 'ST-blog', from: today(), to: today(), limit: '100' }));
    await backend.close();
    // Every 202 was stored. A 503 comes before a beacon is queued, so none of those was. A beacon
    // may be stored and its 202 still lost: the closing server drops a keep-alive connection on
    // which the client had already sent its next request, and the reset can take the answer in
    // flight with it (the client sees an error, status 0 here). At most those come on top.
    const stored = pages.find((p) => p.url === '/burst')?.pageviews ?? 0;
    const unanswered = statuses.filter((s) => s === 0).length;
    expect(stored).toBeGreaterThanOrEqual(accepted);
    expect(stored).toBeLessThanOrEqual(accepted + unanswered);
  });
});
