/** The bench's generated import lines: the same sites and lines for every store and every process of a run. */
import { demoNdjson } from '../../packages/core/src/demo/index.js';

export interface BenchSite {
  id: string;
  name: string;
  timezone: string;
  domain: string;
  /** Pageviews over the whole span. */
  pageviews: number;
}

export interface LineOptions {
  days: number;
  seed: number;
  /** Instant (epoch ms) the data ends at. */
  end: number;
  /** Lines per chunk (one `importEvents` call each). */
  chunk: number;
}

/** A site's generated import lines, in chunks of `chunk` lines (the same lines every time). */
export function* siteChunks(site: BenchSite, options: LineOptions): Generator<string[]> {
  const lines: string[] = [];
  const perDay = site.pageviews / options.days;
  for (const line of demoNdjson({ siteId: site.id, days: options.days, pageviewsPerDay: perDay, seed: options.seed, end: options.end, timezone: site.timezone, domain: site.domain })) {
    lines.push(line);
    if (lines.length >= options.chunk) yield lines.splice(0);
  }
  if (lines.length > 0) yield lines;
}
