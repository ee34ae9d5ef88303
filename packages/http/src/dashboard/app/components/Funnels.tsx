/**
 * The Funnels panel (funnels.md section 5): the site's saved funnels to pick from, and the
 * picked one's steps, each a horizontal bar of its visitors with the drop-off from the step
 * before and the conversion rates, under the view's filters and comparison (the API's
 * `/funnels`, like every panel), with "Download CSV". A site without funnels says how to add
 * one. The pick is the view's `funnel` (state.ts), so it is in the URL. On a site with imported
 * days in the range it says they are left out (funnels need each session's events).
 */
import type { ComparedFunnelsResponse, FunnelsResponse, FunnelStepRow } from '@siteline/core';
import type { SavedFunnel } from '../../saved-funnels.js';
import { changeBetween, formatCount, formatPercent } from '../format.js';
import type { View } from '../state.js';
import { useData } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';
import { ImportedNotice } from './ImportedNotice.js';
import './funnels.css';

type Body = FunnelsResponse | ComparedFunnelsResponse;
type Step = FunnelStepRow & { comparison?: Omit<FunnelStepRow, 'step'> };

export interface FunnelsProps {
  view: View;
  /** The view's report parameters (dates, filters, compare); undefined until they are known. */
  base: URLSearchParams | undefined;
  /** Whether changes against the compared range are shown (compare on, and data there). */
  changes: boolean;
  /** The account pages' address (a password sign-in), where an owner adds funnels. */
  account: string | undefined;
  /** A shared link's page: its viewers add nothing, so a site without funnels shows no panel. */
  shared: boolean;
  onChange(view: View): void;
}

/** A change told in the panel's words, green when it is for the better. */
function Change({ now, before, kind }: { now: number; before: number; kind: 'relative' | 'points' }) {
  const change = changeBetween(now, before, kind);
  if (!change) return null;
  return <span class={`chg${change.direction > 0 ? ' good' : change.direction < 0 ? ' bad' : ''}`}>{change.text}</span>;
}

export function Funnels({ view, base, changes, account, shared, onChange }: FunnelsProps) {
  // The list is asked with the view's parameters (the route reads only site_id), so the panel's request follows the view like every panel's.
  const saved = useData<{ funnels: SavedFunnel[] }>('saved-funnels', base);
  const funnels = saved.data?.funnels ?? [];
  // The URL's pick when the site has it, else the site's first funnel.
  const picked = funnels.find((f) => f.name === view.funnel) ?? funnels[0];
  const params = base && picked ? new URLSearchParams(base) : undefined;
  params?.set('funnel', picked!.name);
  const report = useData<Body>('funnels', params);
  const steps = (report.data?.steps ?? []) as Step[];
  const first = steps[0]?.visitors ?? 0;
  if (shared && saved.data && funnels.length === 0) return null;
  return (
    <section class="panel funnels" aria-labelledby="h-funnels" data-panel="funnels" data-query={report.query ?? saved.query} aria-busy={report.busy || saved.busy ? 'true' : 'false'}>
      <div class="panel-head">
        <h2 id="h-funnels">Funnels</h2>
        {funnels.length > 0 && (
          <label class="field">
            Funnel
            <select value={picked?.name} onChange={(e) => onChange({ ...view, funnel: (e.target as HTMLSelectElement).value })}>
              {funnels.map((f) => <option key={f.name} value={f.name}>{f.name}</option>)}
            </select>
          </label>
        )}
      </div>
      {picked && <DownloadCsv loaded={report} label={`the funnel ${picked.name}`} />}
      {saved.error && <p class="error" role="alert">{saved.error}</p>}
      {report.error && <p class="error" role="alert">{report.error}</p>}
      {saved.data && funnels.length === 0 && (
        <div class="empty">
          <p>No funnels for this site yet. A funnel follows visitors through steps in order: of those who saw the pricing page, how many opened the signup page, and how many signed up.</p>
          <p>
            {account ? <>An owner adds one on the account's <a href={`${account}funnels?site_id=${encodeURIComponent(view.site)}`}>Funnels page</a>, or on the server:</> : 'An owner adds one on the account\'s Funnels page, or on the server:'}
          </p>
          <pre>{`npx siteline funnels add --site ${view.site} --name "Pricing to signup" \\\n  --step page:/pricing --step page:/signup --step event:signup`}</pre>
        </div>
      )}
      {steps.length > 0 && (
        <ol class="funnel-steps">
          {steps.map((s, i) => (
            <li key={i} data-step={i + 1}>
              {i > 0 && (
                <p class="dropoff">
                  <span class="sr-only">From step {i} to step {i + 1}: </span>
                  {formatCount(s.dropoff)} dropped off ({formatPercent(s.dropoff_rate)}); {formatPercent(s.conversion_rate_step)} went on
                  {changes && s.comparison && <> <Change now={s.conversion_rate_step} before={s.comparison.conversion_rate_step} kind="points" /></>}
                </p>
              )}
              <div class="step-name"><span class="step-number">{i + 1}</span> {s.step}</div>
              <div class="step-bar" role="presentation"><span style={{ width: `${first > 0 ? (s.visitors / first) * 100 : 0}%` }} /></div>
              <div class="step-figures">
                <span><strong>{formatCount(s.visitors)}</strong> visitors{changes && s.comparison && <> <Change now={s.visitors} before={s.comparison.visitors} kind="relative" /></>}</span>
                {/* Step 2's share of step 1 is what "went on" says above it. */}
                {i >= 2 && <span>{formatPercent(s.conversion_rate)} of step 1{changes && s.comparison && <> <Change now={s.conversion_rate} before={s.comparison.conversion_rate} kind="points" /></>}</span>}
              </div>
            </li>
          ))}
        </ol>
      )}
      {steps.length > 0 && <ImportedNotice note={report.data?.imported} />}
      {steps.length > 0 && first === 0 && <p class="empty">{view.filters.length > 0 ? 'No session that matches the filters reached the first step in this period.' : 'No session reached the first step in this period.'}</p>}
    </section>
  );
}
