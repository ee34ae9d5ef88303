/**
 * `npm run check:packages` (CI runs it after `npm test`): the packages as a user installs
 * them. Packs each workspace package with `npm pack`, checks each tarball with publint and
 * @arethetypeswrong/cli (both must report nothing), installs the tarballs into a fresh
 * TypeScript project (dependencies from the registry, install scripts off: only types are
 * checked) and type-checks an ESM and a CommonJS consumer of every package's public API
 * with `strict` and WITHOUT `skipLibCheck`. Needs the packages built (`npm install` does it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const PACKAGES = ['core', 'http', 'client', 'clickhouse'];
const work = mkdtempSync(join(tmpdir(), 'siteline-packages-'));
const run = (command: string, args: string[], cwd: string) => {
  console.log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false' } });
};

try {
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  for (const name of PACKAGES) run('npm', ['pack', '--silent', '--pack-destination', tarballs, '--workspace', `@siteline/${name}`], root);
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz')).map((f) => join(tarballs, f));
  if (files.length !== PACKAGES.length) throw new Error(`expected ${PACKAGES.length} tarballs, got ${files.join(', ')}`);

  for (const file of files) {
    run(join(root, 'node_modules/.bin/publint'), ['run', file, '--strict'], root);
    run(join(root, 'node_modules/.bin/attw'), [file], root);
  }

  const project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const typescript = JSON.parse(execFileSync('npm', ['ls', 'typescript', '--json', '--depth', '0'], { cwd: root, encoding: 'utf8' })).dependencies.typescript.version;
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...files, `typescript@${typescript}`, '@types/node@20'], project);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] },
    include: ['*.ts', '*.cts'],
  }));
  writeFileSync(join(project, 'esm.ts'), `
import { type Backend, getStats, openSqliteBackend, parseQuery, type StatsResponse } from '@siteline/core';
import { testBackend, testStorage } from '@siteline/core/testing';
import { communityAuthenticator, createApiHandler, createCollectHandler, loadConfig, openBackend, startServer } from '@siteline/http';
import { createClient, type SitelineClient } from '@siteline/client';
import { openClickHouseBackend } from '@siteline/clickhouse';

const backend: Backend = openSqliteBackend(':memory:');
const stats: StatsResponse = await getStats(backend.storage, parseQuery('stats', { site_id: 'ST-demo' }));
const handler = createApiHandler({ storage: backend.storage, authenticate: communityAuthenticator('k'.repeat(32)) });
const collect = createCollectHandler({ backend });
const client: SitelineClient = createClient({ baseUrl: 'https://localhost/api/v1', apiKey: 'k' });
const config = loadConfig(process.cwd());
const running = await startServer(config, await openBackend(config.database, { role: 'serve' }));
const clickhouse: Promise<Backend> = openClickHouseBackend({ url: 'http://127.0.0.1:8123', database: 'siteline' });
export { stats, handler, collect, client, running, clickhouse, testBackend, testStorage };
`);
  writeFileSync(join(project, 'cjs.cts'), `
import core = require('@siteline/core');
import http = require('@siteline/http');
import sdk = require('@siteline/client');
import ch = require('@siteline/clickhouse');
const backend: core.Backend = core.openSqliteBackend(':memory:');
const handler: http.ApiHandler = http.createApiHandler({ storage: backend.storage, authenticate: http.communityAuthenticator('k'.repeat(32)) });
const client: sdk.SitelineClient = sdk.createClient({ baseUrl: 'https://localhost/api/v1', apiKey: 'k' });
const options: ch.ClickHouseBackendOptions = { url: 'http://127.0.0.1:8123' };
export = { handler, client, options };
`);
  run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], project);
  console.log('check:packages: publint and attw report nothing; the tarballs type-check in a fresh project without skipLibCheck.');
} finally {
  rmSync(work, { recursive: true, force: true });
}
