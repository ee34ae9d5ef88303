/**
 * A server's start (issue 26): the standalone server in a process of its own (start-child.ts)
 * on a database, the clock at the data's end, so it warms the data's last 30 days in the
 * background as after any restart. From the fork: the time to the first answer of the
 * unfiltered /stats of the data's 30 days; then `wrk` on that request until 30 s after the
 * fork; the longest event-loop delay and the peak RSS in that window; when the warming ended;
 * `wrk` again, 10 s, once warm (the same run's reference); RSS settled after it.
 */
import { fork, spawn } from 'node:child_process';
import https from 'node:https';
import { fileURLToPath } from 'node:url';
import type { StartChildSetup, StartEnd, StartWindow } from './start-child.js';
import { int, ms, table } from './measure.js';
import { BENCH_KEY } from './server.js';

export interface WrkFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx (wrk's "Non-2xx"). */
  errors: number;
}

export interface StartResult {
  database: string;
  firstAnswerMs: number;
  /** When the server listened, ms after the fork (loading the sources through tsx takes a second or two of it). */
  listenedMs: number;
  /** When the warming ended, ms after the fork (NaN: not within two minutes). */
  warmedMs: number;
  window: StartWindow & { seconds: number; wrk: WrkFigures };
  warm: WrkFigures;
  end: StartEnd;
}

const toMs = (value: string, unit: string) => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1);

/** `wrk` GETs `url` with the bench key for `seconds`. */
export function wrk(url: string, seconds: number, connections: number): Promise<WrkFigures> {
  return new Promise((resolve, reject) => {
    const run = spawn('wrk', ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--latency', '-H', `Authorization: Bearer ${BENCH_KEY}`, url]);
    let out = '';
    run.stdout.on('data', (c: Buffer) => (out += c.toString()));
    run.on('error', reject).on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${out}`));
      const latency = (p: string) => {
        const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
        return m ? toMs(m[1]!, m[2]!) : NaN;
      };
      resolve({
        requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
        p50Ms: latency('50'),
        p99Ms: latency('99'),
        errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
      });
    });
  });
}

/** One GET with the bench key; resolves to the status. */
const get = (url: string) =>
  new Promise<number>((resolve, reject) => {
    https.get(url, { rejectUnauthorized: false, agent: false, headers: { Authorization: `Bearer ${BENCH_KEY}` } }, (res) => res.resume().on('end', () => resolve(res.statusCode!))).on('error', reject);
  });

/** Starts the server on `file` and measures its first 30 s (`seconds`), then once warm. */
export async function benchStart(o: { database: string; file: string; now: number; warm: boolean; tls: { certFile: string; keyFile: string }; path: string; seconds: number; connections: number }): Promise<StartResult> {
  const forked = performance.now();
  const child = fork(fileURLToPath(new URL('./start-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  child.on('message', (m: Record<string, unknown>) => {
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  /** The first message carrying `key` (rejects on the child's error or exit, or after `timeoutMs`). */
  const next = async (key: string, timeoutMs = 300_000): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find((m) => key in m || 'error' in m);
      if (found) {
        if ('error' in found && !(key in found)) throw new Error(`start (${o.database}): ${String(found.error)}`);
        messages.splice(messages.indexOf(found), 1);
        return found;
      }
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start (${o.database}): no ${key} (exit ${child.exitCode})`);
      await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 1_000)), exited]);
    }
  };
  try {
    const setup: StartChildSetup = {
      file: o.file, now: o.now, warm: o.warm,
      env: {
        SERVICE_API_KEY: BENCH_KEY, DATABASE_URL: o.file, HOST: '127.0.0.1', PORT: '0', TLS_CERT_FILE: o.tls.certFile, TLS_KEY_FILE: o.tls.keyFile,
        RATE_LIMIT_PER_MINUTE: '0', MAX_CONNECTIONS_PER_IP: '0',
      },
    };
    child.send(setup);
    const listening = await next('listening');
    const listenedMs = performance.now() - forked;
    const url = `https://127.0.0.1:${listening.listening as number}${o.path}`;
    const status = await get(url);
    if (status !== 200) throw new Error(`start (${o.database}): the first request answered ${status}`);
    const firstAnswerMs = performance.now() - forked;
    const windowWrk = await wrk(url, o.seconds - (performance.now() - forked) / 1000, o.connections);
    const seconds = (performance.now() - forked) / 1000;
    child.send('window');
    const window = (await next('window')).window as StartWindow;
    let warmedMs = Number.NaN;
    try {
      warmedMs = (await next('warmedMs', 120_000)).warmedMs as number + (listenedMs - (listening.listenMs as number));
    } catch {
      // Not warmed within two minutes: reported as such.
    }
    const warm = await wrk(url, 10, o.connections);
    child.send('finish');
    const end = (await next('end')).end as StartEnd;
    await exited;
    return { database: o.database, firstAnswerMs, listenedMs, warmedMs, window: { ...window, seconds, wrk: windowWrk }, warm, end };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** The start rows of the report: one per database, and what they are measured against. */
export function startTable(rows: readonly StartResult[], seconds: number): string {
  const mb = (kb: number) => `${int(kb / 1024)} MB`;
  return table(
    ['database', 'listening (from fork)', 'first answer', 'warming ended', `longest event-loop block, first ${seconds} s`, 'p99 delay', `wrk req/s, first ${seconds} s`, 'p99 ms', 'wrk req/s once warm', 'p99 ms', `first ${seconds} s / warm req/s`, 'peak RSS', 'settled RSS', 'column cache', 'days too large'],
    rows.map((r) => [
      r.database, `${ms(r.listenedMs)} ms`, `${ms(r.firstAnswerMs)} ms`, Number.isNaN(r.warmedMs) ? 'not in 2 min' : r.end.cache.loads === 0 ? 'no warming' : `${(r.warmedMs / 1000).toFixed(1)} s`, `${ms(r.window.maxBlockMs)} ms`, `${ms(r.window.p99BlockMs)} ms`,
      int(r.window.wrk.requestsPerSecond), ms(r.window.wrk.p99Ms), int(r.warm.requestsPerSecond), ms(r.warm.p99Ms),
      `${((r.window.wrk.requestsPerSecond / r.warm.requestsPerSecond) * 100).toFixed(0)}%`, mb(r.end.peakRssKb), mb(r.end.settledRssKb), mb(r.end.cache.bytes / 1024), String(r.end.cache.tooLarge),
    ]),
  );
}
