import { SiteNotFoundError } from '../errors.js';
import type { Query } from '../query/parse.js';
import type { DayRange, Storage } from '../storage/types.js';
import { dayStart, localDay, shiftDay } from '../time/zone.js';
import type { Site } from '../types.js';

/** Who is asking and when; every field optional. */
export interface ReportOptions {
  /** The current instant (default: `Date.now()`); decides "today" and `/live`. */
  now?: number | Date;
  /**
   * Restrict to the sites of one account (Cloud keys). A site of another
   * account is reported exactly like a missing one. Omit for Community keys,
   * which read every site of the installation.
   */
  accountId?: string;
}

const PERIOD_DAYS = { '30d': 30, '7d': 7, '1d': 1 } as const;

/** Loads the site (404 when missing or not readable) and turns the query's dates into a `DayRange`. */
export async function resolveRange(storage: Storage, query: Query, options: ReportOptions = {}): Promise<{ site: Site; range: DayRange; now: number }> {
  const site = await readableSite(storage, query.siteId, options);
  const now = nowMs(options);
  let from: string;
  let to: string;
  if ('from' in query.dates) {
    ({ from, to } = query.dates);
  } else {
    to = localDay(now, site.timezone);
    from = shiftDay(to, 1 - PERIOD_DAYS[query.dates.period]);
  }
  const range: DayRange = {
    siteId: site.id,
    from,
    to,
    startMs: dayStart(from, site.timezone),
    endMs: dayStart(shiftDay(to, 1), site.timezone),
  };
  return { site, range, now };
}

/** The site, if it exists and `options.accountId` (when given) owns it. */
export async function readableSite(storage: Storage, siteId: string, options: ReportOptions = {}): Promise<Site> {
  const site = await storage.getSite(siteId);
  if (!site || (options.accountId !== undefined && site.accountId !== options.accountId)) throw new SiteNotFoundError();
  return site;
}

export function nowMs(options: ReportOptions): number {
  const { now } = options;
  return now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
}
