import { readFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDevCertificate } from './dev-cert.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureDevCertificate', () => {
  it('makes a localhost certificate a real HTTPS server and client accept, and reuses it', async () => {
    const first = ensureDevCertificate(join(dir, '.siteline'));
    expect(first).toEqual({ certFile: join(dir, '.siteline', 'dev-cert.pem'), keyFile: join(dir, '.siteline', 'dev-key.pem'), created: true });
    expect(statSync(first.keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, '.siteline', '.gitignore'), 'utf8')).toBe('*\n');
    expect(ensureDevCertificate(join(dir, '.siteline')).created).toBe(false);

    const cert = readFileSync(first.certFile);
    const server = https.createServer({ cert, key: readFileSync(first.keyFile) }, (_req, res) => res.end('hello over TLS'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Verified against the certificate itself, with the host names it was made for.
    const get = (host: string) =>
      new Promise<string>((resolve, reject) => {
        https.get({ host: '127.0.0.1', servername: host === '127.0.0.1' ? undefined : host, port, ca: cert, agent: false, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c)).on('end', () => resolve(body));
        }).on('error', reject);
      });
    expect(await get('127.0.0.1')).toBe('hello over TLS');
    expect(await get('localhost')).toBe('hello over TLS');
    await new Promise((resolve) => server.close(resolve));
  });

  it('says to install openssl or configure TLS files when openssl is missing', () => {
    const path = process.env.PATH;
    process.env.PATH = join(dir, 'no-such-bin');
    try {
      expect(() => ensureDevCertificate(join(dir, 'other'))).toThrow(/`openssl` command was not found.*Install OpenSSL, or set TLS_CERT_FILE and TLS_KEY_FILE/);
    } finally {
      process.env.PATH = path;
    }
  });
});
