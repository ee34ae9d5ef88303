import { createSite, createSqliteStorage, importEvents, type Storage } from '@siteline/core';
import { EXT, ndjson } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SitelineClient } from './client.js';
import { ValidationError } from './errors.js';
import { apiHandler, httpsFetch, KEY, listen, selfSignedCert, type TestServer } from './test-support.js';

/** filters, compare and interval through the SDK, against the real handler over HTTPS (numbers: conformance-extensions.ts). */
describe('the SDK with filters, compare and interval', () => {
  let storage: Storage;
  let server: TestServer;
  let client: SitelineClient;
  const ext = { site_id: 'ST-ext', from: '2026-11-10', to: '2026-11-11' } as const;

  beforeAll(async () => {
    const tls = selfSignedCert();
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-ext', name: 'Extensions', timezone: 'UTC' });
    await importEvents(storage, ndjson(EXT));
    server = await listen(apiHandler({ storage }), tls);
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: httpsFetch(tls.cert) });
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
  });

  it('encodes filters as the JSON text the API reads and returns the comparison', async () => {
    const before = server.hits.length;
    const stats = await client.stats({ ...ext, filters: [['is', 'country', ['DE', 'AT']]], compare: 'previous_period' });
    expect(stats).toEqual({
      visitors: 4, pageviews: 7, sessions: 4, bounce_rate: 25, avg_duration: 337.5,
      comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 },
    });
    const url = new URL(server.hits[before]!.url!, 'https://x');
    expect(url.searchParams.get('filters')).toBe('[["is","country",["DE","AT"]]]');
    expect(url.searchParams.get('compare')).toBe('previous_period');
  });

  it('list rows carry comparison; interval buckets; no comparison without compare', async () => {
    const { referrers } = await client.referrers({ ...ext, compare: 'previous_period' });
    expect(referrers).toEqual([
      { source: 'Direct / None', visitors: 4, sessions: 4, comparison: { visitors: 1, sessions: 1 } },
      { source: 'google.com', visitors: 2, sessions: 2, comparison: { visitors: 1, sessions: 1 } },
    ]);
    const weeks = await client.timeseries({ site_id: 'ST-ext', from: '2026-10-28', to: '2026-11-11', interval: 'week' });
    expect(weeks).toEqual({
      timeseries: [
        { date: '2026-10-26', visitors: 1, pageviews: 1, sessions: 1 },
        { date: '2026-11-02', visitors: 1, pageviews: 2, sessions: 1 },
        { date: '2026-11-09', visitors: 7, pageviews: 11, sessions: 7 },
      ],
    });
    expect(await client.events({ ...ext, filters: [['is', 'event', ['download']]] })).toEqual({ events: [{ name: 'download', count: 1 }] });
    expect(Object.keys(await client.stats(ext))).toEqual(['visitors', 'pageviews', 'sessions', 'bounce_rate', 'avg_duration']);
  });

  it('a bad filter is a ValidationError with the spec\'s message', async () => {
    const tooMany = Array.from({ length: 11 }, () => ['is', 'country', ['DE']] as const);
    const error = await client.stats({ ...ext, filters: tooMany }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, message: 'The filters field may not have more than 10 conditions.' });
    await expect(client.timeseries({ site_id: 'ST-ext', interval: 'hour' })).rejects.toMatchObject({ status: 422, message: 'The hour interval supports ranges of at most 7 days.' });
  });
});
