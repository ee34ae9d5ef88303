import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, createSqliteStorage, importEvents, importPlausible, type Storage } from '@siteline/core';
import { ndjson, PLAUSIBLE_EXPORT, PLAUSIBLE_NATIVE, storedZip } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SitelineClient } from './client.js';
import { ValidationError } from './errors.js';
import type { ImportedNote } from './index.js';
import { apiHandler, httpsFetch, KEY, listen, selfSignedCert, type TestServer } from './test-support.js';

/** `imported` through the SDK, against the real handler over HTTPS (numbers: core's conformance-imported.ts). */
describe('the SDK with imported daily totals', () => {
  let storage: Storage;
  let server: TestServer;
  let client: SitelineClient;
  const dir = mkdtempSync(join(tmpdir(), 'siteline-client-imported-'));
  const range = { site_id: 'ST-plaus', from: '2026-03-01', to: '2026-03-04' } as const;

  beforeAll(async () => {
    const tls = selfSignedCert();
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-plaus', name: 'Plaus', timezone: 'UTC', domain: 'plaus.example' });
    await importEvents(storage, ndjson(PLAUSIBLE_NATIVE));
    writeFileSync(join(dir, 'export.zip'), storedZip(PLAUSIBLE_EXPORT));
    await importPlausible(storage, join(dir, 'export.zip'), { siteId: 'ST-plaus' });
    server = await listen(apiHandler({ storage }), tls);
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: httpsFetch(tls.cert) });
  });
  afterAll(async () => {
    await server?.close();
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('bodies carry the typed imported note; imported=exclude is sent as the parameter', async () => {
    const stats = await client.stats(range);
    const note: ImportedNote | undefined = stats.imported;
    expect(stats).toEqual({ visitors: 7, pageviews: 11, sessions: 8, bounce_rate: 50, avg_duration: 60, imported: { included: true, days: 2 } });
    expect(note?.included).toBe(true);
    const before = server.hits.length;
    expect(await client.stats({ ...range, imported: 'exclude' })).toEqual({
      visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 50, avg_duration: 30, imported: { included: false, days: 2, reason: 'Left out on request (imported=exclude).' },
    });
    expect(new URL(server.hits[before]!.url!, 'https://x').searchParams.get('imported')).toBe('exclude');
    expect((await client.pages({ ...range, filters: [['is', 'country', ['DE']]] })).imported).toEqual({ included: false, days: 2, reason: 'Imported pages have no country.' });
  });

  it('a bad imported value is a ValidationError with the API\'s message', async () => {
    const error = await client.stats({ ...range, imported: 'none' as 'exclude' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe('The selected imported is invalid.');
  });
});
