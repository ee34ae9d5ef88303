import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { type AccountStore, createSqliteAccounts, createSqliteStorage } from '@siteline/core';

type SqliteStorage = ReturnType<typeof createSqliteStorage>;
import { DEFAULTS, type EnvVars, readEnvironment } from '../config.js';

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

/** The database of `DATABASE_PATH` (from `.env` or the environment); the commands that only touch data need nothing else configured. */
export function openStorage(io: CliIo): SqliteStorage {
  const vars = readEnvironment(io.cwd, io.env);
  return createSqliteStorage(resolve(io.cwd, vars.DATABASE_PATH ?? DEFAULTS.DATABASE_PATH));
}

/** Runs `body` with the database open, closing it afterwards whatever happens. */
export async function withStorage<T>(io: CliIo, body: (storage: SqliteStorage, accounts: AccountStore) => Promise<T>): Promise<T> {
  const storage = openStorage(io);
  try {
    return await body(storage, createSqliteAccounts(storage.db));
  } finally {
    await storage.close();
  }
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
