/**
 * What an email report says, read through the API's own report functions with the API's
 * own query parser, so the mail carries exactly what `/stats`, `/pages`, `/referrers` and
 * `/goals` answer for the same days: no second computation to drift.
 */
import { parseQuery } from '../query/parse.js';
import { getReferrers } from '../reports/breakdowns.js';
import { getGoals } from '../reports/goals.js';
import { getPages } from '../reports/pages.js';
import { getStats } from '../reports/summary.js';
import type { Storage } from '../storage/types.js';
import type { GoalRow, PageRow, ReferrerRow, Site, StatsResponse } from '../types.js';
import type { DayPair, ReportPeriod } from './periods.js';

/** Rows of each list a report shows. */
export const REPORT_TOP_ROWS = 5;

export interface ReportFigures {
  site: Site;
  period: ReportPeriod;
  /** `/stats` of the period, and of the period before (the change is shown against it). */
  stats: StatsResponse;
  previous: StatsResponse;
  /** The first `REPORT_TOP_ROWS` rows of `/pages`, `/referrers` and `/goals` of the period. */
  pages: PageRow[];
  sources: ReferrerRow[];
  /** Undefined when the storage keeps no goals. */
  goals: GoalRow[] | undefined;
}

/**
 * The figures of a site's report for a period.
 * @example const figures = await reportFigures(backend.storage, site, latestPeriod('week', Date.now(), site.timezone));
 */
export async function reportFigures(storage: Storage, site: Site, period: ReportPeriod): Promise<ReportFigures> {
  const params = (days: DayPair, extra: Record<string, string> = {}) => ({ site_id: site.id, from: days.from, to: days.to, ...extra });
  const [stats, previous, pages, referrers, goals] = await Promise.all([
    getStats(storage, parseQuery('stats', params(period))),
    getStats(storage, parseQuery('stats', params(period.previous))),
    getPages(storage, parseQuery('pages', params(period, { limit: String(REPORT_TOP_ROWS) }))),
    getReferrers(storage, parseQuery('referrers', params(period))),
    storage.capabilities?.goals === true ? getGoals(storage, parseQuery('goals', params(period))) : undefined,
  ]);
  return {
    site, period, stats, previous, pages: pages.pages.slice(0, REPORT_TOP_ROWS), sources: referrers.referrers.slice(0, REPORT_TOP_ROWS),
    goals: goals?.goals.slice(0, REPORT_TOP_ROWS),
  };
}
