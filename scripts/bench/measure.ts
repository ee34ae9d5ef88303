/** Helpers of the bench: repeated runs, percentiles, number formatting, scratch databases. */
import { rmSync } from 'node:fs';

export interface Timing {
  p50: number;
  p95: number;
  runs: number;
}

/** Nearest-rank percentile of sorted milliseconds. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs `fn` `runs` times in a row and returns p50/p95 in ms, and the last result. */
export async function time<T>(runs: number, fn: () => Promise<T>): Promise<{ timing: Timing; result: T }> {
  const ms: number[] = [];
  let result!: T;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { timing: { p50: percentile(ms, 50), p95: percentile(ms, 95), runs }, result };
}

/**
 * Two functions timed in turns (a, b, a, b, ...), `runs` each: on a shared machine whose load
 * drifts, both see the same load, so the ratio of their p50s holds where two blocks of runs
 * one after the other would not.
 */
export async function timeInTurns<A, B>(runs: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[{ timing: Timing; result: A }, { timing: Timing; result: B }]> {
  const [ams, bms]: [number[], number[]] = [[], []];
  let [ra, rb]: [A | undefined, B | undefined] = [undefined, undefined];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    ra = await a();
    ams.push(performance.now() - t);
    t = performance.now();
    rb = await b();
    bms.push(performance.now() - t);
  }
  const timing = (ms: number[]): Timing => (ms.sort((x, y) => x - y), { p50: percentile(ms, 50), p95: percentile(ms, 95), runs });
  return [{ timing: timing(ams), result: ra as A }, { timing: timing(bms), result: rb as B }];
}

/** Milliseconds with a precision that suits their size. */
export const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));

/** 1234567 -> "1,234,567". */
export const int = (v: number): string => Math.round(v).toLocaleString('en-US');

/** A Markdown table. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Deletes a SQLite database file with its WAL and shared-memory files, if there. */
export function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/**
 * Waits for the column-cache loads a SQLite store's reads started (their days were read from the raw tables
 * meanwhile): timed runs after a first call measure the cache, not the raw tables. Nothing to wait for on other stores.
 */
export async function cacheFilled(storage: object): Promise<void> {
  await (storage as { columnCacheFilled?: () => Promise<void> }).columnCacheFilled?.();
}
