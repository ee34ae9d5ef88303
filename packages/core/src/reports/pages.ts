import { averageSeconds, bounceRate } from '../metrics/metrics.js';
import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { PageTotals, Storage } from '../storage/types.js';
import type { ComparedPagesResponse, PageRow, PagesResponse } from '../types.js';
import { attachComparison } from './compare.js';
import { addPages } from '../imported/merge.js';
import { importedPlan, readBoth, type ReportOptions, resolveQuery, withNote } from './resolve.js';

const rowsOf = (totals: PageTotals[]): PageRow[] =>
  totals
    .filter((p) => p.pageviews > 0)
    .map((p) => ({
      url: p.path,
      pageviews: p.pageviews,
      visitors: p.visitors,
      bounce_rate: bounceRate(p.entryBounces, p.entrySessions),
      avg_duration: averageSeconds(p.timeOnPageMs, p.timedViews),
    }));

/**
 * `/pages`: top pages by pageviews, then visitors, then url; at most `query.limit` rows.
 * With `compare`, each row's metrics over the compared range in `comparison`.
 * @example
 * const { pages } = await getPages(storage, parseQuery('pages', { site_id: 'ST-demo', limit: '10' }));
 */
export async function getPages(storage: Storage, query: Query, options?: ReportOptions): Promise<PagesResponse | ComparedPagesResponse> {
  const resolved = await resolveQuery(storage, query, options);
  const plan = await importedPlan(storage, resolved, { kind: 'pages' });
  const [main, other] = await readBoth(resolved, async (range) => {
    // A page filter reads the entry pages too: a session entering on a path viewed it.
    const [native, pages, entries] = await Promise.all([
      storage.pages(range, resolved.selection), plan.rows(range, [0]), plan.rows(range, [0], { table: 'entry_pages' }),
    ]);
    return addPages(native, pages, entries);
  });
  const pages = sortRows(rowsOf(main), ['pageviews', 'visitors'], ['url']).slice(0, query.limit);
  if (!other) return withNote({ pages }, plan.note);
  return withNote({
    pages: attachComparison(pages, rowsOf(other), (row) => row.url, (row) => ({
      pageviews: row?.pageviews ?? 0,
      visitors: row?.visitors ?? 0,
      bounce_rate: row?.bounce_rate ?? 0,
      avg_duration: row?.avg_duration ?? 0,
    })),
  }, plan.note);
}
