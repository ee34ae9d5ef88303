/** Site picker, range (or custom dates) and the comparison: what the whole view is about. */
import { useState } from 'preact/hooks';
import type { SiteInfo } from '../api.js';
import { type DayRange, daysOf, RANGE_LABELS, RANGES, type RangeName, rangeDays } from '../dates.js';
import { type CompareChoice, COMPARES, type View, withRange } from '../state.js';

const COMPARE_LABELS: Record<CompareChoice, string> = { off: 'No comparison', previous_period: 'Previous period', year_over_year: 'Same dates a year before' };

export interface ControlsProps {
  view: View;
  sites: SiteInfo[];
  /** Whether to offer the site picker (a shared link reads one site). */
  picker: boolean;
  /** The site's today (dates.ts), once the sites list has said its time zone. */
  today: string | undefined;
  /** Whether the storage answers hours. */
  hours: boolean;
  onChange(view: View): void;
}

export function Controls({ view, sites, picker, today, hours, onChange }: ControlsProps) {
  // A long site name is cut at the picker's width; the whole of it is in the title.
  const picked = sites.find((s) => s.id === view.site);
  const siteTitle = picked ? `${picked.name} (${picked.id})` : undefined;
  const [editing, setEditing] = useState(view.range === 'custom');
  const [from, setFrom] = useState(view.custom?.from ?? '');
  const [to, setTo] = useState(view.custom?.to ?? '');
  const pickRange = (range: RangeName) => {
    if (range === 'custom') return setEditing(true);
    setEditing(false);
    // Until the sites list says the site's today, a computed range cannot be measured: 30 days' rules are a safe guess.
    onChange(withRange(view, range, undefined, daysOf(range, today) ?? 30, hours));
  };
  const apply = (event: Event) => {
    event.preventDefault();
    if (!from || !to || from > to) return;
    const custom: DayRange = { from, to };
    onChange(withRange(view, 'custom', custom, rangeDays(custom), hours));
  };
  const shown: RangeName = editing ? 'custom' : view.range;
  return (
    <div class="controls">
      {picker && (
        <label class="field">
          <span id="label-site">Site</span>
          <select aria-labelledby="label-site" value={view.site} title={siteTitle} onChange={(e) => onChange({ ...view, site: (e.currentTarget as HTMLSelectElement).value, filters: [] })}>
            {sites.map((s) => <option value={s.id} key={s.id}>{s.name} ({s.id})</option>)}
          </select>
        </label>
      )}
      <label class="field">
        <span id="label-period">Period</span>
        <select aria-labelledby="label-period" value={shown} onChange={(e) => pickRange((e.currentTarget as HTMLSelectElement).value as RangeName)}>
          {RANGES.map((r) => <option value={r} key={r}>{RANGE_LABELS[r]}</option>)}
        </select>
      </label>
      {editing && (
        <form class="range" onSubmit={apply}>
          <label class="field"><span>From</span><input type="date" value={from} required max={to || today} onInput={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} /></label>
          <label class="field"><span>To</span><input type="date" value={to} required min={from || undefined} onInput={(e) => setTo((e.currentTarget as HTMLInputElement).value)} /></label>
          <button type="submit">Apply</button>
        </form>
      )}
      <label class="field">
        <span id="label-compare">Compare with</span>
        <select aria-labelledby="label-compare" value={view.compare} onChange={(e) => onChange({ ...view, compare: (e.currentTarget as HTMLSelectElement).value as CompareChoice })}>
          {COMPARES.map((c) => <option value={c} key={c}>{COMPARE_LABELS[c]}</option>)}
        </select>
      </label>
    </div>
  );
}
