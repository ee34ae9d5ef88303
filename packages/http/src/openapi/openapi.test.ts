import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import { createConfig as redoclyConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { addGoal, createSite, createSqliteStorage, ENDPOINT_PATHS, importEvents, MESSAGES, type Storage } from '@siteline/core';
import { EXT, ndjson, PROPS, PROPS_GOALS } from '@siteline/core/testing';
import { checkApiResponse, checkedResponses } from '@siteline/http/testing';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityAuthenticator } from '../auth.js';
import { ensureDevCertificate } from '../dev-cert.js';
import { createApiHandler } from '../handler.js';
import { openApiDocument } from './document.js';

const KEY = 'openapi-test-key-0123456789abcdef0123';
const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const dir = mkdtempSync(join(tmpdir(), 'siteline-openapi-'));
const cert = ensureDevCertificate(dir);
const tls = { key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GET/HEAD/POST over real HTTPS, every response checked against the document like every HTTP test's. */
function request(port: number, path: string, method = 'GET', headers: Record<string, string> = { Authorization: `Bearer ${KEY}` }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((done, fail) => {
    https.request({ host: '127.0.0.1', port, path, method, ca: tls.cert, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
        try {
          checkApiResponse({ method, url: path, status: res.statusCode!, body, contentType: res.headers['content-type'] });
          done({ status: res.statusCode!, headers: res.headers, body });
        } catch (error) {
          fail(error);
        }
      });
    }).on('error', fail).end();
  });
}

/** A `fetch` for openapi-fetch that trusts the test certificate (the global fetch cannot take a CA per call). */
const trustingFetch = async (input: Request): Promise<Response> =>
  new Promise((done, fail) => {
    const headers: Record<string, string> = {};
    input.headers.forEach((value, name) => (headers[name] = value));
    https.request(input.url, { method: input.method, headers, ca: tls.cert }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          checkApiResponse({ method: input.method, url: input.url, status: res.statusCode!, body, contentType: res.headers['content-type'] });
        } catch (error) {
          return fail(error);
        }
        done(new Response(body, { status: res.statusCode!, headers: { 'content-type': String(res.headers['content-type']) } }));
      });
    }).on('error', fail).end();
  });

