import { addFunnel, createSite, createSqliteStorage, importEvents, type Storage } from '@siteline/core';
import { FUNNEL, ndjson, REPEAT_STEPS, SAVED_FUNNELS } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SitelineClient } from './client.js';
import { ValidationError } from './errors.js';
import { apiHandler, httpsFetch, KEY, listen, selfSignedCert, type TestServer } from './test-support.js';

/** `funnels` through the SDK, against the real handler over HTTPS (numbers: conformance-funnels.ts). */
describe('the SDK: funnels', () => {
  let storage: Storage;
  let server: TestServer;
  let client: SitelineClient;
  const range = { site_id: 'ST-funnel', from: '2026-11-10', to: '2026-11-11' } as const;

  beforeAll(async () => {
    const tls = selfSignedCert();
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-funnel', name: 'Funnels', timezone: 'UTC' });
    await importEvents(storage, ndjson(FUNNEL));
    for (const saved of SAVED_FUNNELS) await addFunnel(storage, 'ST-funnel', saved);
    server = await listen(apiHandler({ storage }), tls);
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: httpsFetch(tls.cert) });
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
  });

  it('a saved funnel by name, with comparison', async () => {
    const compared = await client.funnels({ ...range, funnel: 'Pricing to signup', compare: 'previous_period' });
    expect([compared.funnel, compared.visitors, compared.comparison]).toEqual(['Pricing to signup', 12, { from: '2026-11-08', to: '2026-11-09', visitors: 2 }]);
    expect(compared.steps.map((s) => [s.step, s.visitors, s.conversion_rate_step, s.comparison.visitors])).toEqual([
      ['Visit /pricing', 8, 100, 2], ['Visit /signup', 6, 75, 1], ['signup', 4, 66.7, 0],
    ]);
  });

  it('ad-hoc steps go as the JSON text the API reads; CSV too', async () => {
    const before = server.hits.length;
    const { funnel, steps } = await client.funnels({ ...range, steps: REPEAT_STEPS, filters: [['is', 'country', ['GB']]] });
    expect(new URL(server.hits[before]!.url!, 'https://x').searchParams.get('steps')).toBe('[{"page":"/a"},{"page":"/b"},{"page":"/a"}]');
    // GB: F5 (e) and F6 (f), both 11-10, reach /b; neither a second /a.
    expect([funnel, steps.map((s) => s.visitors)]).toEqual([null, [2, 2, 0]]);
    expect(await client.csv('funnels', { ...range, funnel: 'Docs to download' })).toBe(
      'step,visitors,dropoff,dropoff_rate,conversion_rate,conversion_rate_step\r\nVisit /docs*,1,0,0,100,100\r\ndownload,1,0,0,100,100\r\n',
    );
  });

  it('a funnel the site does not have is a ValidationError with the spec\'s message', async () => {
    const error = await client.funnels({ ...range, funnel: 'Nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, message: 'The selected funnel is invalid.' });
  });
});
