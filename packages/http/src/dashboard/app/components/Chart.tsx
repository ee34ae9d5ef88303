/**
 * The timeseries as an SVG line chart (hand-written: a few lines of geometry cost less than
 * a chart library, and SVG scales to any width), the compared range dashed, and the same
 * numbers as a table for keyboard and screen-reader users. Nothing is drawn after now: the
 * line stops at the bucket now falls in, which is drawn dashed and marked as running.
 */
import type { ImportedNote, Interval, TimeseriesRow } from '@siteline/core';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type DayRange, elapsedBuckets } from '../dates.js';
import { formatBucket, formatCount } from '../format.js';
import { type Metric, METRICS } from '../state.js';
import type { Loaded } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';

type Series = { timeseries: TimeseriesRow[]; comparison?: TimeseriesRow[]; imported?: ImportedNote };

const H = 240;
const PAD = { left: 52, right: 16, top: 12, bottom: 28 };
/** Points are marked with a dot up to this many buckets (beyond, dots would touch). */
const MARKED_POINTS = 48;
const METRIC_LABELS: Record<Metric, string> = { visitors: 'Visitors', pageviews: 'Pageviews', sessions: 'Sessions' };

/** A round step so that four steps reach `max`: 1, 2, 2.5 or 5 times a power of ten, and never under 1 (counts are whole). */
export function niceStep(max: number): number {
  const raw = Math.max(max, 1) / 4;
  if (raw <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
}

function path(points: [number, number][]): string {
  return points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join('');
}

export interface ChartProps {
  loaded: Loaded<Series>;
  metric: Metric;
  onMetric(metric: Metric): void;
  /** Whether the compared range is drawn (off, or nothing to compare with: not). */
  changes: boolean;
  /** Now, the site's zone and the view's days, once known: the buckets after now are not drawn. */
  clock?: { now: number; zone: string; range: DayRange } | undefined;
  /** The days that count as imported (runs): day buckets among them are shaded. */
  imported?: readonly { from: string; to: string }[] | undefined;
  /** The interval switch, rendered in the panel's header. */
  children?: ComponentChildren;
}

/** Runs `[first, last]` of consecutive indexes of the day buckets that fall in an imported range. */
function importedRuns(dates: readonly string[], ranges: readonly { from: string; to: string }[]): [number, number][] {
  const runs: [number, number][] = [];
  dates.forEach((date, i) => {
    if (!ranges.some((r) => r.from <= date && date <= r.to)) return;
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  });
  return runs;
}

export function Chart({ loaded, metric, onMetric, changes, clock, imported, children }: ChartProps) {
  const [hover, setHover] = useState<number | undefined>(undefined);
  // Drawn at the plot's own width in CSS pixels, so text keeps its size from a phone to a wide screen.
  const box = useRef<HTMLDivElement>(null);
  const [W, setW] = useState(800);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setW(Math.max(280, Math.round(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // The labels are those of the interval the shown rows were asked for (a newer choice may still be loading).
  const interval = (new URLSearchParams(loaded.query?.split('?')[1]).get('interval') ?? 'day') as Interval;
  const all = loaded.data?.timeseries ?? [];
  const { shown, current } = clock ? elapsedBuckets(all.map((r) => r.date), interval, clock.range, clock.now, clock.zone) : { shown: all.length, current: undefined };
  const rows = all.slice(0, shown);
  const before = changes ? loaded.data?.comparison : undefined;
  const values = rows.map((r) => r[metric]);
  const previous = before?.map((r) => r[metric]) ?? [];
  const step = niceStep(Math.max(0, ...values, ...previous));
  const top = step * 4;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = Math.max(all.length, previous.length, 2);
  const x = (i: number) => PAD.left + (i / (n - 1)) * plotW;
  const y = (v: number) => PAD.top + plotH * (1 - v / top);
  const labelEvery = Math.max(1, Math.ceil(all.length / Math.max(2, Math.floor(plotW / 90))));
  const complete = current ?? rows.length; // buckets before the running one
  const points = values.map((v, i): [number, number] => [x(i), y(v)]);
  const onMove = (event: PointerEvent) => {
    const rect = (event.currentTarget as SVGSVGElement).getBoundingClientRect();
    const at = ((event.clientX - rect.left) / rect.width) * W;
    const i = Math.round(((at - PAD.left) / plotW) * (n - 1));
    setHover(i >= 0 && i < rows.length ? i : undefined);
  };
  const hovered = hover === undefined ? undefined : rows[hover];
  // Imported days are daily totals: shaded on a chart by day only, and only when the answer includes them (a filter may leave them out).
  const shaded = interval === 'day' && imported && loaded.data?.imported?.included ? importedRuns(rows.map((r) => r.date), imported) : [];
  const half = plotW / (n - 1) / 2;
  const bucketName = (r: TimeseriesRow, i: number) => `${formatBucket(r.date, interval, true)}${i === current ? ' (so far)' : ''}`;
  return (
    <section class="panel chart" aria-labelledby="h-chart" data-panel="timeseries" data-query={loaded.query} aria-busy={loaded.busy ? 'true' : 'false'}>
      <div class="panel-head">
        <h2 id="h-chart">{METRIC_LABELS[metric]} over time</h2>
        <DownloadCsv loaded={loaded} label="the time series" />
        <div class="tabs" role="group" aria-label="Chart metric">
          {METRICS.map((m) => (
            <button type="button" key={m} aria-pressed={m === metric} onClick={() => onMetric(m)}>{METRIC_LABELS[m]}</button>
          ))}
        </div>
        {children}
      </div>
      {loaded.error && <p class="error" role="alert">{loaded.error}</p>}
      <div class="plot" ref={box}>
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${METRIC_LABELS[metric]} by ${interval}; the numbers are in the table below`} onPointerMove={onMove} onPointerLeave={() => setHover(undefined)}>
          {[0, 1, 2, 3, 4].map((k) => (
            <g key={k} class="grid">
              <line x1={PAD.left} x2={W - PAD.right} y1={y(k * step)} y2={y(k * step)} />
              <text x={PAD.left - 6} y={y(k * step) + 4} text-anchor="end">{formatCount(k * step)}</text>
            </g>
          ))}
          {all.map((r, i) => {
            if (i % labelEvery !== 0) return null;
            // A label near the right edge ends there instead of being cut in half.
            const anchor = x(i) > W - PAD.right - 40 ? 'end' : 'middle';
            return <text key={r.date} class="axis" x={anchor === 'end' ? W - 2 : x(i)} y={H - 8} text-anchor={anchor}>{formatBucket(r.date, interval)}</text>;
          })}
          {shaded.map(([first, last]) => (
            <rect key={first} class="imported-band" x={Math.max(PAD.left, x(first) - half)} y={PAD.top} height={plotH}
              width={Math.min(W - PAD.right, x(last) + half) - Math.max(PAD.left, x(first) - half)} data-from={rows[first]!.date} data-to={rows[last]!.date} />
          ))}
          {previous.length > 0 && <path class="line compared" d={path(previous.map((v, i) => [x(i), y(v)]))} />}
          {complete > 1 && <path class="line current" d={path(points.slice(0, complete))} />}
          {current !== undefined && current > 0 && <path class="line current running" d={path(points.slice(current - 1, current + 1))} />}
          {n <= MARKED_POINTS && points.map(([px, py], i) => (
            <circle key={i} class={i === current ? 'point running' : 'point'} cx={px} cy={py} r={i === current ? 4 : 2.5} data-date={rows[i]!.date} />
          ))}
          {hovered && hover !== undefined && (
            <g class="hover">
              <line x1={x(hover)} x2={x(hover)} y1={PAD.top} y2={PAD.top + plotH} />
              <circle cx={x(hover)} cy={y(values[hover]!)} r="4" />
            </g>
          )}
        </svg>
        {hovered && hover !== undefined && (
          <div class="tip" style={{ left: `${(x(hover) / W) * 100}%` }}>
            <strong>{bucketName(hovered, hover)}</strong>
            <span>{METRIC_LABELS[metric]}: {formatCount(hovered[metric])}</span>
            {before?.[hover] && <span>Before: {formatCount(before[hover]![metric])}</span>}
          </div>
        )}
      </div>
      {(before || current !== undefined || shaded.length > 0) && (
        <p class="legend">
          <span class="item"><span class="key current" /> This period</span>
          {shaded.length > 0 && <span class="item"><span class="key imported" /> Imported from Plausible</span>}
          {current !== undefined && <span class="item"><span class="key running" /> So far (not over yet)</span>}
          {before && <span class="item"><span class="key compared" /> Compared period</span>}
        </p>
      )}
      <details>
        <summary>Show as a table</summary>
        <table class="series">
          <thead>
            <tr><th scope="col">{interval === 'hour' ? 'Hour' : interval === 'week' ? 'Week of' : interval === 'month' ? 'Month' : 'Day'}</th><th scope="col" class="num">Visitors</th><th scope="col" class="num">Pageviews</th><th scope="col" class="num">Sessions</th></tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.date} data-date={r.date} data-running={i === current ? 'true' : undefined}>
                <th scope="row">{bucketName(r, i)}</th>
                <td class="num">{formatCount(r.visitors)}</td>
                <td class="num">{formatCount(r.pageviews)}</td>
                <td class="num">{formatCount(r.sessions)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
