/** Hour, day, week or month buckets for the chart; hours only for ranges of up to 7 days. */
import type { Interval } from '@siteline/core';
import { hourAllowed, INTERVALS, type View } from '../state.js';

const LABELS: Record<Interval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

/** `hours`: whether the server's storage answers hour buckets at all. */
export function IntervalSwitch({ view, hours, onChange }: { view: View; hours: boolean; onChange(view: View): void }) {
  return (
    <div class="tabs" role="group" aria-label="Interval">
      {INTERVALS.map((i) => {
        const disabled = i === 'hour' && (!hours || !hourAllowed(view));
        return (
          <button type="button" key={i} aria-pressed={view.interval === i} disabled={disabled} title={disabled ? (hours ? 'Hours are available for ranges of up to 7 days' : "This server's storage does not answer hours") : undefined}
            onClick={() => onChange({ ...view, interval: i })}>{LABELS[i]}</button>
        );
      })}
    </div>
  );
}
