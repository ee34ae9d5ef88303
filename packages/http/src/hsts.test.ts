/**
 * `Strict-Transport-Security` on every answer the standalone server gives over HTTPS (API,
 * collector, dashboard, account pages, errors, answers to malformed requests), with the
 * configured max-age; behind a trusted proxy only when the proxy says the request came over
 * HTTPS. Real servers on loopback.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBackend } from './backend.js';
import { parseConfig } from './config.js';
import { ensureDevCertificate } from './dev-cert.js';
import { type RunningServer, startServer } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-hsts-'));
const cert = ensureDevCertificate(join(dir, 'tls'));
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(vars: Record<string, string>): Promise<RunningServer> {
  const config = parseConfig({ SERVICE_API_KEY: 'k'.repeat(40), PORT: '0', DATABASE_URL: ':memory:', ...vars }, dir);
  const server = await startServer(config, await openBackend(config.database, { role: 'serve' }), { logger: () => undefined });
  running.push(server);
  return server;
}

/** The `Strict-Transport-Security` header of an answer (undefined when absent). */
function hsts(port: number, path: string, options: { method?: string; headers?: Record<string, string>; plain?: boolean } = {}): Promise<string | undefined> {
  const lib = options.plain ? http : https;
  return new Promise((resolve, reject) => {
    const req = lib.request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, ca: readFileSync(cert.certFile), servername: 'localhost', agent: false }, (res) => {
      res.resume().on('end', () => resolve(res.headers['strict-transport-security'] as string | undefined));
    });
    req.on('error', reject).end(options.method === 'POST' ? '{}' : undefined);
  });
}

/** The raw answer to bytes Node's parser refuses (a 400 written on the socket, not through a response). */
function rawAnswer(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca: readFileSync(cert.certFile), servername: 'localhost' }, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text)).on('error', reject);
  });
}

const TLS = () => ({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile });

describe('HSTS', () => {
  it('every HTTPS answer carries max-age=31536000 (a year), whatever route or status', async () => {
    const { port } = await serve(TLS());
    const key = { Authorization: `Bearer ${'k'.repeat(40)}` };
    const answers = await Promise.all([
      hsts(port, '/api/v1/stats?site_id=ST-demo'), // 401
      hsts(port, '/api/v1/stats?site_id=ST-none', { headers: key }), // 404
      hsts(port, '/api/v1/openapi.json'),
      hsts(port, '/tracker.js'),
      hsts(port, '/collect', { method: 'POST', headers: { 'Content-Type': 'text/plain' } }),
      hsts(port, '/'),
      hsts(port, '/dashboard/account/'),
      hsts(port, '/nowhere'),
    ]);
    expect(answers).toEqual(Array(answers.length).fill('max-age=31536000'));
    expect(await rawAnswer(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n(.+\r\n)*Strict-Transport-Security: max-age=31536000\r\n/);
    expect(await rawAnswer(port, 'POST /collect HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}')).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n(.+\r\n)*Strict-Transport-Security: max-age=31536000\r\n/i);
  });

  it('HSTS_MAX_AGE_SECONDS=0 (a development host) sends max-age=0, which makes browsers drop the policy', async () => {
    const { port } = await serve({ ...TLS(), HSTS_MAX_AGE_SECONDS: '0' });
    expect(await hsts(port, '/')).toBe('max-age=0');
    expect(() => parseConfig({ SERVICE_API_KEY: 'k'.repeat(40), ...TLS(), HSTS_MAX_AGE_SECONDS: 'a year' }, dir)).toThrow('HSTS_MAX_AGE_SECONDS must be an integer from 0 to 63072000');
  });

  it('behind TRUST_PROXY: sent only when X-Forwarded-Proto says https', async () => {
    const { port } = await serve({ TRUST_PROXY: 'true' });
    expect(await hsts(port, '/api/v1/live?site_id=x', { plain: true })).toBeUndefined();
    expect(await hsts(port, '/', { plain: true, headers: { 'X-Forwarded-Proto': 'http' } })).toBeUndefined();
    expect(await hsts(port, '/', { plain: true, headers: { 'X-Forwarded-Proto': 'https' } })).toBe('max-age=31536000');
    expect(await hsts(port, '/api/v1/live?site_id=x', { plain: true, headers: { 'X-Forwarded-Proto': 'https' } })).toBe('max-age=31536000');
  });
});
