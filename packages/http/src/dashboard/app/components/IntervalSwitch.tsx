/** Hour, day, week or month buckets for the chart; hours only for ranges of up to 7 days. */
import type { Interval } from '@siteline/core';
import { hourAllowed, INTERVALS, type View } from '../state.js';

const LABELS: Record<Interval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

export function IntervalSwitch({ view, onChange }: { view: View; onChange(view: View): void }) {
  return (
    <div class="tabs" role="group" aria-label="Interval">
      {INTERVALS.map((i) => {
        const disabled = i === 'hour' && !hourAllowed(view);
        return (
          <button type="button" key={i} aria-pressed={view.interval === i} disabled={disabled} title={disabled ? 'Hours are available for ranges of up to 7 days' : undefined}
            onClick={() => onChange({ ...view, interval: i })}>{LABELS[i]}</button>
        );
      })}
    </div>
  );
}
