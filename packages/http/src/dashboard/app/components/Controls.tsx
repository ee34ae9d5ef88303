/** Site picker, period or custom range, and the comparison: what the whole view is about. */
import type { Period } from '@siteline/core';
import { useState } from 'preact/hooks';
import type { SiteInfo } from '../api.js';
import { type CompareChoice, PERIODS, type View } from '../state.js';

const PERIOD_LABELS: Record<Period, string> = { '1d': 'Today', '7d': '7 days', '30d': '30 days' };
const COMPARE_LABELS: Record<CompareChoice, string> = { previous_period: 'Previous period', year_over_year: 'Same dates a year before', off: 'Nothing' };

export interface ControlsProps {
  view: View;
  sites: SiteInfo[];
  /** Whether to offer the site picker (a shared link reads one site). */
  picker: boolean;
  onChange(view: View): void;
}

export function Controls({ view, sites, picker, onChange }: ControlsProps) {
  const custom = view.from !== undefined;
  const [editing, setEditing] = useState(custom);
  const [from, setFrom] = useState(view.from ?? '');
  const [to, setTo] = useState(view.to ?? '');
  const pickPeriod = (period: Period) => {
    setEditing(false);
    const { from: _f, to: _t, ...rest } = view;
    onChange({ ...rest, period });
  };
  const apply = (event: Event) => {
    event.preventDefault();
    if (from && to && from <= to) onChange({ ...view, from, to });
  };
  return (
    <div class="controls">
      {picker && (
        <label class="field">
          <span>Site</span>
          <select value={view.site} onChange={(e) => onChange({ ...view, site: (e.currentTarget as HTMLSelectElement).value, filters: [] })}>
            {sites.map((s) => <option value={s.id} key={s.id}>{s.name} ({s.id})</option>)}
          </select>
        </label>
      )}
      <fieldset class="tabs period">
        <legend>Period</legend>
        {PERIODS.map((p) => (
          <button type="button" key={p} aria-pressed={!custom && !editing && view.period === p} onClick={() => pickPeriod(p)}>{PERIOD_LABELS[p]}</button>
        ))}
        <button type="button" aria-pressed={custom || editing} aria-expanded={editing} onClick={() => setEditing(true)}>Custom</button>
      </fieldset>
      {editing && (
        <form class="range" onSubmit={apply}>
          <label class="field"><span>From</span><input type="date" value={from} required max={to || undefined} onInput={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} /></label>
          <label class="field"><span>To</span><input type="date" value={to} required min={from || undefined} onInput={(e) => setTo((e.currentTarget as HTMLInputElement).value)} /></label>
          <button type="submit">Apply</button>
        </form>
      )}
      <label class="field">
        <span>Compare with</span>
        <select value={view.compare} onChange={(e) => onChange({ ...view, compare: (e.currentTarget as HTMLSelectElement).value as CompareChoice })}>
          {(Object.keys(COMPARE_LABELS) as CompareChoice[]).map((c) => <option value={c} key={c}>{COMPARE_LABELS[c]}</option>)}
        </select>
      </label>
    </div>
  );
}
