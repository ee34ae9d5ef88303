/**
 * Runs the `siteline` command as real processes, as a user would, from the TypeScript
 * sources (tsx's loader, `@siteline/*` resolved through tsconfig.json as vitest does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'packages/http/src/cli.ts');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const TSCONFIG = join(ROOT, 'tsconfig.json');

export const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Siteline {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the stream, or rejects with both streams after `ms`. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/** Starts `siteline <args>` in `cwd` with only PATH and `env` in its environment. */
export function siteline(args: string[], cwd: string, env: Record<string, string>): Siteline {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: TSCONFIG, ...env },
  });
  children.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const waitFor = async (stream: 'stdout' | 'stderr', pattern: RegExp, ms = 60_000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const match = pattern.exec(out[stream]);
      if (match) return match;
      if (child.exitCode !== null) break;
    }
    throw new Error(`siteline ${args.join(' ')}: no ${pattern} on ${stream}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
  };
  return { child, out, exited, waitFor };
}

/** Runs a `siteline` command to its end; rejects with its output when it exits non-zero. */
export async function command(args: string[], cwd: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const run = siteline(args, cwd, env);
  const code = await run.exited;
  if (code !== 0) throw new Error(`siteline ${args.join(' ')} exited ${code}\nstdout:\n${run.out.stdout}\nstderr:\n${run.out.stderr}`);
  return run.out;
}

export interface Served extends Siteline {
  /** Origin of the server, e.g. `https://127.0.0.1:41234`. */
  origin: string;
  /** The `server started` log entry. */
  started: Record<string, unknown>;
  /** GET on the server with the given key as Bearer token. */
  get(path: string, key?: string): Promise<{ status: number; body: string }>;
  /** POSTs a beacon to /collect. */
  beacon(body: object, userAgent?: string): Promise<number>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `siteline serve` on a free port with the given TLS files; resolves once it listens. */
export async function serve(cwd: string, env: Record<string, string>, tls: { certFile: string; keyFile: string }): Promise<Served> {
  const run = siteline(['serve'], cwd, { PORT: '0', TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile, ...env });
  const [line] = await run.waitFor('stdout', /^.*"server started".*$/m);
  const started = JSON.parse(line) as Record<string, unknown>;
  const origin = new URL(String(started.url)).origin.replace('localhost', '127.0.0.1');
  const ca = readFileSync(tls.certFile);
  const request = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(`${origin}${path}`, { method, ca, servername: 'localhost', agent: false, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject).end(body);
    });
  return {
    ...run,
    origin,
    started,
    get: (path, key) => request('GET', path, key ? { Authorization: `Bearer ${key}` } : {}),
    beacon: async (body, userAgent = CHROME_UA) =>
      (await request('POST', '/collect', { 'Content-Type': 'text/plain', 'User-Agent': userAgent }, JSON.stringify(body))).status,
    async stop() {
      run.child.kill('SIGTERM');
      return run.exited;
    },
  };
}

/** A port nothing listens on right now (the server is told it, as a person would set PORT). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A request to a served process as a browser on its pages would make it (its Origin, the
 * cookie, a form), from the loopback address `from` when given (127.0.0.2 … are other clients).
 */
export function browserRequest(
  server: Served, ca: Buffer, method: string, path: string,
  options: { cookie?: string; form?: Record<string, string>; key?: string; from?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (options.form) Object.assign(headers, { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin });
  const from = options.from ? { localAddress: options.from } : {};
  return new Promise((resolve, reject) => {
    const req = https.request(`${server.origin}${path}`, { method, ca, servername: 'localhost', agent: false, headers, ...from }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject).end(options.form ? new URLSearchParams(options.form).toString() : undefined);
  });
}

/** The `name=value` of the session cookie a reply sets ('' when none). */
export const cookieOf = (reply: Reply) => ([] as string[]).concat(reply.headers['set-cookie'] ?? [])[0]?.split(';', 1)[0] ?? '';
