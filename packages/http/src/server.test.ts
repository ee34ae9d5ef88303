import { type ChildProcess, execSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createSite } from '@siteline/core';
import { checkApiResponse } from '@siteline/http/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { openBackend } from './backend.js';
import { parseConfig, type ServerConfig } from './config.js';
import type { LogEntry } from './log.js';
import { startServer } from './server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'packages/http/src');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
/** Resolves `@siteline/*` to the TypeScript sources in the child processes, as vitest does here. */
const TSCONFIG = process.env.TSX_TSCONFIG_PATH ?? join(ROOT, 'tsconfig.json');
const dir = mkdtempSync(join(tmpdir(), 'siteline-server-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a TypeScript entry point in `dir` as a real process and collects its output. */
function run(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', TSX, script, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: TSCONFIG, ...env },
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (stream: 'stdout' | 'stderr', pattern: RegExp, ms = 60_000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const match = pattern.exec(out[stream]);
      if (match) return match;
      if (child.exitCode !== null) break;
    }
    throw new Error(`no ${pattern} on ${stream}; stdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
  };
  return { child, out, exited, waitFor };
}

interface Reply { status: number; body: string }

function request(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  const lib = url.startsWith('https:') ? https : http;
  const ca = url.startsWith('https:') ? readFileSync(join(dir, '.siteline/dev-cert.pem')) : undefined;
  return new Promise((resolve, reject) => {
    lib.get(url, { ca, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
        try {
          checkApiResponse({ method: 'GET', url, status: res.statusCode!, body, contentType: res.headers['content-type'] });
          resolve({ status: res.statusCode!, body });
        } catch (error) {
          reject(error);
        }
      });
    }).on('error', reject);
  });
}

const startedUrl = (stdout: string) => (JSON.parse(/^.*"server started".*$/m.exec(stdout)![0]) as { url: string }).url;
const tlsEnv = { PORT: '0', TLS_CERT_FILE: '.siteline/dev-cert.pem', TLS_KEY_FILE: '.siteline/dev-key.pem' };

// Real processes through tsx's loader (the demo makes 90 days of data): minutes on a loaded two-core machine, not seconds.
describe('the standalone server as a real process', { timeout: 120_000 }, () => {
  let key = '';

  it('`siteline start` on a fresh directory: key, certificate, demo data and a curl line that works', async () => {
    const server = run(join(SRC, 'cli.ts'), ['start'], { PORT: '0' });
    const [, curl] = await server.waitFor('stderr', /^ {2}(curl .+)$/m);
    key = /SERVICE_API_KEY.*\n\n {2}([0-9a-f]{64})\n/.exec(server.out.stderr)![1]!;
    expect(readFileSync(join(dir, '.env'), 'utf8')).toContain(`\nSERVICE_API_KEY=${key}\n`);
    expect(curl).toMatch(/^curl -sS --cacert .siteline\/dev-cert.pem -H "Authorization: Bearer [0-9a-f]{64}" "https:\/\/localhost:\d+\/api\/v1\/stats\?site_id=ST-demo"$/);

    const hasCurl = spawnSync('curl', ['--version']).status === 0;
    const body = hasCurl ? execSync(curl!, { cwd: dir, encoding: 'utf8' }) : (await request(/"(https:[^"]+)"/.exec(curl!)![1]!, { Authorization: `Bearer ${key}` })).body;
    checkApiResponse({ method: 'GET', url: /"(https:[^"]+)"/.exec(curl!)![1]!, status: 200, body });
    expect(JSON.parse(body)).toMatchObject({ visitors: expect.any(Number), pageviews: expect.any(Number), sessions: expect.any(Number) });
    expect(JSON.parse(body).pageviews).toBeGreaterThan(5_000);

    // stdout and stderr are two pipes: the log line may come after the curl line.
    const [started] = await server.waitFor('stdout', /^.*"server started".*$/m);
    const viaQuery = await request(`${startedUrl(started)}/pages?site_id=ST-demo&api_key=${key}`);
    expect(viaQuery.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.out.stdout).toContain('[REDACTED]');
    expect(server.out.stdout).not.toContain(key);
    expect(server.out.stdout).toMatch(/"server stopped"/);
  });

  it('`siteline serve` answers with the configured key and never writes it to its output', async () => {
    const server = run(join(SRC, 'cli.ts'), ['serve'], tlsEnv);
    await server.waitFor('stdout', /"server started"/);
    const base = startedUrl(server.out.stdout);
    const stats = await request(`${base}/stats?site_id=ST-demo`, { Authorization: `Bearer ${key}` });
    expect(stats.status).toBe(200);
    expect(JSON.parse(stats.body).visitors).toBeGreaterThan(0);
    expect((await request(`${base}/stats?site_id=ST-demo&api_key=${key}`)).status).toBe(200);
    expect((await request(`${base}/stats?site_id=ST-demo`, { Authorization: 'Bearer wrong' })).status).toBe(401);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.out.stdout + server.out.stderr).not.toContain(key);
    expect(server.out.stderr).toBe('');
  });

  it('collects beacons in its request thread, each committed before its 202, and exits cleanly', async () => {
    const server = run(join(SRC, 'cli.ts'), ['serve'], tlsEnv);
    await server.waitFor('stdout', /"server started"/);
    // On SQLite the request thread commits its beacons itself (group commits; the backend declares no worker thread).
    expect(JSON.parse(/^.*"server started".*$/m.exec(server.out.stdout)![0])).toMatchObject({ storage: 'sqlite', collector: 'request thread' });
    const origin = new URL(startedUrl(server.out.stdout)).origin;
    const ca = readFileSync(join(dir, '.siteline/dev-cert.pem'));
    const post = (body: object) =>
      new Promise<number>((resolve, reject) => {
        const req = https.request(`${origin}/collect`, { method: 'POST', ca, agent: false, headers: { 'Content-Type': 'text/plain', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' } }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject).end(JSON.stringify(body));
      });
    const beacon = { site_id: 'ST-demo', type: 'pageview', url: 'https://demo.siteline.test/from-the-worker', referrer: '' };
    expect(await Promise.all([post(beacon), post(beacon), post({ ...beacon, type: 'event', name: 'worker-test' })])).toEqual([202, 202, 202]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.out.stderr).toBe('');
    const stored = new Database(join(dir, 'siteline.db'), { readonly: true });
    const rows = stored.prepare("SELECT type, name FROM events WHERE path = '/from-the-worker' ORDER BY type").all();
    stored.close();
    expect(rows).toEqual([{ type: 0, name: '' }, { type: 0, name: '' }, { type: 1, name: 'worker-test' }]);
  });

  it('finishes an in-flight request after SIGTERM, refuses new connections, closes the database and exits 0', async () => {
    const fixture = join(dir, 'slow-serve.mts');
    writeFileSync(fixture, `
      import { openBackend } from ${JSON.stringify(join(SRC, 'backend.ts'))};
      import { loadConfig } from ${JSON.stringify(join(SRC, 'config.ts'))};
      import { runServer } from ${JSON.stringify(join(SRC, 'server.ts'))};
      const config = loadConfig(process.cwd());
      const backend = await openBackend(config.database, { role: 'serve' });
      const { storage } = backend;
      await runServer(config, {
        ...backend,
        storage: { ...storage, summary: async (range) => { await new Promise((r) => setTimeout(r, 700)); return storage.summary(range); } },
        close: async () => {
          await backend.close();
          const open = await storage.getSite('ST-demo').then(() => true, () => false);
          console.log(JSON.stringify({ msg: 'storage closed', open }));
        },
      });
    `);
    const server = run(fixture, [], tlsEnv);
    await server.waitFor('stdout', /"server started"/);
    const base = startedUrl(server.out.stdout);
    const slow = request(`${base}/stats?site_id=ST-demo`, { Authorization: `Bearer ${key}` });
    await new Promise((r) => setTimeout(r, 250));
    server.child.kill('SIGTERM');
    await server.waitFor('stdout', /"shutting down"/);
    await expect(request(`${base}/stats?site_id=ST-demo`, { Authorization: `Bearer ${key}` })).rejects.toThrow(/ECONNREFUSED/);
    const reply = await slow;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).pageviews).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
    const messages = server.out.stdout.trim().split('\n').map((line) => JSON.parse(line).msg);
    expect(messages.slice(-3)).toEqual(['request', 'storage closed', 'server stopped']);
    expect(server.out.stdout).toContain('"open":false');
  });
});

describe('startServer in process', () => {
  const logs: LogEntry[] = [];
  const logger = (entry: LogEntry) => logs.push(entry);
  const vars = { SERVICE_API_KEY: 'k'.repeat(40), PORT: '0' };
  const serve = async (config: ServerConfig) => startServer(config, await openBackend(config.database, { role: 'serve' }), { logger });

  it('speaks plain HTTP on loopback only behind a trusted proxy, requiring X-Forwarded-Proto: https', async () => {
    const config = parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_PATH: 'proxy.db' }, dir);
    const running = await serve(config);
    expect(running.url).toBe(`http://localhost:${running.port}/api/v1`);
    const url = `http://127.0.0.1:${running.port}/api/v1/stats?site_id=ST-none`;
    const auth = { Authorization: `Bearer ${vars.SERVICE_API_KEY}` };
    expect(await request(url, { ...auth, 'X-Forwarded-Proto': 'https' })).toEqual({ status: 404, body: '{"error":"Site not found."}' });
    expect(await request(url, auth)).toEqual({ status: 403, body: '{"error":"HTTPS is required."}' });
    await running.close();
    expect(logs.map((l) => l.msg)).toEqual(['server started', 'request', 'request', 'server stopped']);
  });

  it('EDITION=cloud serves account keys from the database; the Community key is not accepted', async () => {
    const cloud = parseConfig({ ...vars, EDITION: 'cloud', TRUST_PROXY: 'true', DATABASE_PATH: 'cloud.db' }, dir);
    const running = await serve(cloud);
    const { accounts, storage } = running.backend;
    const account = await accounts.createAccount('Acme');
    await createSite(storage, { id: 'ST-acme', name: 'Acme', accountId: account.id });
    const { key } = await accounts.createKey(account.id, 'test');
    const url = `http://127.0.0.1:${running.port}/api/v1/live?site_id=ST-acme`;
    const proto = { 'X-Forwarded-Proto': 'https' };
    expect(await request(url, { ...proto, Authorization: `Bearer ${key}` })).toEqual({ status: 200, body: '{"live":0}' });
    expect(await request(url, { ...proto, Authorization: `Bearer ${vars.SERVICE_API_KEY}` })).toEqual({ status: 401, body: '{"error":"Unauthorized"}' });
    await running.close();
  });

  it('collects on a worker thread only when the backend declares it (ClickHouse, through the spool): on SQLite, file or memory, in the request thread', async () => {
    const onFile = await serve(parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_URL: 'sqlite:worker.db' }, dir));
    expect([onFile.collector, onFile.backend.capabilities.writerThread]).toEqual(['request thread', false]);
    await onFile.close();
    const inMemory = await serve(parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_URL: ':memory:' }, dir));
    expect([inMemory.collector, inMemory.backend.capabilities.writerThread]).toEqual(['request thread', false]);
    await inMemory.close();
    const started = logs.filter((l) => l.msg === 'server started').slice(-2).map((l) => [l.collector, l.database]);
    expect(started).toEqual([['request thread', `sqlite:${join(dir, 'worker.db')}`], ['request thread', 'sqlite::memory:']]);
  });

  it('makes a database file others could read the owner\'s alone at start, and logs a warning saying so', async () => {
    const file = join(dir, 'loose.db');
    await (await openBackend({ engine: 'sqlite', path: file })).close();
    chmodSync(file, 0o644);
    const running = await serve(parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_PATH: 'loose.db' }, dir));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.msg)).toContain(`${file} was readable by others (mode 644): changed to 600, as every file holding data.`);
    await running.close();
  });

  it('refuses to start with a clear message on a busy port, and closes the backend it was given', async () => {
    const first = await serve(parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_PATH: 'a.db' }, dir));
    const busy = parseConfig({ ...vars, TRUST_PROXY: 'true', DATABASE_PATH: 'b.db', PORT: String(first.port) }, dir);
    const backend = await openBackend(busy.database, { role: 'serve' });
    await expect(startServer(busy, backend, { logger })).rejects.toThrow(`PORT ${first.port} is already in use on 127.0.0.1`);
    await expect(backend.storage.getSite('ST-x')).rejects.toThrow(/not open/);
    await first.close();
  });

});
