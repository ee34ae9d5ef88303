/**
 * CI smoke test of the ClickHouse deployment, as a user runs it: a real clickhouse-server
 * on loopback, then the installed `siteline` command (the built package, node_modules/.bin)
 * `start` with `DATABASE_URL=clickhouse://...` in an empty directory; the curl line it
 * prints must return the demo data. Exits non-zero with the server's output otherwise.
 */
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startClickHouse } from '../../packages/clickhouse/src/testing/test-server.js';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'siteline-ch-smoke-'));
const clickhouse = await startClickHouse();
const env = { PATH: process.env.PATH ?? '', PORT: '18444', DATABASE_URL: `clickhouse://default:@127.0.0.1:${clickhouse.httpPort}/siteline` };
console.log(`ci: siteline start with DATABASE_URL=${env.DATABASE_URL}`);
const server = spawn(join(root, 'node_modules/.bin/siteline'), ['start'], { cwd: dir, env });
let output = '';
server.stdout.on('data', (chunk: Buffer) => (output += chunk));
server.stderr.on('data', (chunk: Buffer) => (output += chunk));
let failure: string | undefined;
try {
  let curl: string | undefined;
  for (let i = 0; i < 240 && !curl && server.exitCode === null; i++) {
    curl = /^ {2}(curl .+)$/m.exec(output)?.[1];
    if (!curl) await new Promise((r) => setTimeout(r, 500));
  }
  if (!curl) throw new Error('siteline start printed no curl line');
  const body = execSync(curl, { cwd: dir, encoding: 'utf8' });
  console.log(`ci: ${body}`);
  const stats = JSON.parse(body) as { pageviews?: number };
  if (!(Number(stats.pageviews) > 0)) throw new Error('the ClickHouse quick start returned no data');
  if (!/"storage":"clickhouse"/.test(output)) throw new Error('the server did not start on ClickHouse');
} catch (error) {
  failure = `${(error as Error).message}\n--- siteline output ---\n${output}`;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await clickhouse.stop();
  rmSync(dir, { recursive: true, force: true });
}
if (failure) {
  console.error(`ci: ${failure}`);
  process.exit(1);
}
console.log('ci: ClickHouse quick start ok');