describe('GET /api/v1/openapi.json', () => {
  let storage: Storage;
  let server: https.Server;
  let port: number;

  beforeAll(async () => {
    storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-ext', name: 'Extensions', timezone: 'UTC' });
    await importEvents(storage, ndjson(EXT));
    await createSite(storage, { id: 'ST-props', name: 'Properties', timezone: 'UTC' });
    await importEvents(storage, ndjson(PROPS));
    for (const goal of PROPS_GOALS) await addGoal(storage, 'ST-props', goal);
    server = https.createServer(tls, createApiHandler({ storage, authenticate: communityAuthenticator(KEY), logger: () => {} }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a valid OpenAPI 3.1 document without a key; HEAD has no body; other methods get 405', async () => {
    const reply = await request(port, '/api/v1/openapi.json', 'GET', {});
    expect(reply.status).toBe(200);
    const doc = JSON.parse(reply.body) as Json;
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    expect(doc).toEqual(openApiDocument('/api/v1'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    const head = await request(port, '/api/v1/openapi.json', 'HEAD', {});
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(reply.body))]);
    const post = await request(port, '/api/v1/openapi.json', 'POST', {});
    expect([post.status, post.body, post.headers.allow]).toEqual([405, '{"error":"Method Not Allowed"}', 'GET, HEAD']);
  });

  it('passes `redocly lint` with its recommended rules: 0 errors, 0 warnings', async () => {
    const config = await redoclyConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument('/api/v1')), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('describes every endpoint, its parameters (filters, compare, interval), bodies and errors', () => {
    const doc = openApiDocument('/api/v1') as Json;
    expect(Object.keys(doc.paths).sort()).toEqual([...Object.values(ENDPOINT_PATHS), '/export', '/openapi.json'].sort());
    for (const [endpoint, path] of Object.entries(ENDPOINT_PATHS)) {
      const get = doc.paths[path].get;
      const names = get.parameters.map((p: Json) => p.name);
      const expected = endpoint === 'live' ? ['site_id'] : ['site_id', 'from', 'to', 'period', 'filters', 'compare', 'imported'];
      expect(names.slice(0, expected.length)).toEqual(expected);
      expect(Object.keys(get.responses).sort()).toEqual(['200', '401', '403', '404', '414', '422', '429', '500']);
      expect(Object.keys(doc.paths[path])).toEqual(['get']); // 405 for other methods is described once, in info.description
    }
    expect(doc.paths['/stats/timeseries'].get.parameters.map((p: Json) => p.name)).toContain('interval');
    expect(doc.paths['/pages'].get.parameters.find((p: Json) => p.name === 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    const filters = doc.paths['/stats'].get.parameters.find((p: Json) => p.name === 'filters');
    expect(filters.content['application/json'].schema.maxItems).toBe(10);
    expect(filters.content['application/json'].schema.items.prefixItems[0].enum).toEqual(['is', 'is_not', 'contains', 'contains_not']);
    // The 422 body lists every validation message, the new ones included.
    const messages = doc.components.schemas.ValidationError.properties.error.enum as string[];
    for (const m of [MESSAGES.filtersShape, MESSAGES.filtersCount, MESSAGES.compare, MESSAGES.hourRange, MESSAGES.imported, MESSAGES.dateFormat('to'), MESSAGES.requiredWith('from', 'to')]) {
      expect(messages).toContain(m);
    }
    // The compared /stats body is a documented variant.
    expect(doc.components.schemas.ComparedStats.required).toContain('comparison');
    // `imported` (issue 39): an optional field of every body but /live's, and a parameter with two values.
    expect(doc.components.schemas.ImportedNote.required).toEqual(['included', 'days']);
    expect(doc.components.schemas.Summary.properties.imported).toEqual({ $ref: '#/components/schemas/ImportedNote' });
    expect(doc.paths['/stats'].get.parameters.find((p: Json) => p.name === 'imported').schema).toEqual({ type: 'string', enum: ['include', 'exclude'] });
  });

  it('the response check fails on a body or status the document does not describe', () => {
    const before = checkedResponses;
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/stats?site_id=ST-a', status: 200, body: '{"visitors":1}' })).toThrow(/does not match/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/stats', status: 200, body: '{"visitors":1,"pageviews":1,"sessions":1,"bounce_rate":0,"avg_duration":0,"extra":1}' })).toThrow(/does not match/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/stats', status: 422, body: '{"error":"Something else."}' })).toThrow(/does not match/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/stats', status: 418, body: '' })).toThrow(/not documented/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/nope', status: 200, body: '{}' })).toThrow(/undocumented path/);
    checkApiResponse({ method: 'GET', url: '/api/v1/stats', status: 200, body: '{"visitors":1,"pageviews":1,"sessions":1,"bounce_rate":0,"avg_duration":0}' });
    checkApiResponse({ method: 'GET', url: '/collect', status: 202, body: '' }); // not the API: not checked
    // format=csv: text/csv is documented for the reports' 200, not for /live nor for errors, and its records end in CRLF.
    const csv = 'text/csv; charset=utf-8';
    checkApiResponse({ method: 'GET', url: '/api/v1/pages', status: 200, body: 'url,pageviews\r\n/a,1\r\n', contentType: csv });
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/pages', status: 200, body: 'url,pageviews\n/a,1\n', contentType: csv })).toThrow(/does not match/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/live', status: 200, body: 'live\r\n1\r\n', contentType: csv })).toThrow(/Content-Type text\/csv/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/pages', status: 422, body: 'error\r\nx\r\n', contentType: csv })).toThrow(/Content-Type text\/csv/);
    expect(() => checkApiResponse({ method: 'GET', url: '/api/v1/pages', status: 200, body: '<p>', contentType: 'text/html' })).toThrow(/Content-Type text\/html/);
    expect(checkedResponses).toBeGreaterThan(before);
  });

  it('a filtered, compared request over HTTPS, and the extensions\' 422s', async () => {
    const filters = encodeURIComponent(JSON.stringify([['is', 'country', ['DE', 'AT']]]));
    // The numbers of the conformance case "filters apply to both ranges of a comparison" (datasets-extensions.ts).
    const reply = await request(port, `/api/v1/stats?site_id=ST-ext&from=2026-11-10&to=2026-11-11&filters=${filters}&compare=previous_period`);
    expect(JSON.parse(reply.body)).toEqual({
      visitors: 4, pageviews: 7, sessions: 4, bounce_rate: 25, avg_duration: 337.5,
      comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 },
    });
    // Without the new parameters: byte for byte the v1 body.
    expect((await request(port, '/api/v1/stats?site_id=ST-ext&from=2026-11-10&to=2026-11-11')).body).toBe(
      '{"visitors":6,"pageviews":10,"sessions":6,"bounce_rate":33.3,"avg_duration":375}',
    );
    const cases: [string, string][] = [
      ['/stats?site_id=ST-ext&filters=%5B%5B%22is%22%2C%22planet%22%2C%5B%22x%22%5D%5D%5D', MESSAGES.filterDimension],
      ['/stats?site_id=ST-ext&filters=nope', MESSAGES.filtersShape],
      ['/pages?site_id=ST-ext&compare=yesterday&limit=x', MESSAGES.compare],
      ['/stats/timeseries?site_id=ST-ext&interval=hour', MESSAGES.hourRange],
      ['/stats/timeseries?site_id=ST-ext&interval=minute', MESSAGES.interval],
      ['/stats/timeseries?site_id=ST-ext&interval=day&imported=no', MESSAGES.imported],
    ];
    for (const [path, error] of cases) expect(await request(port, `/api/v1${path}`)).toMatchObject({ status: 422, body: JSON.stringify({ error }) });
    // interval is ignored where it is not taken; /live ignores all three.
    expect((await request(port, '/api/v1/stats?site_id=ST-ext&interval=minute')).status).toBe(200);
    expect((await request(port, '/api/v1/live?site_id=ST-ext&filters=x&compare=x&interval=x')).body).toBe('{"live":0}');
  });

  it('a client generated by @hey-api/openapi-ts has exactly the GET operations and calls every endpoint against the server', async () => {
    const doc = JSON.parse((await request(port, '/api/v1/openapi.json', 'GET', {})).body) as Json;
    const work = mkdtempSync(join(tmpdir(), 'siteline-hey-api-'));
    try {
      await generateHeyApiClient({ input: doc, output: join(work, 'generated'), plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'], logs: { level: 'silent' } });
      const sdkSource = readFileSync(join(work, 'generated/sdk.gen.ts'), 'utf8');
      expect(sdkSource.match(/\.(get|post|put|patch|delete|options|head)</g)?.sort()).toEqual(Array(Object.keys(ENDPOINT_PATHS).length + 2).fill('.get<'));
      writeFileSync(join(work, 'usage.ts'), `
        import { createClient } from './generated/client/index.js';
        import * as sdk from './generated/sdk.gen.js';
        export const operations = Object.keys(sdk).filter((name) => typeof (sdk as Record<string, unknown>)[name] === 'function').sort();
        // The generator sends arrays as repeated form fields whatever a parameter's \`content\` says: filters goes as JSON text.
        const querySerializer = (query: Record<string, unknown>) =>
          new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString();
        // The client calls fetch with one Request, which is all the test's fetch takes.
        export async function calls(baseUrl: string, key: string, fetch: typeof globalThis.fetch) {
          const client = createClient({ baseUrl, fetch, querySerializer, auth: () => key });
          const range = { site_id: 'ST-ext', from: '2026-11-10', to: '2026-11-11' } as const;
          const stats = await sdk.stats({ client, query: { ...range, filters: [['is', 'country', ['DE', 'AT']]], compare: 'previous_period' } });
          const compared = stats.data && 'comparison' in stats.data ? stats.data.comparison.visitors : undefined;
          const bad = await sdk.pages({ client, query: { site_id: 'ST-ext', limit: 500 } });
          const denied = await sdk.live({ client: createClient({ baseUrl, fetch }), query: { site_id: 'ST-ext' } });
          return {
            stats: { visitors: stats.data?.visitors, compared },
            bodies: {
              timeseries: (await sdk.timeseries({ client, query: { ...range, interval: 'hour' } })).data,
              pages: (await sdk.pages({ client, query: { ...range, limit: 2, filters: [['is_not', 'page', ['/']]] } })).data,
              referrers: (await sdk.referrers({ client, query: range })).data,
              channels: (await sdk.channels({ client, query: { ...range, compare: 'year_over_year' } })).data,
              locations: (await sdk.locations({ client, query: range })).data,
              devices: (await sdk.devices({ client, query: { ...range, breakdown: 'browser' } })).data,
              events: (await sdk.events({ client, query: range })).data,
              campaigns: (await sdk.campaigns({ client, query: range })).data,
              live: (await sdk.live({ client, query: { site_id: 'ST-ext' } })).data,
              properties: (await sdk.properties({ client, query: { ...range, site_id: 'ST-props', name: 'Signup', property: 'plan' } })).data,
              goals: (await sdk.goals({ client, query: { ...range, site_id: 'ST-props', compare: 'previous_period' } })).data,
              funnels: (await sdk.funnels({ client, query: { ...range, steps: [{ page: '/' }, { page: '/pricing' }] } })).data,
            },
            openapi: ((await sdk.openapi({ client: createClient({ baseUrl, fetch }) })).data as { openapi?: string }).openapi,
            exportLines: String((await sdk.exportEvents({ client, query: range, parseAs: 'text' })).data).trimEnd().split('\\n').length,
            bad: bad.error?.error,
            denied: denied.error?.error,
          };
        }
      `);
      const program = ts.createProgram([join(work, 'usage.ts')], {
        strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'], skipLibCheck: true, types: [],
      });
      writeFileSync(join(work, 'package.json'), '{"type":"module"}');
      expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
      const generated = (await import(pathToFileURL(join(work, 'usage.ts')).href)) as { operations: string[]; calls: (b: string, k: string, f: typeof trustingFetch) => Promise<Json> };
      expect(generated.operations).toEqual([...Object.keys(ENDPOINT_PATHS), 'exportEvents', 'openapi'].sort());
      const got = await generated.calls(`https://127.0.0.1:${port}/api/v1`, KEY, trustingFetch);
      // Each body is the one the server gives the same query sent by hand.
      const direct = async (path: string) => JSON.parse((await request(port, `/api/v1${path}`)).body) as Json;
      const range = 'site_id=ST-ext&from=2026-11-10&to=2026-11-11';
      expect(got).toEqual({
        stats: { visitors: 4, compared: 1 }, // the numbers of the conformance case checked above
        bodies: {
          timeseries: await direct(`/stats/timeseries?${range}&interval=hour`),
          pages: await direct(`/pages?${range}&limit=2&filters=${encodeURIComponent('[["is_not","page",["/"]]]')}`),
          referrers: await direct(`/referrers?${range}`),
          channels: await direct(`/channels?${range}&compare=year_over_year`),
          locations: await direct(`/locations?${range}`),
          devices: await direct(`/devices?${range}&breakdown=browser`),
          events: await direct(`/events?${range}`),
          campaigns: await direct(`/campaigns?${range}`),
          live: { live: 0 },
          properties: await direct(`/properties?${range.replace('ST-ext', 'ST-props')}&name=Signup&property=plan`),
          goals: await direct(`/goals?${range.replace('ST-ext', 'ST-props')}&compare=previous_period`),
          funnels: await direct(`/funnels?${range}&steps=${encodeURIComponent('[{"page":"/"},{"page":"/pricing"}]')}`),
        },
        openapi: '3.1.0',
        exportLines: (await request(port, `/api/v1/export?${range}`)).body.trimEnd().split('\n').length,
        bad: MESSAGES.limitRange,
        denied: 'Unauthorized',
      });
      expect(got.bodies.timeseries.timeseries).toHaveLength(48);
      expect(got.bodies.pages.pages.map((p: Json) => p.url)).not.toContain('/');
      // ST-ext: E1 (a, 11-10) views / then /pricing; E5 (d) and E6 (g) on 11-11 view / only.
      expect(got.bodies.funnels.steps.map((s: Json) => s.visitors)).toEqual([3, 1]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('/properties and /goals over HTTPS: the documented bodies, compare, the prop: and goal filters, their 422s; goals are never written', async () => {
    const doc = openApiDocument('/api/v1') as Json;
    const props = doc.paths['/properties'].get.parameters as Json[];
    expect(props.map((p) => [p.name, p.required])).toEqual([
      ['site_id', true], ['from', false], ['to', false], ['period', false], ['filters', false], ['compare', false], ['imported', false], ['name', true], ['property', false], ['limit', false],
      ['format', false],
    ]);
    expect(props.find((p) => p.name === 'property')!.schema).toEqual({ type: 'string', minLength: 1, maxLength: 300 });
    expect(doc.paths['/goals'].get.parameters.map((p: Json) => p.name)).toEqual(['site_id', 'from', 'to', 'period', 'filters', 'compare', 'imported', 'format']);
    const dimension = doc.paths['/stats'].get.parameters.find((p: Json) => p.name === 'filters').content['application/json'].schema.items.prefixItems[1];
    expect(dimension.anyOf[0].enum).toContain('goal');
    expect(dimension.anyOf[1].pattern).toBe('^prop:[\\s\\S]{1,300}$');
    const messages = doc.components.schemas.ValidationError.properties.error.enum as string[];
    expect(messages).toEqual(expect.arrayContaining([MESSAGES.nameRequired, MESSAGES.property]));

    const range = 'site_id=ST-props&from=2026-11-10&to=2026-11-11';
    // The numbers of the conformance cases (testing/conformance-properties.ts).
    expect(JSON.parse((await request(port, `/api/v1/properties?${range}&name=Signup&property=plan&compare=previous_period`)).body)).toEqual({
      name: 'Signup',
      property: 'plan',
      values: [
        { value: 'pro', count: 3, visitors: 3, comparison: { count: 0, visitors: 0 } },
        { value: 'Pro', count: 1, visitors: 1, comparison: { count: 0, visitors: 0 } },
        { value: 'free', count: 1, visitors: 1, comparison: { count: 1, visitors: 1 } },
      ],
    });
    expect((await request(port, `/api/v1/properties?${range}&name=Signup&limit=1`)).body).toBe('{"name":"Signup","properties":[{"property":"plan","count":5,"visitors":4}]}');
    const goals = JSON.parse((await request(port, `/api/v1/goals?${range}`)).body) as Json;
    expect(goals.goals[0]).toEqual({ goal: 'Signup', visitors: 5, conversions: 6, conversion_rate: 83.3 });
    expect(goals.goals).toHaveLength(4);
    const thanks = encodeURIComponent(JSON.stringify([['is', 'goal', ['Visit /thanks*']]]));
    expect(JSON.parse((await request(port, `/api/v1/stats?${range}&filters=${thanks}`)).body)).toEqual({ visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 0, avg_duration: 690 });
    const pro = encodeURIComponent(JSON.stringify([['is', 'prop:plan', ['pro']]]));
    expect(JSON.parse((await request(port, `/api/v1/goals?${range}&filters=${pro}&compare=previous_period`)).body).goals[0]).toEqual({
      goal: 'Signup', visitors: 3, conversions: 3, conversion_rate: 100, comparison: { visitors: 0, conversions: 0, conversion_rate: 0 },
    });
    const cases: [string, string][] = [
      ['/properties?site_id=ST-props', MESSAGES.nameRequired],
      ['/properties?site_id=ST-props&name=', MESSAGES.nameRequired],
      [`/properties?site_id=ST-props&name=${'x'.repeat(201)}`, MESSAGES.name],
      ['/properties?site_id=ST-props&name=Signup&property=', MESSAGES.property],
      ['/properties?site_id=ST-props&name=Signup&limit=101', MESSAGES.limitRange],
      ['/properties?site_id=ST-props&compare=x', MESSAGES.compare],
      [`/goals?site_id=ST-props&filters=${encodeURIComponent('[["is","prop:",["x"]]]')}`, MESSAGES.filterDimension],
    ];
    for (const [path, error] of cases) expect(await request(port, `/api/v1${path}`)).toMatchObject({ status: 422, body: JSON.stringify({ error }) });
    // Keys stay read-only: no route writes goals.
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect(await request(port, '/api/v1/goals?site_id=ST-props', method)).toMatchObject({ status: 405, body: '{"error":"Method Not Allowed"}' });
    }
    expect((await request(port, '/api/v1/goals?site_id=ST-nope')).status).toBe(404);
  });

  it('a client generated from the document by openapi-typescript type-checks and calls the server with openapi-fetch', async () => {
    const doc = JSON.parse((await request(port, '/api/v1/openapi.json', 'GET', {})).body) as Json;
    const work = mkdtempSync(join(tmpdir(), 'siteline-generated-'));
    try {
      symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
      writeFileSync(join(work, 'schema.ts'), astToString(await openapiTS(doc as Parameters<typeof openapiTS>[0])));
      writeFileSync(join(work, 'package.json'), '{"type":"module"}');
      writeFileSync(join(work, 'usage.ts'), `
        import createClient from 'openapi-fetch';
        import type { paths } from './schema.js';
        export async function calls(baseUrl: string, key: string, fetch: (request: Request) => Promise<Response>) {
          // The reports also answer text/csv (format=csv): a JSON client names its media type.
          const api = createClient<paths, 'application/json'>({ baseUrl, fetch, headers: { Authorization: 'Bearer ' + key } });
          // filters is application/json content: openapi-typescript types it as its serialised text.
          const stats = await api.GET('/stats', { params: { query: {
            site_id: 'ST-ext', from: '2026-11-10', to: '2026-11-11', filters: JSON.stringify([['is', 'country', ['DE', 'AT']]]), compare: 'previous_period',
          } } });
          const visitors: number | undefined = stats.data?.visitors;
          const compared = stats.data && 'comparison' in stats.data ? stats.data.comparison.visitors : undefined;
          const weeks = await api.GET('/stats/timeseries', { params: { query: { site_id: 'ST-ext', from: '2026-10-28', to: '2026-11-11', interval: 'week' } } });
          const bad = await api.GET('/pages', { params: { query: { site_id: 'ST-ext', limit: 500 } } });
          const denied = await createClient<paths>({ baseUrl, fetch }).GET('/live', { params: { query: { site_id: 'ST-ext' } } });
          // Type-checked only, never sent: compare is previous_period or year_over_year.
          // @ts-expect-error
          const typeOnly = () => api.GET('/stats', { params: { query: { site_id: 'ST-ext', compare: 'last_week' } } });
          void typeOnly;
          return { visitors, compared, weeks: weeks.data?.timeseries.map((r) => r.date), bad: bad.error?.error, denied: denied.error?.error };
        }
      `);
      const program = ts.createProgram([join(work, 'usage.ts')], {
        strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], skipLibCheck: true, types: [],
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
      const { calls } = (await import(pathToFileURL(join(work, 'usage.ts')).href)) as { calls: (b: string, k: string, f: typeof trustingFetch) => Promise<unknown> };
      expect(await calls(`https://127.0.0.1:${port}/api/v1`, KEY, trustingFetch)).toEqual({
        visitors: 4,
        compared: 1,
        weeks: ['2026-10-26', '2026-11-02', '2026-11-09'],
        bad: MESSAGES.limitRange,
        denied: 'Unauthorized',
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
