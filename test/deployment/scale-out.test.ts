import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_PATHS, type EndpointName, getPages, localDay, parseQuery } from '@siteline/core';
import { deploymentSetup, type Engine } from './engines.js';
import { CHROME_UA, command, serve, type Served } from './processes.js';

/**
 * Two `siteline serve` processes on one ClickHouse database (one server, and a two-shard
 * cluster with each process on another node), as behind a load balancer: the same answers,
 * every beacon counted once, a revocation made anywhere refused everywhere.
 */
const { dir, tls, stops, engines } = deploymentSetup('scale-out', ['ClickHouse', 'ClickHouse two shards']);

describe.each(engines)('two server processes on %s', (_name, make) => {
  let engine: Engine;
  let a: Served;
  let b: Served;
  let key = '';
  let keyId = '';
  let account = '';
  // Each process has a spool directory of its own (one owner each), as two servers on one machine must.
  const cloud = (node: number) => ({ ...engine.envVia(node), EDITION: 'cloud', COLLECT_SPOOL_DIR: join(dir, `spool-${engine.name}-${node}`) });
  /** Both processes' last log lines: a failure's message shows why a request failed. */
  const logs = () => `siteline serve A:\n${a.out.stderr.slice(-4000)}\nsiteline serve B:\n${b.out.stderr.slice(-4000)}`;
  /** Stops both processes (each writes its buffered beacons on SIGTERM) and starts them again. */
  const restart = async () => {
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    [a, b] = await Promise.all([serve(dir, cloud(0), tls), serve(dir, cloud(1), tls)]);
    stops.push(() => a.stop(), () => b.stop());
  };

  beforeAll(async () => {
    engine = await make('scale-out');
    account = /acct_[a-z0-9]{16}/.exec((await command(['accounts', 'add', '--name', 'Acme'], dir, cloud(0))).stdout)![0];
    await command(['sites', 'add', '--name', 'Shop', '--id', 'ST-shop', '--domain', 'shop.example', '--account', account], dir, cloud(0));
    await command(['sites', 'add', '--name', 'Routed', '--id', 'ST-route', '--domain', 'route.example'], dir, cloud(1));
    const created = await command(['keys', 'create', '--account', account, '--name', 'reporting'], dir, cloud(1));
    key = created.stdout.trim();
    keyId = /key_[a-z0-9]{12}/.exec(created.stderr)![0];
    [a, b] = await Promise.all([serve(dir, cloud(0), tls), serve(dir, cloud(1), tls)]);
    stops.push(() => a.stop(), () => b.stop());
  });

  it('count every beacon once, whichever process took it, and answer every endpoint with the same JSON', async () => {
    // 40 visitors (distinct user agents), one pageview each, alternately to each process.
    const statuses = [];
    for (let i = 0; i < 40; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push(await server.beacon({ site_id: 'ST-shop', type: 'pageview', url: `https://shop.example/p${i % 4}`, referrer: '' }, `${CHROME_UA} v${i}`));
    }
    expect(statuses).toEqual(Array(40).fill(202));
    await restart();

    const backend = await engine.open();
    const today = localDay(Date.now(), 'UTC');
    const { pages } = await getPages(backend.storage, parseQuery('pages', { site_id: 'ST-shop', from: today, to: today }));
    await backend.close();
    expect(pages.map((p) => [p.url, p.pageviews, p.visitors])).toEqual([['/p0', 10, 10], ['/p1', 10, 10], ['/p2', 10, 10], ['/p3', 10, 10]]);

    for (const endpoint of Object.keys(ENDPOINT_PATHS) as EndpointName[]) {
      const own = endpoint === 'properties' ? '&name=Signup' : endpoint === 'funnels' ? `&steps=${encodeURIComponent('[{"page":"/p0"},{"page":"/p*"}]')}` : '';
      const path = `/api/v1${ENDPOINT_PATHS[endpoint]}?site_id=ST-shop${endpoint === 'live' ? '' : `&from=${today}&to=${today}`}${own}`;
      const [fromA, fromB] = await Promise.all([a.get(path, key), b.get(path, key)]);
      expect(fromA.status, logs()).toBe(200);
      expect(fromB, logs()).toEqual(fromA);
    }
    const stats = JSON.parse((await a.get(`/api/v1/stats?site_id=ST-shop&from=${today}&to=${today}`, key)).body);
    expect(stats).toMatchObject({ visitors: 40, pageviews: 40, sessions: 40, bounce_rate: 100 });
  });

  it('the routing rule: a visitor whose beacons all reach one process has one session; split over two, two', async () => {
    const page = (path: string) => ({ site_id: 'ST-route', type: 'pageview', url: `https://route.example${path}`, referrer: '' });
    // Visitor "kept": both pageviews through A, as client-IP affinity routes them. Visitor "split": one through each.
    expect(await a.beacon(page('/kept-1'), `${CHROME_UA} kept`)).toBe(202);
    expect(await a.beacon(page('/kept-2'), `${CHROME_UA} kept`)).toBe(202);
    expect(await a.beacon(page('/split-1'), `${CHROME_UA} split`)).toBe(202);
    expect(await b.beacon(page('/split-2'), `${CHROME_UA} split`)).toBe(202);
    await restart();
    const backend = await engine.open();
    const today = localDay(Date.now(), 'UTC');
    const { pages } = await getPages(backend.storage, parseQuery('pages', { site_id: 'ST-route', from: today, to: today }));
    await backend.close();
    // bounce_rate of a page is over the sessions entering on it: /kept-2 and /split-1 are no entries; /split-2 is, as a bounce.
    expect(pages.map((p) => [p.url, p.pageviews, p.bounce_rate])).toEqual([['/kept-1', 1, 0], ['/kept-2', 1, 0], ['/split-1', 1, 100], ['/split-2', 1, 100]]);
  });

  it('properties and goals: beacons with props through either process, goals added by the command on either node, the same exact answers', async () => {
    await command(['sites', 'add', '--name', 'Props', '--id', 'ST-props', '--domain', 'props.example', '--account', account], dir, cloud(0));
    expect((await command(['goals', 'add', '--site', 'ST-props', '--event', 'Signup'], dir, cloud(0))).stdout).toBe('Added goal "Signup" to ST-props.\n');
    expect((await command(['goals', 'add', '--site', 'ST-props', '--page', '/thanks*'], dir, cloud(1))).stdout).toBe('Added goal "Visit /thanks*" to ST-props.\n');
    const odd = "Pro 'x' \\ \t%_*";
    // Six visitors, each through one process (alternately): a pageview of /pricing; v0-v3 a Signup with a plan; v0 and v1 then /thanks/done.
    const plans = ['pro', 'pro', 'free', odd];
    for (let v = 0; v < 6; v++) {
      const server = v % 2 === 0 ? a : b;
      const ua = `${CHROME_UA} props${v}`;
      const at = (path: string) => ({ site_id: 'ST-props', type: 'pageview', url: `https://props.example${path}`, referrer: '' });
      expect(await server.beacon(at('/pricing'), ua)).toBe(202);
      if (v < 4) expect(await server.beacon({ ...at('/pricing'), type: 'event', name: 'Signup', props: { plan: plans[v], seats: v + 1, coupon: null } }, ua)).toBe(202);
      if (v < 2) expect(await server.beacon(at('/thanks/done'), ua)).toBe(202);
    }
    await restart();
    const today = localDay(Date.now(), 'UTC');
    const range = `site_id=ST-props&from=${today}&to=${today}`;
    const both = async (path: string) => {
      const [fromA, fromB] = await Promise.all([a.get(path, key), b.get(path, key)]);
      expect(fromB, logs()).toEqual(fromA);
      expect(fromA.status, logs()).toBe(200);
      return JSON.parse(fromA.body) as unknown;
    };
    expect(await both(`/api/v1/properties?${range}&name=Signup`)).toEqual({
      name: 'Signup', properties: [{ property: 'plan', count: 4, visitors: 4 }, { property: 'seats', count: 4, visitors: 4 }],
    });
    // Exactly as sent; byte order puts "Pro ..." before "free".
    expect(await both(`/api/v1/properties?${range}&name=Signup&property=plan`)).toEqual({
      name: 'Signup', property: 'plan',
      values: [{ value: 'pro', count: 2, visitors: 2 }, { value: odd, count: 1, visitors: 1 }, { value: 'free', count: 1, visitors: 1 }],
    });
    // Six visitors: Signup 4 (66.7 %), /thanks* 2 (33.3 %).
    expect(await both(`/api/v1/goals?${range}`)).toEqual({
      goals: [
        { goal: 'Signup', visitors: 4, conversions: 4, conversion_rate: 66.7 },
        { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 33.3 },
      ],
    });
    const filters = encodeURIComponent(JSON.stringify([['is', 'prop:plan', ['pro']], ['is', 'goal', ['Visit /thanks*']]]));
    expect(await both(`/api/v1/stats?${range}&filters=${filters}`)).toMatchObject({ visitors: 2, pageviews: 4, sessions: 2 });
  });

  it('a key revoked through one process is refused by both', async () => {
    expect((await a.get('/api/v1/live?site_id=ST-shop', key)).status).toBe(200);
    expect((await b.get('/api/v1/live?site_id=ST-shop', key)).status).toBe(200);
    await command(['keys', 'revoke', '--account', account, '--key', keyId], dir, cloud(0));
    expect(await a.get('/api/v1/live?site_id=ST-shop', key)).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
    expect(await b.get('/api/v1/live?site_id=ST-shop', key)).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
  });
});
