/** The five figures of `/stats`, each with its change against the compared range. */
import type { StatsResponse, SummaryComparison } from '@siteline/core';
import { useEffect } from 'preact/hooks';
import { changeBetween, type ChangeKind, formatCount, formatDays, formatDuration, formatPercent } from '../format.js';
import type { Loaded } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';

type Stats = StatsResponse & { comparison?: SummaryComparison };

const FIGURES = [
  { field: 'visitors', label: 'Visitors', format: formatCount, kind: 'relative', higherIsBetter: true },
  { field: 'pageviews', label: 'Pageviews', format: formatCount, kind: 'relative', higherIsBetter: true },
  { field: 'sessions', label: 'Sessions', format: formatCount, kind: 'relative', higherIsBetter: true },
  { field: 'bounce_rate', label: 'Bounce rate', format: formatPercent, kind: 'points', higherIsBetter: false },
  { field: 'avg_duration', label: 'Visit duration', format: formatDuration, kind: 'relative', higherIsBetter: true },
] as const;

/** A figure's change against the compared range (format.ts `changeBetween`), green when it is for the better. */
function Change({ now, before, kind, higherIsBetter }: { now: number; before: number; kind: ChangeKind; higherIsBetter: boolean }) {
  const change = changeBetween(now, before, kind);
  if (!change) return null;
  const good = change.direction === 0 ? '' : (change.direction > 0) === higherIsBetter ? ' good' : ' bad';
  return <span class={`chg${good}`}>{change.text}</span>;
}

/** Whether a compared range holds nothing at all: no change is worth showing against it. */
export const comparedEmpty = (comparison: SummaryComparison) => comparison.visitors === 0 && comparison.pageviews === 0 && comparison.sessions === 0;

export interface SummaryProps {
  loaded: Loaded<Stats>;
  /** Whether the view's range includes the site's today (still running). */
  running: boolean;
}

export function Summary({ loaded, running }: SummaryProps) {
  const stats = loaded.data;
  const comparison = stats?.comparison;
  const changes = comparison !== undefined && !comparedEmpty(comparison);
  useEffect(() => {
    // The moment figures are on screen, for the bench (scripts/bench/dashboard.ts) and anyone profiling.
    if (stats && performance.getEntriesByName('siteline:figures').length === 0) performance.mark('siteline:figures');
  }, [stats]);
  return (
    <section class="panel figures" aria-labelledby="h-summary" data-panel="stats" data-query={loaded.query} aria-busy={loaded.busy ? 'true' : 'false'}>
      <h2 id="h-summary" class="sr-only">Summary</h2>
      <DownloadCsv loaded={loaded} label="the summary" />
      {loaded.error && <p class="error" role="alert">{loaded.error}</p>}
      <dl>
        {FIGURES.map((f) => (
          <div class="figure" data-metric={f.field} key={f.field}>
            <dt>{f.label}</dt>
            <dd>
              <span class="value">{stats ? f.format(stats[f.field]) : '–'}</span>
              {stats && changes && <Change now={stats[f.field]} before={comparison[f.field]} kind={f.kind} higherIsBetter={f.higherIsBetter} />}
            </dd>
          </div>
        ))}
      </dl>
      {comparison && (
        <p class="note" data-comparison={changes ? 'shown' : 'empty'}>
          {changes
            ? `Changes against ${formatDays(comparison.from, comparison.to)}.${running ? ' Today is not over yet.' : ''}`
            : `Nothing to compare with: no data in ${formatDays(comparison.from, comparison.to)}.`}
        </p>
      )}
    </section>
  );
}
