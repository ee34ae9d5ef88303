import type { Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SitelineClient } from './client.js';
import type { Fetch } from './options.js';
import { alphaStorage, apiHandler, httpsFetch, KEY, listen, selfSignedCert, type TestServer } from './test-support.js';

/** Every endpoint against the real handler over HTTPS on loopback. */
describe('createClient over real HTTPS', () => {
  let storage: Storage;
  let server: TestServer;
  let fetch: Fetch;
  let client: SitelineClient;
  const alpha = { site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03' } as const;

  /** The same query sent by hand, to compare with the client's answer. */
  const raw = async (path: string, query: Record<string, string>) => {
    const url = `${server.baseUrl}${path}?${new URLSearchParams(query)}`;
    const response = await fetch(url, { method: 'GET', headers: { Authorization: `Bearer ${KEY}` }, signal: new AbortController().signal });
    expect(response.status).toBe(200);
    return JSON.parse(await response.text()) as unknown;
  };

  beforeAll(async () => {
    const tls = selfSignedCert();
    storage = await alphaStorage();
    server = await listen(apiHandler({ storage }), tls);
    fetch = httpsFetch(tls.cert);
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch });
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
  });

  it('returns the conformance numbers for /stats', async () => {
    expect(await client.stats(alpha)).toEqual({ visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 });
    expect(await client.stats({ ...alpha, to: '2026-11-02' })).toEqual({ visitors: 3, pageviews: 6, sessions: 4, bounce_rate: 25, avg_duration: 352.5 });
  });

  it('every method returns what the server returns for the same query', async () => {
    const cases = [
      [client.stats(alpha), '/stats', alpha],
      [client.timeseries(alpha), '/stats/timeseries', alpha],
      [client.pages({ ...alpha, limit: 2 }), '/pages', { ...alpha, limit: '2' }],
      [client.referrers(alpha), '/referrers', alpha],
      [client.channels(alpha), '/channels', alpha],
      [client.locations(alpha), '/locations', alpha],
      [client.devices({ ...alpha, breakdown: 'os' }), '/devices', { ...alpha, breakdown: 'os' }],
      [client.events({ ...alpha, name: 'signup' }), '/events', { ...alpha, name: 'signup' }],
      [client.campaigns(alpha), '/campaigns', alpha],
      [client.live({ site_id: 'ST-alpha' }), '/live', { site_id: 'ST-alpha' }],
    ] as const;
    for (const [call, path, query] of cases) expect(await call, path).toEqual(await raw(path, query));
  });

  it('spot-checks exact rows', async () => {
    expect(await client.pages({ ...alpha, limit: 1 })).toEqual({ pages: [{ url: '/docs', pageviews: 3, visitors: 3, bounce_rate: 0, avg_duration: 10 }] });
    const devices = await client.devices({ ...alpha, breakdown: 'browser' });
    expect(devices.breakdown).toBe('browser');
    expect(devices.devices.map((d) => `${d.name}:${d.visitors}`)).toEqual(['Chrome:2', 'Firefox:1', 'Safari:1', 'Unknown:1']);
    expect(await client.events(alpha)).toEqual({ events: [{ name: 'download', count: 1 }, { name: 'signup', count: 1 }] });
    expect(await client.campaigns(alpha)).toEqual({ campaigns: [{ source: 'newsletter', medium: 'email', campaign: 'nov', visitors: 1, sessions: 1 }] });
    expect((await client.timeseries(alpha)).timeseries.map((row) => row.pageviews)).toEqual([6, 3]);
    expect(await client.live({ site_id: 'ST-alpha' })).toEqual({ live: 1 });
  });

  it('csv() returns the CSV text of a report, as the server sends it; errors are the usual typed errors', async () => {
    expect(await client.csv('pages', { ...alpha, limit: 2 })).toBe(
      'url,pageviews,visitors,bounce_rate,avg_duration\r\n/docs,3,3,0,10\r\n/pricing,3,3,50,75\r\n',
    );
    expect(server.hits.at(-1)!.url).toBe('/api/v1/pages?site_id=ST-alpha&from=2026-11-02&to=2026-11-03&limit=2&format=csv');
    expect(await client.csv('stats', { ...alpha, to: '2026-11-02' })).toBe(
      'visitors,pageviews,sessions,bounce_rate,avg_duration\r\n3,6,4,25,352.5\r\n',
    );
    // /goals and /properties too (ST-alpha has no goals, and its signup carries no properties: the header alone).
    expect(await client.csv('goals', alpha)).toBe('goal,visitors,conversions,conversion_rate\r\n');
    expect(await client.csv('properties', { ...alpha, name: 'signup' })).toBe('name,property,count,visitors\r\n');
    expect(server.hits.at(-1)!.url).toBe('/api/v1/properties?site_id=ST-alpha&from=2026-11-02&to=2026-11-03&name=signup&format=csv');
    await expect(client.csv('pages', { site_id: 'ST-nope' })).rejects.toMatchObject({ name: 'NotFoundError', status: 404, message: 'Site not found.' });
    await expect(client.csv('pages', { ...alpha, limit: 500 })).rejects.toMatchObject({ status: 422, message: 'The limit field must be between 1 and 100.' });
  });

  it('export() returns the NDJSON of GET /export; import lines, one per event', async () => {
    const text = await client.export(alpha);
    expect(server.hits.at(-1)!.url).toBe('/api/v1/export?site_id=ST-alpha&from=2026-11-02&to=2026-11-03');
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines).toHaveLength(11); // the ALPHA dataset's 11 lines
    expect(lines[0]).toMatchObject({ site_id: 'ST-alpha', ts: '2026-11-02T10:00:00.000Z', type: 'pageview', url: '/', visitor_id: 'v1', utm_campaign: 'nov' });
    await expect(client.export({ site_id: 'ST-alpha', from: '2026-11-03' })).rejects.toMatchObject({ status: 422, message: 'The to field is required when from is present.' });
  });

  it('sends the key only as a Bearer header, encodes numbers and drops undefined', async () => {
    const before = server.hits.length;
    await client.pages({ site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03', limit: 5, period: undefined });
    const hit = server.hits[before]!;
    expect(hit.url).toBe('/api/v1/pages?site_id=ST-alpha&from=2026-11-02&to=2026-11-03&limit=5');
    expect(hit.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.hits.every((h) => !h.url!.includes(KEY) && !h.url!.includes('api_key'))).toBe(true);
  });

  it('accepts a base URL with a trailing slash', async () => {
    const slashed = createClient({ baseUrl: `${server.baseUrl}/`, apiKey: KEY, fetch });
    expect(await slashed.live({ site_id: 'ST-alpha' })).toEqual({ live: 1 });
    expect(server.hits.at(-1)!.url).toBe('/api/v1/live?site_id=ST-alpha');
  });
});
