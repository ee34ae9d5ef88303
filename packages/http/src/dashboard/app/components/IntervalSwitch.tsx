/** Hour, day, week or month buckets for the chart: each offered only where the range allows it (dates.ts). */
import type { Interval } from '@siteline/core';
import { intervalsFor, MAX_HOUR_DAYS, MIN_MONTH_DAYS, MIN_WEEK_DAYS } from '../dates.js';
import { INTERVALS } from '../state.js';

const LABELS: Record<Interval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

/** Why an interval is not offered for this range. */
function why(interval: Interval, hours: boolean): string {
  switch (interval) {
    case 'hour': return hours ? `Hours are for ranges of up to ${MAX_HOUR_DAYS} days` : "This server's storage does not answer hours";
    case 'day': return 'A single day is drawn by hour';
    case 'week': return `Weeks are for ranges of at least ${MIN_WEEK_DAYS} days`;
    case 'month': return `Months are for ranges of at least ${MIN_MONTH_DAYS} days`;
  }
}

export interface IntervalSwitchProps {
  /** The interval drawn now. */
  interval: Interval | undefined;
  /** Days of the range; undefined until known. */
  days: number | undefined;
  /** Whether the server's storage answers hour buckets at all. */
  hours: boolean;
  onPick(interval: Interval): void;
}

export function IntervalSwitch({ interval, days, hours, onPick }: IntervalSwitchProps) {
  const allowed = days === undefined ? [] : intervalsFor(days, hours);
  return (
    <div class="tabs" role="group" aria-label="Interval">
      {INTERVALS.map((i) => {
        const disabled = !allowed.includes(i);
        return (
          <button type="button" key={i} aria-pressed={interval === i} disabled={disabled} title={disabled && days !== undefined ? why(i, hours) : undefined}
            onClick={() => onPick(i)}>{LABELS[i]}</button>
        );
      })}
    </div>
  );
}
