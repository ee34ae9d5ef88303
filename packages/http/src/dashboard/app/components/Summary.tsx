/** The five figures of `/stats`, each with its change against the compared range. */
import type { StatsResponse, SummaryComparison } from '@siteline/core';
import { useEffect } from 'preact/hooks';
import { changeOf, formatCount, formatDay, formatDuration, formatPercent } from '../format.js';
import type { Loaded } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';

type Stats = StatsResponse & { comparison?: SummaryComparison };

const FIGURES = [
  { field: 'visitors', label: 'Visitors', format: formatCount, higherIsBetter: true },
  { field: 'pageviews', label: 'Pageviews', format: formatCount, higherIsBetter: true },
  { field: 'sessions', label: 'Sessions', format: formatCount, higherIsBetter: true },
  { field: 'bounce_rate', label: 'Bounce rate', format: formatPercent, higherIsBetter: false },
  { field: 'avg_duration', label: 'Visit duration', format: formatDuration, higherIsBetter: true },
] as const;

const points = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/**
 * Counts and the duration change relative to the compared range (`+12%`); the bounce rate,
 * itself a percentage, changes in percentage points (`-3.5 pp`).
 */
function Change({ field, now, before, higherIsBetter }: { field: string; now: number; before: number; higherIsBetter: boolean }) {
  let text: string;
  let direction: number;
  if (field === 'bounce_rate') {
    direction = Math.round((now - before) * 10);
    text = `${points.format(Math.round((now - before) * 10) / 10)} pp`;
  } else {
    const change = changeOf(now, before);
    if (!change) return <span class="chg">new</span>;
    direction = Math.round(change.ratio * 100);
    text = change.text;
  }
  const good = direction === 0 ? '' : (direction > 0) === higherIsBetter ? ' good' : ' bad';
  return <span class={`chg${good}`}>{text}</span>;
}

export function Summary({ loaded }: { loaded: Loaded<Stats> }) {
  const stats = loaded.data;
  const comparison = stats?.comparison;
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
              {stats && comparison && <Change field={f.field} now={stats[f.field]} before={comparison[f.field]} higherIsBetter={f.higherIsBetter} />}
            </dd>
          </div>
        ))}
      </dl>
      {comparison && <p class="note">Changes against {formatDay(comparison.from)} – {formatDay(comparison.to)}.</p>}
    </section>
  );
}
