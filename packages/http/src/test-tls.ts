/**
 * Test scaffolding for hostile clients over real TLS: a standalone server started from
 * `.env`-style variables with a development certificate, and raw TLS exchanges that send
 * exactly the bytes a test writes (what `curl --request-target` or a fuzzer sends). Not
 * exported from the package.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { openBackend } from './backend.js';
import { parseConfig } from './config.js';
import { ensureDevCertificate } from './dev-cert.js';
import { jsonLogger } from './log.js';
import { type RunningServer, startServer } from './server.js';

export const TEST_KEY = 'test-key-/with+special=chars&and#more-0123456789';

/**
 * Stops a test's server at once: no new connection, and every open one closed, again every
 * 25 ms until the server has closed. A page still open in a browser may be starting a
 * connection at that moment (a TLS handshake is no HTTP connection yet, so one
 * `closeAllConnections` misses it), and a page that polls keeps such a connection busy past
 * any keep-alive timeout: `server.close` alone would wait for it.
 */
export async function closeNow(server: http.Server | https.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeAllConnections(), 25);
  server.closeAllConnections();
  await closed;
  clearInterval(sweep);
}

export interface TestServer {
  running: RunningServer;
  port: number;
  ca: Buffer;
  /** Everything the server logged so far, as the JSON lines it wrote (stdout and stderr). */
  logText(): string;
  close(): Promise<void>;
}

/** `startServer` over HTTPS on a free loopback port with `vars` on top of a test key, logging JSON lines to a file. */
export async function startTestServer(vars: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-hostile-'));
  const cert = ensureDevCertificate(join(dir, '.siteline'));
  const config = parseConfig({ SERVICE_API_KEY: TEST_KEY, PORT: '0', DATABASE_URL: ':memory:', TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile, ...vars }, dir);
  let text = '';
  const sink = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream;
  const running = await startServer(config, await openBackend(config.database, { role: 'serve', columnCacheBytes: config.columnCacheMb * 1024 * 1024 }), { logger: jsonLogger(sink, sink) });
  return {
    running,
    port: running.port,
    ca: readFileSync(cert.certFile),
    logText: () => text,
    async close() {
      running.server.closeAllConnections();
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request on its own connection (`localAddress`: the client address, any of 127.0.0.0/8). */
export function httpsRequest(server: Pick<TestServer, 'port' | 'ca'>, path: string, init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: init.headers, ca: server.ca, agent: false, localAddress: init.localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject).end(init.body);
  });
}

/**
 * Writes `bytes` on a fresh TLS connection and collects everything the server sends until it
 * closes the connection (or `waitMs` passes): the raw HTTP response text, if any. With
 * `trickleEveryMs`, then writes one more byte (`x`) at that interval, as a slow-body client does.
 */
export function rawExchange(server: Pick<TestServer, 'port' | 'ca'>, bytes: string | Buffer, options: { waitMs?: number; trickleEveryMs?: number } = {}): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    let trickle: NodeJS.Timeout | undefined;
    const socket = tls.connect({ host: '127.0.0.1', port: server.port, ca: server.ca, servername: 'localhost' }, () => {
      socket.write(bytes);
      if (options.trickleEveryMs) trickle = setInterval(() => socket.writable && socket.write('x'), options.trickleEveryMs);
    });
    let text = '';
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      clearInterval(trickle);
      resolve({ text, closedByServer });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish(false);
    }, options.waitMs ?? 5_000);
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
  });
}

/** Status line, headers (lower-case names) and body of a raw HTTP/1.1 response. */
export function parseRawResponse(text: string): Reply {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}
