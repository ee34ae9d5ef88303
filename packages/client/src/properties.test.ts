import { addGoal, createSite, createSqliteStorage, importEvents, type Storage } from '@siteline/core';
import { ndjson, PROPS, PROPS_GOALS } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SitelineClient } from './client.js';
import { ValidationError } from './errors.js';
import { apiHandler, httpsFetch, KEY, listen, selfSignedCert, type TestServer } from './test-support.js';

/** `properties` and `goals` through the SDK, against the real handler over HTTPS (numbers: conformance-properties.ts). */
describe('the SDK: properties and goals', () => {
  let storage: Storage;
  let server: TestServer;
  let client: SitelineClient;
  const range = { site_id: 'ST-props', from: '2026-11-10', to: '2026-11-11' } as const;

  beforeAll(async () => {
    const tls = selfSignedCert();
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-props', name: 'Properties', timezone: 'UTC' });
    await importEvents(storage, ndjson(PROPS));
    for (const goal of PROPS_GOALS) await addGoal(storage, 'ST-props', goal);
    server = await listen(apiHandler({ storage }), tls);
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: httpsFetch(tls.cert) });
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
  });

  it('properties: the keys, or with property the values of one key, with comparison', async () => {
    const keys = await client.properties({ ...range, name: 'Download' });
    expect(keys).toEqual({ name: 'Download', properties: [{ property: 'file', count: 2, visitors: 2 }, { property: 'size', count: 1, visitors: 1 }] });
    const values = await client.properties({ ...range, name: 'Signup', property: 'plan', limit: 2, compare: 'previous_period' });
    expect(values.values).toEqual([
      { value: 'pro', count: 3, visitors: 3, comparison: { count: 0, visitors: 0 } },
      { value: 'Pro', count: 1, visitors: 1, comparison: { count: 0, visitors: 0 } },
    ]);
    const before = server.hits.length;
    await client.properties({ ...range, name: 'Signup', filters: [['is', 'prop:plan', ['pro']]] });
    expect(new URL(server.hits[before]!.url!, 'https://x').searchParams.get('filters')).toBe('[["is","prop:plan",["pro"]]]');
  });

  it('goals: every goal with visitors, conversions and conversion rate; the goal filter', async () => {
    const { goals } = await client.goals(range);
    expect(goals.map((g) => [g.goal, g.visitors, g.conversions, g.conversion_rate])).toEqual([
      ['Signup', 5, 6, 83.3],
      ['Visit /blog/*', 2, 2, 33.3],
      ['Visit /thanks*', 2, 2, 33.3],
      ['Purchase', 0, 0, 0],
    ]);
    expect(await client.stats({ ...range, filters: [['is', 'goal', ['Visit /thanks*']]] })).toEqual({ visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 0, avg_duration: 690 });
    const compared = await client.goals({ ...range, compare: 'previous_period' });
    expect(compared.goals[0]!.comparison).toEqual({ visitors: 1, conversions: 1, conversion_rate: 50 });
  });

  it('a missing name is a ValidationError with the spec\'s message', async () => {
    const error = await client.properties({ ...range, name: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, message: 'The name field is required.' });
  });
});
