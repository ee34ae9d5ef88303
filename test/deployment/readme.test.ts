/**
 * The README as a newcomer uses it: its shell blocks pasted, in order, into bash in a fresh
 * clone of the committed tree, and every command must succeed.
 *
 * The clone gets this checkout's installed dependencies (each linked in, the workspace
 * packages linked to the clone's own) and is built with its own `npm run build`: what
 * `npm install` does, without the network. A block after `<!-- readme-test: server -->`
 * (`npm start`) runs in the background until the end, as in a second terminal; a block after
 * `<!-- readme-test: skip ... -->` is not run (`npm install`: done as just said). Every
 * other `sh` block runs in one bash (`set -euo pipefail`), so a variable or function a block
 * defines serves the next ones. The server is told a free port through `PORT`, as `.ci/run`
 * does (several checkouts share this machine); the later blocks get no `PORT`: they find the
 * server through `.env`, as a reader's shell does. Only committed text is tested: commit the
 * README before running this.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Asynchronous: a build of a minute blocking this process would stall the test runner's messages to it past their timeout. */
const execute = promisify(execFile);

export interface ReadmeBlock {
  /** `run` (default), `server` (background, kept running) or `skip`. */
  mode: 'run' | 'server' | 'skip';
  code: string;
  line: number;
}

/** The README's `sh`/`bash`/`shell` blocks in order, each with the marker of the line before it. */
export function shellBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (['sh', 'bash', 'shell'].includes(open[1]!)) {
      const marker = /^<!-- readme-test: (server|skip)\b/.exec(lines[i - 1] ?? '');
      blocks.push({ mode: (marker?.[1] as ReadmeBlock['mode'] | undefined) ?? 'run', code: lines.slice(i + 1, end).join('\n'), line: i + 2 });
    }
    i = end;
  }
  return blocks;
}

/** This checkout's `node_modules` in the clone: third-party packages linked, workspace links pointing into the clone. */
function linkDependencies(clone: string): void {
  const from = join(ROOT, 'node_modules');
  const to = join(clone, 'node_modules');
  const relink = (dir: string) => {
    mkdirSync(join(to, dir), { recursive: true });
    for (const name of readdirSync(join(from, dir))) {
      const source = join(from, dir, name);
      // A relative link (a workspace package, a .bin entry) means the same inside the clone.
      if (lstatSync(source).isSymbolicLink() && !readlinkSync(source).startsWith('/')) symlinkSync(readlinkSync(source), join(to, dir, name));
      else symlinkSync(source, join(to, dir, name));
    }
  };
  relink('.bin');
  for (const name of readdirSync(from)) {
    if (name.startsWith('.')) continue; // caches and npm's own notes
    const source = join(from, name);
    if (name === '@siteline' || (lstatSync(source).isSymbolicLink() && !readlinkSync(source).startsWith('/'))) {
      if (lstatSync(source).isSymbolicLink()) symlinkSync(readlinkSync(source), join(to, name));
      else relink(name);
    } else {
      symlinkSync(source, join(to, name));
    }
  }
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const own = join(ROOT, 'packages', pkg, 'node_modules');
    if (existsSync(own)) symlinkSync(own, join(clone, 'packages', pkg, 'node_modules'));
  }
}

/** Ends a process started with `detached` and everything it started (its process group). */
async function stopGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return; // already gone
  }
  await exited;
}

describe('the README, pasted into a shell in a fresh clone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-readme-'));
  let server: ChildProcess | undefined;
  let commands: ChildProcess | undefined;
  afterAll(async () => {
    await stopGroup(commands, 'SIGKILL');
    await stopGroup(server, 'SIGTERM'); // npm and the server it started
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the quick start: npm install (done by the test), npm start (a server), then commands', () => {
    const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    // The install and the server come first: every other block runs after them.
    expect(blocks.slice(0, 2).map((b) => [b.mode, b.code])).toEqual([['skip', 'npm install'], ['server', 'npm start']]);
    expect(blocks.filter((b) => b.mode === 'skip')).toHaveLength(1); // the set not run stays small
    // Nothing that starts the whole suite, a benchmark or another server from within this test.
    expect(blocks.filter((b) => b.mode === 'run' && /\bnpm (test|run (bench|accuracy|build))\b|\bnpm start\b/.test(b.code))).toEqual([]);
    expect(blocks.filter((b) => b.mode === 'run').length).toBeGreaterThan(5);
  });

  it('runs every command of the README, in order, and each succeeds', async () => {
    const clone = join(dir, 'siteline');
    await execute('git', ['clone', '--quiet', '--depth', '1', `file://${ROOT}`, clone]);
    const blocks = shellBlocks(readFileSync(join(clone, 'README.md'), 'utf8'));
    linkDependencies(clone);
    const home = join(dir, 'home');
    mkdirSync(home);
    // Only what a person's shell would have: this Node first on the PATH, no PORT, no key.
    const env: Record<string, string> = {
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      LANG: 'C.UTF-8',
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    await execute('npm', ['run', 'build'], { cwd: clone, env });

    // npm start, in the background as in another terminal, on a free port.
    const serving = blocks.find((b) => b.mode === 'server')!;
    let output = '';
    server = spawn('bash', ['-c', serving.code], { cwd: clone, env: { ...env, PORT: String(await freePort()) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    for (const deadline = Date.now() + 120_000; !/^ {2}curl /m.test(output); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`README line ${serving.line}: the server did not start\n${output}`);
    }
    const port = /^PORT=(\d+)$/m.exec(readFileSync(join(clone, '.env'), 'utf8'))?.[1];

    const script = ['set -euo pipefail', ...blocks.filter((b) => b.mode === 'run').map((b) => `echo "::README line ${b.line}::" >&2\n${b.code}`)].join('\n');
    // Its own process group, so that a command that hangs is stopped with all it started.
    const run = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    commands = run;
    let out = '';
    let err = '';
    run.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    run.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => run.on('exit', (c) => resolve(c)));
    // A command that hangs fails here, naming its block, rather than at the test's timeout.
    const stuck = setTimeout(() => void stopGroup(run, 'SIGKILL'), 120_000);
    const code = await exited;
    clearTimeout(stuck);
    const failedAt = [...err.matchAll(/::README line (\d+)::/g)].pop()?.[1];
    expect({ code, failedAt: code === 0 ? undefined : failedAt, err: code === 0 ? '' : err, out: code === 0 ? '' : out }).toEqual({ code: 0, failedAt: undefined, err: '', out: '' });

    // The commands did their work against the server `npm start` runs, found through .env.
    expect(out).toMatch(/^\{"visitors":\d+,"pageviews":\d+/m);
    expect(out).toContain('Imported 2 events (1 pageview, 1 custom event) in 1 session for ST-blog');
    expect(out).toMatch(new RegExp(`^https://localhost:${port}/dashboard/set-password\\?token=[A-Za-z0-9_-]{43}$`, 'm'));
    expect(readFileSync(join(clone, 'demo-week.ndjson'), 'utf8')).toMatch(/^\{"site_id":"ST-demo","ts":/);
  }, 300_000);
});
