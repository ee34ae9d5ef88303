import { addFunnel } from '../funnels/funnels.js';
import { addGoal } from '../goals/goals.js';
import { importEvents, type ImportSummary } from '../import/import.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { Site } from '../types.js';
import { DEMO_FUNNELS, DEMO_GOALS } from './catalog.js';
import { demoNdjson } from './generate.js';

/** The site `siteline start` and `siteline demo` create. */
export const DEMO_SITE = { id: 'ST-demo', name: 'Demo', timezone: 'Europe/Berlin', domain: 'demo.siteline.test' } as const;

/**
 * Days of demo data by default: three 30-day periods, so the default view compared with the
 * previous period compares real traffic, and Last month and the 90-day views have data.
 */
export const DEMO_DAYS = 90;

export interface AddDemoSiteOptions {
  /** Site id; default `ST-demo`. */
  id?: string;
  /** Days of data ending now; default `DEMO_DAYS` (90). */
  days?: number;
  /** Approximate pageviews a day; default 400. */
  pageviewsPerDay?: number;
  /** Default 1. */
  seed?: number;
  /** End of the data (epoch ms, exclusive); default now, so `/live` has visitors too. */
  now?: number;
  /** The Cloud account that owns the site; default none (a Community site). */
  accountId?: string;
}

/**
 * Creates the demo site, on a storage that keeps goals and funnels adds the demo goals and
 * funnels (pricing to signup, docs to download), then imports generated traffic into it
 * (custom events with properties): saved first, as a site's goals usually are before its
 * history arrives, so a store that counts saved goals and funnels as an import settles
 * (ClickHouse) has them counted for the first dashboard. Fails, like
 * `createSite`, when a site with that id exists already.
 *
 * @example
 * const { site, summary } = await addDemoSite(storage);
 * console.log(`${site.id}: ${summary.pageviews} pageviews`);
 */
export async function addDemoSite(storage: Storage, options: AddDemoSiteOptions = {}): Promise<{ site: Site; summary: ImportSummary }> {
  const site = await createSite(storage, { ...DEMO_SITE, id: options.id ?? DEMO_SITE.id, accountId: options.accountId });
  if (storage.capabilities?.goals === true) for (const goal of DEMO_GOALS) await addGoal(storage, site.id, goal);
  if (storage.capabilities?.funnels === true) for (const funnel of DEMO_FUNNELS) await addFunnel(storage, site.id, funnel);
  const summary = await importEvents(
    storage,
    demoNdjson({
      siteId: site.id,
      days: options.days ?? DEMO_DAYS,
      pageviewsPerDay: options.pageviewsPerDay ?? 400,
      seed: options.seed ?? 1,
      end: options.now ?? Date.now(),
      timezone: site.timezone,
      domain: site.domain ?? DEMO_SITE.domain,
    }),
  );
  return { site, summary };
}
