import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Storage } from '@siteline/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloudAuthenticator } from '../../packages/http/src/auth.js';
import { createApiHandler } from '../../packages/http/src/handler.js';
import { silentLogger } from '../../packages/http/src/log.js';
import { deploymentSetup, type Engine } from './engines.js';
import { command, serve, type Served } from './processes.js';

const { dir, tls, stops, engines } = deploymentSetup('cloud', ['SQLite', 'ClickHouse']);

describe.each(engines)('Cloud edition served by `siteline serve` on %s', (_name, make) => {
  let engine: Engine;
  let server: Served;
  let key = '';
  let keyId = '';
  let acme = '';
  const env = () => ({ ...engine.env, EDITION: 'cloud' });

  beforeAll(async () => {
    engine = await make('cloud');
    acme = /acct_[a-z0-9]{16}/.exec((await command(['accounts', 'add', '--name', 'Acme'], dir, env())).stdout)![0];
    const globex = /acct_[a-z0-9]{16}/.exec((await command(['accounts', 'add', '--name', 'Globex'], dir, env())).stdout)![0];
    await command(['sites', 'add', '--name', 'Acme shop', '--id', 'ST-acme', '--account', acme], dir, env());
    await command(['sites', 'add', '--name', 'Globex blog', '--id', 'ST-globex', '--account', globex], dir, env());
    const created = await command(['keys', 'create', '--account', acme, '--name', 'reporting'], dir, env());
    key = created.stdout.trim();
    keyId = /key_[a-z0-9]{12}/.exec(created.stderr)![0];
    server = await serve(dir, env(), tls);
    stops.push(() => server.stop());
  });

  it('starts in the Cloud edition on the configured engine', () => {
    expect(key).toMatch(/^st_[0-9a-f]{64}$/);
    expect(server.started).toMatchObject({ edition: 'cloud', storage: engine.name === 'SQLite' ? 'sqlite' : 'clickhouse' });
  });

  it("a key created by `siteline keys create` reads its own account's site; another account's is 404 like a missing one", async () => {
    expect(await server.get('/api/v1/live?site_id=ST-acme', key)).toEqual({ status: 200, body: '{"live":0}' });
    expect(await server.get('/api/v1/stats?site_id=ST-acme&from=2026-11-01&to=2026-11-01', key)).toEqual({
      status: 200, body: '{"visitors":0,"pageviews":0,"sessions":0,"bounce_rate":0,"avg_duration":0}',
    });
    expect(await server.get('/api/v1/live?site_id=ST-globex', key)).toEqual({ status: 404, body: '{"error":"Site not found."}' });
    expect(await server.get('/api/v1/live?site_id=ST-nothere', key)).toEqual({ status: 404, body: '{"error":"Site not found."}' });
    expect(await server.get('/api/v1/live?site_id=ST-acme')).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
  });

  it('`siteline keys revoke` in a second process ends the key for the running server at once', async () => {
    const listed = await command(['keys', 'list', '--account', acme], dir, env());
    expect(listed.stdout).toContain(`${keyId}  reporting  ${key.slice(0, 4)}…${key.slice(-4)}  `);
    expect(listed.stdout).not.toContain(key);
    expect(await command(['keys', 'revoke', '--account', acme, '--key', keyId], dir, env())).toEqual({
      stdout: `Revoked key ${keyId}; requests with it get 401 from now on.\n`, stderr: '',
    });
    expect(await server.get('/api/v1/live?site_id=ST-acme', key)).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
  });

  it('a key revoked by `siteline keys revoke` while its request is in flight gets 401', async () => {
    // The request waits inside the report until the revocation is done: the handler checks the key again before answering.
    const backend = await engine.open();
    const { key: second, info } = await backend.accounts.createKey(acme, 'in flight');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const storage: Storage = { ...backend.storage, summary: async (range) => (entered(), await gate, backend.storage.summary(range)) };
    const handler = createApiHandler({ storage, authenticate: cloudAuthenticator(backend.accounts), logger: silentLogger });
    const tlsFiles = { key: readFileSync(tls.keyFile), cert: readFileSync(tls.certFile) };
    const inProcess = https.createServer(tlsFiles, handler);
    await new Promise<void>((resolve) => inProcess.listen(0, '127.0.0.1', resolve));
    const { port } = inProcess.address() as AddressInfo;
    const reply = new Promise<{ status: number; body: string }>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port, path: '/api/v1/stats?site_id=ST-acme', ca: tlsFiles.cert, servername: 'localhost', headers: { Authorization: `Bearer ${second}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode!, body }));
      }).on('error', reject);
    });
    await inside;
    await command(['keys', 'revoke', '--account', acme, '--key', info.id], dir, env());
    release();
    expect(await reply).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
    await new Promise((resolve) => inProcess.close(resolve));
    await backend.close();
  });

  it('never writes a key to its output', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.out.stdout + server.out.stderr).not.toContain(key);
  });
});
