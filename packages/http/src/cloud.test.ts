import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type AccountStore, type Backend, createSite, createSqliteStorage, hashCloudKey, openSqliteBackend, type Storage } from '@siteline/core';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudAuthenticator, communityAuthenticator } from './auth.js';
import { ensureDevCertificate } from './dev-cert.js';
import { createApiHandler } from './handler.js';
import type { LogEntry } from './log.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cloud-'));
const devCert = ensureDevCertificate(dir);
const tls = { key: readFileSync(devCert.keyFile), cert: readFileSync(devCert.certFile) };
const repo = resolve(fileURLToPath(import.meta.url), '../../../..');

function get(port: number, path: string, key: string) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    https
      // agent: false: after a spawnSync that blocks this process past the server's 5 s keep-alive, a reused socket may be closed under the request.
      .get({ host: '127.0.0.1', port, path, ca: tls.cert, agent: false, headers: { Authorization: `Bearer ${key}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
          try {
            checkApiResponse({ method: 'GET', url: path, status: res.statusCode!, body, contentType: res.headers['content-type'] });
            done({ status: res.statusCode!, body });
          } catch (error) {
            fail(error);
          }
        });
      })
      .on('error', fail);
  });
}

describe('Cloud edition: account keys over real HTTPS', () => {
  const dbPath = join(dir, 'cloud.db');
  let backend: Backend;
  let storage: Storage;
  let accounts: AccountStore;
  let server: https.Server;
  let port: number;
  let keyA: string;
  let keyB: string;
  let keyAId: string;
  let acme: { id: string };
  let globex: { id: string };
  const logs: LogEntry[] = [];
  let gate: Promise<void> | undefined;

  beforeAll(async () => {
    backend = openSqliteBackend(dbPath);
    ({ storage, accounts } = backend);
    const a = (acme = await accounts.createAccount('Acme'));
    const b = (globex = await accounts.createAccount('Globex'));
    await createSite(storage, { id: 'ST-acme', name: 'Acme site', accountId: a.id });
    await createSite(storage, { id: 'ST-globex', name: 'Globex site', accountId: b.id });
    ({ key: keyA, info: { id: keyAId } } = await accounts.createKey(a.id, 'reporting'));
    ({ key: keyB } = await accounts.createKey(b.id, 'dashboard'));
    // A storage whose /stats waits for `gate`, to hold a request in flight.
    const slow: Storage = { ...storage, summary: async (range) => { await gate; return storage.summary(range); } };
    const handler = createApiHandler({ storage: slow, authenticate: cloudAuthenticator(accounts), logger: (e) => logs.push(e) });
    server = https.createServer(tls, handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a key reads its own account\'s sites; any other site is 404 exactly like a missing one', async () => {
    expect(await get(port, '/api/v1/live?site_id=ST-acme', keyA)).toEqual({ status: 200, body: '{"live":0}' });
    const foreign = await get(port, '/api/v1/live?site_id=ST-globex', keyA);
    const missing = await get(port, '/api/v1/live?site_id=ST-nothere', keyA);
    expect(foreign).toEqual({ status: 404, body: '{"error":"Site not found."}' });
    expect(missing).toEqual(foreign);
    expect((await get(port, '/api/v1/live?site_id=ST-globex', keyB)).status).toBe(200);
  });

  it('shows a key once; lists it masked with name, times and state', async () => {
    expect(keyA).toMatch(/^st_[0-9a-f]{64}$/);
    const [info] = await accounts.listKeys(acme.id);
    expect(info).toMatchObject({ id: keyAId, name: 'reporting', masked: `${keyA.slice(0, 4)}…${keyA.slice(-4)}`, revokedAt: null });
    expect(info!.masked).toMatch(/^st_[0-9a-f]…[0-9a-f]{4}$/);
    expect(info!.lastUsedAt).not.toBeNull(); // used by the previous test
    expect(JSON.stringify(info)).not.toContain(keyA.slice(4, -4));
    const db = new Database(dbPath, { readonly: true });
    const stored = db.prepare('SELECT hash FROM api_keys WHERE id = ?').get(keyAId) as { hash: Buffer };
    db.close();
    expect(stored.hash.equals(hashCloudKey(keyA))).toBe(true);
    expect(readFileSync(dbPath).toString('latin1')).not.toContain(keyA);
    await expect(accounts.createKey('acct_none', 'x')).rejects.toThrow('No account acct_none.');
    await expect(accounts.createKey(info!.accountId, '  ')).rejects.toThrow('A key needs a descriptive name of 1 to 100 characters.');
  });

  it('rejects malformed keys without a database lookup', async () => {
    const other = openSqliteBackend(join(dir, 'other.db'));
    const open = other.accounts;
    const closed = openSqliteBackend(join(dir, 'closed2.db'));
    const store = closed.accounts;
    await closed.close(); // any lookup would now throw
    for (const key of ['', 'st_', `st_${'A'.repeat(64)}`, `st_${'a'.repeat(63)}`, `xx_${'a'.repeat(64)}`, `st_${'a'.repeat(65)}`]) {
      expect(await store.authenticate(key)).toBeNull();
    }
    await expect(store.authenticate(`st_${'a'.repeat(64)}`)).rejects.toThrow();
    expect(await open.authenticate(`st_${'b'.repeat(64)}`)).toBeNull(); // well-formed, unknown
    expect(await accounts.authenticate(`${keyA.slice(0, -1)}${keyA.endsWith('0') ? '1' : '0'}`)).toBeNull(); // one character off
    await other.close();
  });

  it('revocation fails a request already in flight with 401', async () => {
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const inFlight = get(port, '/api/v1/stats?site_id=ST-acme', keyA);
    await new Promise((r) => setTimeout(r, 100)); // authenticated, now waiting in storage
    const revoked = await accounts.revokeKey(acme.id, keyAId);
    release();
    expect(revoked).toBe(true);
    expect(await inFlight).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
    expect(await get(port, '/api/v1/stats?site_id=ST-acme', keyA)).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
    expect(await accounts.revokeKey(acme.id, keyAId)).toBe(false);
    expect((await accounts.listKeys(acme.id))[0]!.revokedAt).not.toBeNull();
    gate = undefined;
  });

  it('a revocation made by a second process applies to the next request', async () => {
    const [info] = await accounts.listKeys(globex.id);
    expect((await get(port, '/api/v1/live?site_id=ST-globex', keyB)).status).toBe(200);
    // The real `siteline keys revoke` in its own process, on the same database file.
    const child = spawnSync(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'packages/http/src/cli.ts'), 'keys', 'revoke', '--account', globex.id, '--key', info!.id], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: dbPath, TSX_TSCONFIG_PATH: join(repo, 'tsconfig.json') },
      cwd: dir,
    });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: 0, stdout: `Revoked key ${info!.id}; requests with it get 401 from now on.\n`, stderr: '',
    });
    expect(await get(port, '/api/v1/live?site_id=ST-globex', keyB)).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
  });

  it('never logs a key or its hash', () => {
    const text = JSON.stringify(logs);
    for (const key of [keyA, keyB]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(hashCloudKey(key).toString('hex'));
      expect(text).not.toContain(hashCloudKey(key).toString('base64'));
    }
    expect(logs.filter((e) => e.msg === 'request').length).toBeGreaterThan(5);
  });
});

describe('Community edition key', () => {
  it('after SERVICE_API_KEY changes and the handler is rebuilt (restart), the old key gets 401', async () => {
    const storage = createSqliteStorage(':memory:');
    await createSite(storage, { id: 'ST-c', name: 'C' });
    const serveWith = async (serviceKey: string) => {
      const server = https.createServer(tls, createApiHandler({ storage, authenticate: communityAuthenticator(serviceKey), logger: () => {} }));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return server;
    };
    const first = await serveWith('old-key-0123456789abcdef0123456789');
    expect((await get((first.address() as AddressInfo).port, '/api/v1/live?site_id=ST-c', 'old-key-0123456789abcdef0123456789')).status).toBe(200);
    await new Promise((r) => first.close(r));
    const second = await serveWith('new-key-0123456789abcdef0123456789');
    const port = (second.address() as AddressInfo).port;
    expect((await get(port, '/api/v1/live?site_id=ST-c', 'old-key-0123456789abcdef0123456789')).status).toBe(401);
    expect((await get(port, '/api/v1/live?site_id=ST-c', 'new-key-0123456789abcdef0123456789')).status).toBe(200);
    await new Promise((r) => second.close(r));
  });
});
