import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_MESSAGES } from './errors.js';
import { parseRawResponse, rawExchange, startTestServer, TEST_KEY, type TestServer } from './test-tls.js';

/** The key as a client writes it in a query string. */
const ENCODED = encodeURIComponent(TEST_KEY);

/** Sends exactly `target` (as `curl --request-target` does) over TLS and reads the answer. */
async function send(server: TestServer, target: string) {
  const { text } = await rawExchange(server, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  return parseRawResponse(text);
}

const logLines = (server: TestServer) => server.logText().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the request log holds only what was parsed, never the key (issue 16, point 1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  // [target, status, logged path, logged query]: the first four present the key and authenticate
  // (so the site, which does not exist, is a 404), the others do not.
  const cases: [string, number, string | null, Record<string, unknown> | undefined][] = [
    [`/api/v1/stats?site_id=ST-none&api_key=${ENCODED}`, 404, '/api/v1/stats', { site_id: 'ST-none', api_key: '[REDACTED]' }],
    [`/api/v1/stats?site_id=ST-none&api%5Fkey=${ENCODED}`, 404, '/api/v1/stats', { site_id: 'ST-none', api_key: '[REDACTED]' }],
    [`/api/v1/stats?site_id=ST-none&api%5fkey=${ENCODED}`, 404, '/api/v1/stats', { site_id: 'ST-none', api_key: '[REDACTED]' }],
    [`/api/v1/stats?site_id=ST-none&%61pi_key=${ENCODED}`, 404, '/api/v1/stats', { site_id: 'ST-none', api_key: '[REDACTED]' }],
    [`/api/v1/stats?site_id=ST-none#api_key=${ENCODED}`, 401, '/api/v1/stats', { site_id: 'ST-none' }],
    [`/api/v1/stats#?api_key=${TEST_KEY}`, 401, '/api/v1/stats', {}],
    [`/api/v1/stats?site_id=ST-none&API-Key=${ENCODED}&api_key%00=${ENCODED}`, 401, '/api/v1/stats', { site_id: 'ST-none', 'API-Key': '[REDACTED]', 'api_key\u0000': '[REDACTED]' }],
    [`/api/v1/stats?api_key=${ENCODED}&api_key=${ENCODED}`, 401, '/api/v1/stats', { api_key: ['[REDACTED]', '[REDACTED]'] }],
    [`/api/v1/stats?api_key=${ENCODED}%zz%C0`, 401, '/api/v1/stats', { api_key: '[REDACTED]' }],
    [`//%zz/api/v1/stats?api_key=${ENCODED}`, 404, '//%zz/api/v1/stats', { api_key: '[REDACTED]' }],
    [`http://[/api/v1/stats?api_key=${ENCODED}`, 400, null, undefined],
  ];

  it.each(cases)('%s: %i, logged as parsed with the key redacted', async (target, status, path, query) => {
    const before = logLines(server).length;
    expect((await send(server, target)).status).toBe(status);
    const [line, ...more] = logLines(server).slice(before);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path, status });
    expect(line!.query).toEqual(query);
    expect(line).not.toHaveProperty('url');
  });

  it('no log line holds the key in any form: as sent, decoded, or a recognisable part of it', () => {
    const text = server.logText();
    expect(text.split('\n').length).toBeGreaterThan(cases.length);
    for (const form of [TEST_KEY, ENCODED, 'with+special', 'with%2Bspecial', 'special=chars', 'special%3Dchars', '0123456789', 'and#more']) {
      expect({ form, found: text.includes(form) }).toEqual({ form, found: false });
    }
  });
});

describe('request targets starting with // (issue 16, point 2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(['//%zz/', '//[', '//:99999/api/v1/stats', '//localhost/api/v1/stats', '///api/v1/stats'])(
    '%s is a path on this server: 404 {"error":"Not Found"}, no stack trace in the log',
    async (target) => {
      expect(await send(server, target)).toMatchObject({ status: 404, body: JSON.stringify({ error: HTTP_MESSAGES.notFound }) });
    },
  );

  it('an absolute-form target the URL parser refuses is 400 {"error":"Bad Request"}; a valid one is served', async () => {
    expect(await send(server, 'http://[/')).toMatchObject({ status: 400, body: JSON.stringify({ error: HTTP_MESSAGES.badRequest }) });
    expect(await send(server, 'https://localhost/api/v1/live?site_id=ST-none')).toMatchObject({ status: 401 });
  });

  it('none of them wrote an error entry', () => {
    expect(logLines(server).filter((line) => line.level !== 'info')).toEqual([]);
    expect(server.logText()).not.toContain('Invalid URL');
  });
});
