/**
 * Growth of the year's reads with the data: for each store, case and range, the slowest
 * endpoint's warm p50 at every size the folder holds results for (`pv-<pageviews>/year-<engine>.json`),
 * and the factor per tenfold of data from one size to the next, so a reader sees what ten
 * times more would cost.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { int, ms, table } from './measure.js';
import { YEAR_CASES, YEAR_RANGES, type YearCase, type YearRead } from './year-reads.js';

/** The growth table of `engine` over the sizes in `dir`, or undefined with fewer than two. */
export function growthTable(dir: string, engine: 'sqlite' | 'server'): string | undefined {
  const sizes = readdirSync(dir)
    .filter((d) => /^pv-\d+$/.test(d) && existsSync(join(dir, d, `year-${engine}.json`)))
    .map((d) => ({ pageviews: Number(d.slice(3)), reads: (JSON.parse(readFileSync(join(dir, d, `year-${engine}.json`), 'utf8')) as { reads: YearRead[] }).reads }))
    .filter((s) => s.reads.length > 0)
    .sort((a, b) => a.pageviews - b.pageviews);
  if (sizes.length < 2) return undefined;
  const rows: string[][] = [];
  for (const name of Object.keys(YEAR_CASES) as YearCase[]) {
    for (const range of YEAR_RANGES) {
      const worst = sizes.map((s) => {
        const mine = s.reads.filter((r) => r.case === name && r.range === range);
        return mine.length === 0 ? NaN : Math.max(...mine.map((r) => r.warm.p50));
      });
      if (worst.every(Number.isNaN)) continue;
      const growth = worst.slice(1).map((w, i) => {
        const tenfolds = Math.log10(sizes[i + 1]!.pageviews / sizes[i]!.pageviews);
        if (Number.isNaN(w) || Number.isNaN(worst[i]!)) return '';
        const factor = (w / worst[i]!) ** (1 / tenfolds);
        return `${factor < 0.1 ? factor.toPrecision(1) : factor < 10 ? factor.toFixed(1) : factor.toFixed(0)}x`;
      });
      rows.push([name, range, ...worst.map((w) => (Number.isNaN(w) ? '' : ms(w))), ...growth]);
    }
  }
  const label = (n: number) => (n >= 1e6 ? `${int(n / 1e6)}M` : int(n));
  return table(
    ['case', 'range', ...sizes.map((s) => `slowest p50 at ${label(s.pageviews)}`), ...sizes.slice(1).map((s, i) => `per 10x, ${label(sizes[i]!.pageviews)} to ${label(s.pageviews)}`)],
    rows,
  );
}
