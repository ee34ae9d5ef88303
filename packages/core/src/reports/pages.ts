import { averageSeconds, bounceRate } from '../metrics/metrics.js';
import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import type { PageRow, PagesResponse } from '../types.js';
import { type ReportOptions, resolveRange } from './resolve.js';

/**
 * `/pages`: top pages by pageviews, then visitors, then url; at most `query.limit` rows.
 * @example
 * const { pages } = await getPages(storage, parseQuery('pages', { site_id: 'ST-demo', limit: '10' }));
 */
export async function getPages(storage: Storage, query: Query, options?: ReportOptions): Promise<PagesResponse> {
  const { range } = await resolveRange(storage, query, options);
  const rows: PageRow[] = (await storage.pages(range))
    .filter((p) => p.pageviews > 0)
    .map((p) => ({
      url: p.path,
      pageviews: p.pageviews,
      visitors: p.visitors,
      bounce_rate: bounceRate(p.entryBounces, p.entrySessions),
      avg_duration: averageSeconds(p.timeOnPageMs, p.timedViews),
    }));
  return { pages: sortRows(rows, ['pageviews', 'visitors'], ['url']).slice(0, query.limit) };
}
