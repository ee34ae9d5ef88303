/**
 * `siteline serve` from the sources, in a process of its own, as a deployment runs it (HTTPS on
 * loopback, a throwaway certificate, the rate limit off): for the benches that load it from
 * outside (the dashboard in Chromium, the year's reads over HTTPS). A filtered read on a cold
 * store can hold its event loop for seconds, which must not stall the measuring process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { certificate } from './server.js';

/** CPU ticks (user + system, 100 per second) process `pid` has used. */
function ticks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once the processes together have used under 5% of a core for a second (the work a
 * request left behind, such as loads and counts in the background, done), or after two minutes.
 */
export async function settled(pids: readonly number[]): Promise<void> {
  const all = () => pids.reduce((sum, pid) => sum + ticks(pid), 0);
  for (let last = all(), deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = all();
    if (now - last < 5) return;
    last = now;
  }
}

export interface ServeProcess {
  port: number;
  pid: number;
  /** Resolves once the process has used under 5% of a core for a second (its start-up work, such as warming caches, done), or after two minutes. */
  settled(): Promise<void>;
  /** The process's resident memory now and its peak (`VmRSS`, `VmHWM`), MB. */
  rss(): { nowMb: number; peakMb: number };
  stop(): Promise<void>;
}

/** Starts `siteline serve` on `databaseUrl` (a SQLite file or `clickhouse://…`) with `key` as SERVICE_API_KEY; `env` adds settings. */
export async function startServe(databaseUrl: string, options: { key: string; dir: string; env?: Record<string, string> }): Promise<ServeProcess> {
  const root = resolve(import.meta.dirname, '../..');
  const tls = resolve(options.dir, 'tls');
  certificate(tls);
  const child: ChildProcess = spawn(process.execPath, ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'packages/http/src/cli.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
      SERVICE_API_KEY: options.key, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_PER_MINUTE: '0',
      TLS_CERT_FILE: join(tls, 'cert.pem'), TLS_KEY_FILE: join(tls, 'key.pem'), ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-100_000)));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-100_000)));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const status = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  for (const deadline = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const started = /"server started".*"url":"https:\/\/localhost:(\d+)\//.exec(output);
    if (started) {
      return {
        port: Number(started[1]),
        pid: child.pid!,
        settled: () => settled([child.pid!]),
        rss: () => ({ nowMb: status('VmRSS'), peakMb: status('VmHWM') }),
        stop: () => (child.kill('SIGTERM'), exited),
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`siteline serve did not start:\n${output}`);
  }
}
