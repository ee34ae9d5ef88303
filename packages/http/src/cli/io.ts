import type { Readable } from 'node:stream';
import type { Backend } from '@siteline/core';
import { openBackend } from '../backend.js';
import { ConfigError, databaseLocation, type EnvVars, readEnvironment } from '../config.js';

/** Where a command reads and writes; `process` in real use, temp dirs and buffers in tests. */
export interface CliIo {
  cwd: string;
  env: EnvVars;
  stdin: Readable;
  /** Results and server logs (JSON lines). */
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Messages for the person at the terminal: progress, errors, first-run notes. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Ends the process after a server shutdown; default `process.exit`. */
  exit?: (code: number) => void;
}

/** Wrong use of the command line: exit code 2 and a pointer to `--help`. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Every command takes `--help`/`-h`. */
export const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Runs a `util.parseArgs` call (strict mode), turning its errors (unknown
 * flag, missing value, stray argument) into `UsageError`s.
 * @example const { values } = flags(() => parseArgs({ args, options: { ...HELP_FLAG }, strict: true }));
 */
export function flags<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** A whole number flag, or a `UsageError` naming the flag. */
export function intFlag(value: string | undefined, flag: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${flag} must be a whole number of at least ${min}, got "${value}".`);
  return Number(value);
}

/**
 * Runs `body` with the backend of `DATABASE_URL` (from `.env` or the environment) open,
 * closing it afterwards whatever happens. The commands that only touch data need nothing
 * else configured, and work on every engine.
 */
export async function withBackend<T>(io: CliIo, body: (backend: Backend) => Promise<T>): Promise<T> {
  const database = databaseLocation(readEnvironment(io.cwd, io.env), io.cwd);
  if ('problem' in database) throw new ConfigError([database.problem]);
  const backend = await openBackend(database.location);
  for (const notice of backend.notices ?? []) io.stderr.write(`siteline: ${notice}\n`);
  try {
    return await body(backend);
  } finally {
    await backend.close();
  }
}

/**
 * Refuses a command that only means something in the Cloud edition (`EDITION=cloud`): a
 * Community server never reads accounts or their keys, so making one would only mislead.
 */
export function requireCloud(io: CliIo, command: string): void {
  if (readEnvironment(io.cwd, io.env).EDITION === 'cloud') return;
  throw new Error(
    `${command} needs EDITION=cloud (in .env or the environment): accounts and their keys exist only in the Cloud edition. ` +
      'This is a Community installation: its one key is SERVICE_API_KEY, and "siteline users add" gives people a dashboard sign-in.',
  );
}

export const formatCount = (n: number) => n.toLocaleString('en-US');

/** `1 event`, `1,200 events`. */
export const count = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Prints rows as a left-aligned table under `header`. */
export function writeTable(io: CliIo, header: string[], rows: string[][]): void {
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => row[col]!.length)));
  for (const row of all) io.stdout.write(`${row.map((cell, col) => cell.padEnd(widths[col]!)).join('  ').trimEnd()}\n`);
}
