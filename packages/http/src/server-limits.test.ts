import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli/main.js';
import { ensureDevCertificate } from './dev-cert.js';
import { HTTP_MESSAGES } from './errors.js';
import { httpsRequest, parseRawResponse, rawExchange, startTestServer, TEST_KEY, type TestServer } from './test-tls.js';

const auth = { Authorization: `Bearer ${TEST_KEY}` };
const json = (message: string) => JSON.stringify({ error: message });

/** An idle TCP connection that never starts its TLS handshake; resolves `closed` when the server cuts it. */
async function idleConnection(port: number, localAddress = '127.0.0.1') {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
}

/** Whether an HTTPS request gets an answer (`false`: the connection was dropped). */
const served = (server: TestServer, localAddress?: string) =>
  httpsRequest(server, '/api/v1/live?site_id=ST-none', { headers: auth, localAddress }).then((r) => r.status === 404, () => false);

describe('connection caps and timeouts (issue 16, point 5)', () => {
  it('with MAX_CONNECTIONS=4, four idle connections shut others out only until the handshake timeout cuts them', async () => {
    const server = await startTestServer({ MAX_CONNECTIONS: '4', MAX_CONNECTIONS_PER_IP: '0', TLS_HANDSHAKE_TIMEOUT_MS: '1500' });
    const idle = await Promise.all([1, 2, 3, 4].map(() => idleConnection(server.port)));
    expect(await served(server)).toBe(false); // over the cap: closed as it arrives, at once
    await Promise.all(idle.map((c) => c.closed)); // cut by the 1.5 s handshake timeout (120 s by Node's default)
    expect(await served(server)).toBe(true);
    await server.close();
  });

  it('with MAX_CONNECTIONS_PER_IP=2, one address holding two idle connections does not shut out another', async () => {
    const server = await startTestServer({ MAX_CONNECTIONS_PER_IP: '2' });
    const idle = await Promise.all([1, 2].map(() => idleConnection(server.port, '127.0.0.1')));
    expect(await served(server, '127.0.0.1')).toBe(false);
    expect(await served(server, '127.0.0.2')).toBe(true);
    idle[0]!.socket.destroy();
    await idle[0]!.closed;
    await new Promise((r) => setTimeout(r, 50)); // the server sees the close
    expect(await served(server, '127.0.0.1')).toBe(true);
    for (const c of idle) c.socket.destroy();
    await server.close();
  });

  it('answers 408 with a JSON body to a trickled POST body once REQUEST_TIMEOUT_MS has passed', async () => {
    const server = await startTestServer({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' });
    const head = 'POST /collect HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n';
    // One body byte every 100 ms would take 100 s; the server cuts it after about a second.
    const { text, closedByServer } = await rawExchange(server, head, { waitMs: 20_000, trickleEveryMs: 100 });
    expect(closedByServer).toBe(true);
    expect(parseRawResponse(text)).toMatchObject({ status: 408, body: json(HTTP_MESSAGES.requestTimeout), headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' } });
    await server.close();
  });

  it('closes a keep-alive connection left idle after its answer, KEEP_ALIVE_TIMEOUT_MS (plus Node\'s 1 s margin) later', async () => {
    const server = await startTestServer({ KEEP_ALIVE_TIMEOUT_MS: '200' });
    const { text, closedByServer } = await rawExchange(server, `GET /api/v1/live?site_id=ST-none HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`, { waitMs: 20_000 });
    expect(parseRawResponse(text)).toMatchObject({ status: 404, headers: { connection: 'keep-alive' } });
    expect(closedByServer).toBe(true); // by the server, long before the 20 s this client would wait
    await server.close();
  });

  it('answers 408 with a JSON body to headers still arriving after HEADERS_TIMEOUT_MS', async () => {
    const server = await startTestServer({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' });
    const { text, closedByServer } = await rawExchange(server, 'GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\nX-Slow: a', { waitMs: 20_000 });
    expect(closedByServer).toBe(true);
    expect(parseRawResponse(text)).toMatchObject({ status: 408, body: json(HTTP_MESSAGES.requestTimeout) });
    await server.close();
  });
});

describe("protocol errors Node's parser answers itself, with the JSON error body (issue 16, point 6)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each([
    ['a malformed header line', 400, HTTP_MESSAGES.badRequest, 'GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n'],
    ['an unknown method', 400, HTTP_MESSAGES.badRequest, 'FETCH /api/v1/stats HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a bad chunk size', 400, HTTP_MESSAGES.badRequest, 'POST /collect HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['Content-Length and Transfer-Encoding together', 400, HTTP_MESSAGES.badRequest, 'POST /collect HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['headers over 16 KiB', 431, HTTP_MESSAGES.headersTooLarge, `GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`],
    ['an HTTP/1.1 request without Host', 400, HTTP_MESSAGES.badRequest, 'GET /api/v1/stats HTTP/1.1\r\n\r\n'],
    ['an Expect other than 100-continue', 417, HTTP_MESSAGES.expectationFailed, 'GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\nExpect: something\r\n\r\n'],
    ['an HTTP/2 preface', 400, HTTP_MESSAGES.badRequest, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['CONNECT', 405, HTTP_MESSAGES.methodNotAllowed, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ])('%s: %i with {"error": "%s"}', async (_name, status, message, bytes) => {
    const { text, closedByServer } = await rawExchange(server, bytes);
    expect(closedByServer).toBe(true);
    expect(parseRawResponse(text)).toMatchObject({
      status,
      body: json(message),
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(json(message).length), connection: 'close' },
    });
  });

  it('plain HTTP sent to the HTTPS port gets no answer (there is no TLS session to answer in): the connection is closed', async () => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    let text = '';
    socket.setEncoding('utf8').on('data', (c: string) => (text += c)).on('error', () => {});
    socket.write('GET /api/v1/stats HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    expect(text).not.toMatch(/^HTTP\//);
  });

  it('none of them reaches the error log', () => {
    expect(server.logText()).not.toMatch(/"level":"error"/);
  });
});

describe('TRUST_PROXY=true with TLS files (issue 16, point 7)', () => {
  it('`siteline serve` refuses to start, saying why, instead of serving TLS and answering 403 to every direct request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteline-proxy-tls-'));
    const cert = ensureDevCertificate(join(dir, '.siteline'));
    let stderr = '';
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((stderr += chunk.toString()), done()) });
    const env = { SERVICE_API_KEY: TEST_KEY, PORT: '0', DATABASE_URL: ':memory:', TRUST_PROXY: 'true', TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile };
    const code = await runCli(['serve'], { cwd: dir, env, stdin: Readable.from(['']), stdout: sink, stderr: sink });
    expect(code).toBe(1);
    expect(stderr).toContain('  - TLS_CERT_FILE and TLS_KEY_FILE cannot be used with TRUST_PROXY=true: the proxy terminates TLS');
    rmSync(dir, { recursive: true, force: true });
  });

  it('without TRUST_PROXY the same files serve direct TLS requests (no X-Forwarded-Proto needed)', async () => {
    const server = await startTestServer();
    expect(await httpsRequest(server, '/api/v1/live?site_id=ST-none', { headers: auth })).toMatchObject({ status: 404, body: '{"error":"Site not found."}' });
    await server.close();
  });
});
