import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addFunnel, createSite, createSqliteStorage, importEvents, MESSAGES, type Storage } from '@siteline/core';
import { FUNNEL, ndjson, PRICING_STEPS, SAVED_FUNNELS } from '@siteline/core/testing';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityAuthenticator } from './auth.js';
import { ensureDevCertificate } from './dev-cert.js';
import { createApiHandler } from './handler.js';
import type { LogEntry } from './log.js';
import { openApiDocument } from './openapi/document.js';

const KEY = 'funnels-test-key-0123456789abcdef01234';
const dir = mkdtempSync(join(tmpdir(), 'siteline-funnels-http-'));
const cert = ensureDevCertificate(dir);
const tls = { key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) };

/** An HTTPS server on loopback around the API handler; every response checked against the OpenAPI document. */
async function serve(storage: Storage) {
  const logs: LogEntry[] = [];
  const server = https.createServer(tls, createApiHandler({ storage, authenticate: communityAuthenticator(KEY), logger: (e) => logs.push(e) }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const request = (path: string, method = 'GET') =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((done, fail) => {
      https.request({ host: '127.0.0.1', port, path: `/api/v1${path}`, method, ca: tls.cert, headers: { Authorization: `Bearer ${KEY}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
          try {
            checkApiResponse({ method, url: `/api/v1${path}`, status: res.statusCode!, body, contentType: res.headers['content-type'] });
            done({ status: res.statusCode!, headers: res.headers, body });
          } catch (error) {
            fail(error);
          }
        });
      }).on('error', fail).end();
    });
  return { logs, request, close: () => new Promise((r) => server.close(r)) };
}

const range = 'site_id=ST-funnel&from=2026-11-10&to=2026-11-11';
const pricing = `${range}&funnel=${encodeURIComponent('Pricing to signup')}`;

describe('GET /api/v1/funnels over HTTPS', () => {
  let storage: Storage;
  let api: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-funnel', name: 'Funnels', timezone: 'UTC' });
    await importEvents(storage, ndjson(FUNNEL));
    for (const saved of SAVED_FUNNELS) await addFunnel(storage, 'ST-funnel', saved);
    api = await serve(storage);
  });
  afterAll(async () => {
    await api.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a saved funnel and the same steps ad hoc: the documented body, the numbers of the conformance cases', async () => {
    // testing/conformance-funnels.ts: 8, 6, 4 of 12 visitors.
    const body = '{"funnel":"Pricing to signup","visitors":12,"steps":[' +
      '{"step":"Visit /pricing","visitors":8,"dropoff":0,"dropoff_rate":0,"conversion_rate":100,"conversion_rate_step":100},' +
      '{"step":"Visit /signup","visitors":6,"dropoff":2,"dropoff_rate":25,"conversion_rate":75,"conversion_rate_step":75},' +
      '{"step":"signup","visitors":4,"dropoff":2,"dropoff_rate":33.3,"conversion_rate":50,"conversion_rate_step":66.7}]}';
    expect(await api.request(`/funnels?${pricing}`)).toMatchObject({ status: 200, body });
    const adHoc = await api.request(`/funnels?${range}&steps=${encodeURIComponent(JSON.stringify(PRICING_STEPS))}`);
    expect(adHoc.body).toBe(body.replace('"Pricing to signup"', 'null'));
  });

  it('compare and filters, and the CSV file', async () => {
    const de = encodeURIComponent(JSON.stringify([['is', 'country', ['DE']]]));
    const compared = JSON.parse((await api.request(`/funnels?${pricing}&filters=${de}&compare=previous_period`)).body);
    expect(compared.comparison).toEqual({ from: '2026-11-08', to: '2026-11-09', visitors: 1 });
    expect(compared.steps.map((s: { visitors: number; comparison: { visitors: number } }) => [s.visitors, s.comparison.visitors])).toEqual([[3, 1], [3, 1], [1, 0]]);
    const csv = await api.request(`/funnels?${pricing}&compare=previous_period&format=csv`);
    expect([csv.status, csv.headers['content-type'], csv.headers['content-disposition']]).toEqual([
      200, 'text/csv; charset=utf-8', 'attachment; filename="ST-funnel-funnels-2026-11-10-2026-11-11.csv"',
    ]);
    expect(csv.body.split('\r\n')).toEqual([
      'step,visitors,dropoff,dropoff_rate,conversion_rate,conversion_rate_step,comparison_visitors,comparison_dropoff,comparison_dropoff_rate,comparison_conversion_rate,comparison_conversion_rate_step',
      'Visit /pricing,8,0,0,100,100,2,0,0,100,100',
      'Visit /signup,6,2,25,75,75,1,1,50,50,50',
      'signup,4,2,33.3,50,66.7,0,1,100,0,0',
      '',
    ]);
  });

  it('422 with the first failing rule, in the spec\'s order; the funnel name once the site is found (an unknown site is 404)', async () => {
    const steps = (value: unknown) => `steps=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`;
    const cases: [string, string][] = [
      [`/funnels?${range}`, MESSAGES.funnelOrSteps],
      [`/funnels?${pricing}&${steps(PRICING_STEPS)}`, MESSAGES.funnelOrSteps],
      [`/funnels?${range}&funnel=Nope`, MESSAGES.funnel],
      [`/funnels?${range}&funnel=`, MESSAGES.funnel],
      [`/funnels?${range}&${steps('[{"page":"/a"}]')}`, MESSAGES.steps],
      [`/funnels?${range}&${steps('nope')}`, MESSAGES.steps],
      [`/funnels?${range}&${steps([{ page: '/a' }, { path: '/b' }])}`, MESSAGES.step],
      [`/funnels?${range}&${steps([{ page: '/a' }, { event: '' }])}`, MESSAGES.step],
      [`/funnels?${range}&compare=x&funnel=Nope`, MESSAGES.compare],
      [`/funnels?${pricing}&format=xml`, MESSAGES.format],
    ];
    for (const [path, error] of cases) expect(await api.request(path)).toMatchObject({ status: 422, body: JSON.stringify({ error }) });
    expect(await api.request('/funnels?site_id=ST-nope&funnel=Nope')).toMatchObject({ status: 404, body: '{"error":"Site not found."}' });
    // Keys stay read-only: no route writes funnels.
    for (const method of ['POST', 'PUT', 'DELETE']) expect(await api.request(`/funnels?${pricing}`, method)).toMatchObject({ status: 405 });
  });

  it('the OpenAPI document describes the parameters, both bodies and every message', () => {
    const doc = openApiDocument('/api/v1') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const parameters = doc.paths['/funnels'].get.parameters as { name: string; content?: Record<string, { schema: Record<string, unknown> }>; schema?: unknown }[];
    expect(parameters.map((p) => p.name)).toEqual(['site_id', 'from', 'to', 'period', 'filters', 'compare', 'imported', 'funnel', 'steps', 'format']);
    expect(parameters.find((p) => p.name === 'funnel')!.schema).toEqual({ type: 'string', minLength: 1, maxLength: 120 });
    const steps = parameters.find((p) => p.name === 'steps')!.content!['application/json']!.schema;
    expect([steps.minItems, steps.maxItems]).toEqual([2, 8]);
    const messages = doc.components.schemas.ValidationError.properties.error.enum as string[];
    expect(messages).toEqual(expect.arrayContaining([MESSAGES.funnelOrSteps, MESSAGES.funnel, MESSAGES.steps, MESSAGES.step, MESSAGES.unsupported]));
    expect(doc.components.schemas.ComparedFunnelStepRow.required).toContain('comparison');
  });
});

describe('GET /api/v1/funnels on a storage without capabilities.funnels', () => {
  it('refuses with 422 (never zeros), and logs which capability is missing', async () => {
    const sqlite = createSqliteStorage(':memory:');
    await createSite(sqlite, { id: 'ST-funnel', name: 'Funnels', timezone: 'UTC' });
    const older: Storage = { ...sqlite, capabilities: { selection: true, properties: true, goals: true } };
    const api = await serve(older);
    try {
      expect(await api.request(`/funnels?${range}&steps=${encodeURIComponent(JSON.stringify(PRICING_STEPS))}`)).toMatchObject({
        status: 422, body: JSON.stringify({ error: MESSAGES.unsupported }),
      });
      expect(api.logs.find((e) => e.msg === 'query refused')).toMatchObject({
        level: 'warn', reason: 'The sqlite storage does not implement funnels (Storage.capabilities.funnels).',
      });
      // What it can answer, it answers.
      expect((await api.request(`/stats?${range}`)).status).toBe(200);
    } finally {
      await api.close();
      await sqlite.close();
    }
  });
});
