/**
 * The bench's data: one large site and a few small ones of seeded demo traffic
 * (packages/core/src/demo), imported with `importEvents` in chunks. One definition for
 * `npm run bench` and scripts/bench/dashboard.ts, so both measure the same database.
 */
import { DEMO_GOALS, demoNdjson } from '../../packages/core/src/demo/index.js';
import { addFunnel } from '../../packages/core/src/funnels/funnels.js';
import { addGoal } from '../../packages/core/src/goals/goals.js';
import { BENCH_FUNNEL, BENCH_FUNNEL_NAME } from './funnels.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import type { Storage } from '../../packages/core/src/storage/types.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { int, removeDatabase } from './measure.js';

export const BIG = { id: 'ST-bench', name: 'Bench', timezone: 'Europe/Berlin', domain: 'shop.example' };
const SMALL_ZONES = ['America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Sydney', 'America/Los_Angeles'];

export interface BenchSite {
  id: string;
  name: string;
  timezone: string;
  domain: string;
  pageviews: number;
}

/** The large site with `pageviews`, and `smallSites` sites of a hundredth of it (at least 2,000). */
export function benchSites(pageviews: number, smallSites: number): BenchSite[] {
  return [
    { ...BIG, pageviews },
    ...Array.from({ length: smallSites }, (_, i) => ({
      id: `ST-small${i + 1}`, name: `Small ${i + 1}`, timezone: SMALL_ZONES[i % SMALL_ZONES.length]!, domain: `small${i + 1}.example`,
      pageviews: Math.max(2000, Math.round(pageviews / 100)),
    })),
  ];
}

export interface DatasetOptions {
  days: number;
  seed: number;
  /** End of the data, epoch ms. */
  endMs: number;
  /** Lines per `importEvents` call. */
  chunk: number;
  /** A year's seasonal shape (`DemoOptions.seasonal`); default off. */
  seasonal?: boolean;
}

/** A site's generated import lines, one at a time (the same lines every time). */
export function siteLines(site: BenchSite, options: DatasetOptions): Generator<string> {
  return demoNdjson({
    siteId: site.id, days: options.days, pageviewsPerDay: site.pageviews / options.days, seed: options.seed, end: options.endMs, timezone: site.timezone,
    domain: site.domain, seasonal: options.seasonal ?? false,
  });
}

/** A site's generated import lines, in chunks of `chunk` lines (the same lines every time). */
export function* chunks(site: BenchSite, options: DatasetOptions): Generator<string[]> {
  const lines: string[] = [];
  for (const line of siteLines(site, options)) {
    lines.push(line);
    if (lines.length >= options.chunk) yield lines.splice(0);
  }
  if (lines.length > 0) yield lines;
}

/**
 * Creates a bench site with the demo goals (event and page goals) and the bench's funnel saved
 * (as the dashboard's Funnels panel needs; SQLite's slices hold saved funnels), on every store
 * the bench fills.
 */
export async function createBenchSite(storage: Storage, site: BenchSite): Promise<void> {
  await createSite(storage, site);
  for (const goal of DEMO_GOALS) await addGoal(storage, site.id, goal);
  await addFunnel(storage, site.id, { name: BENCH_FUNNEL_NAME, steps: BENCH_FUNNEL });
}

/**
 * A line without its custom event's `props`: the same data as before events had properties,
 * for measuring what properties cost (import, collect) in the same run.
 */
export function withoutProps(line: string): string {
  if (!line.includes('"props"')) return line;
  const { props: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** Creates `file` afresh with every site's lines; returns events and seconds spent in importEvents. */
export async function loadDataset(file: string, sites: BenchSite[], options: DatasetOptions & { now: () => number; log: (text: string) => void }): Promise<{ events: number; seconds: number; generateSeconds: number }> {
  removeDatabase(file);
  const storage = createSqliteStore(file, { now: options.now });
  let events = 0;
  let importMs = 0;
  let generateMs = 0;
  for (const site of sites) {
    await createBenchSite(storage, site);
    let t = performance.now();
    for (const lines of chunks(site, options)) {
      generateMs += performance.now() - t;
      t = performance.now();
      await importEvents(storage, lines);
      importMs += performance.now() - t;
      events += lines.length;
      options.log(`imported ${int(events)} events (${int((events / importMs) * 1000)}/s)`);
      t = performance.now();
    }
  }
  storage.db.pragma('wal_checkpoint(TRUNCATE)');
  await storage.close();
  return { events, seconds: importMs / 1000, generateSeconds: generateMs / 1000 };
}
