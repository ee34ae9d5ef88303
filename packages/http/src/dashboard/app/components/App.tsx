/** The dashboard: the view from the URL, every panel's request derived from it. */
import type { FilterCondition, StatsResponse, SummaryComparison, TimeseriesRow } from '@siteline/core';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Capabilities, getData, type SitesResponse } from '../api.js';
import { EMBEDDED, meta, SHARED_SITE, withLook } from '../page.js';
import { BREAKDOWN_LABELS, GOALS_PANEL, PANELS } from '../panels.js';
import { BREAKDOWNS, readView, reportParams, type View, withFilter, withoutFilter, writeView } from '../state.js';
import { useData } from '../use-data.js';
import { Chart } from './Chart.js';
import { Chips } from './Chips.js';
import { Controls } from './Controls.js';
import { NoData, NoSites } from './EmptySite.js';
import { IntervalSwitch } from './IntervalSwitch.js';
import { Live } from './Live.js';
import { type OpenProperties, Properties } from './Properties.js';
import { RankedTable } from './RankedTable.js';
import { Summary } from './Summary.js';

/**
 * What the storage is assumed to answer until the sites list says: filters and hours (the
 * URL's view is asked at once, a refusal shows in its panel), but no goals or properties
 * (their panels would ask unasked-for reports a storage may refuse).
 */
const UNTIL_SITES: Capabilities = { filters: true, hours: true, properties: false, goals: false };

type Stats = StatsResponse & { comparison?: SummaryComparison };
type Series = { timeseries: TimeseriesRow[]; comparison?: TimeseriesRow[] };

/** The view the page was opened with, when its URL names a site (a shared link's page: always its site): its reports start at once, beside the sites list. */
function viewFromUrl(): View | undefined {
  if (SHARED_SITE) return { ...readView(location.search, SHARED_SITE), site: SHARED_SITE };
  return new URLSearchParams(location.search).get('site_id') ? readView(location.search, '') : undefined;
}

export function App() {
  const [sites, setSites] = useState<SitesResponse | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [view, setView] = useState<View | undefined>(viewFromUrl);

  useEffect(() => {
    if (view) history.replaceState(null, '', withLook(writeView(view)));
    getData<SitesResponse>('sites').then(
      (body) => {
        setSites(body);
        setView((current) => {
          if (current) return current;
          const first = readView(location.search, body.sites[0]?.id ?? '');
          history.replaceState(null, '', withLook(writeView(first)));
          return first;
        });
      },
      (error: Error) => setFailure(error.message),
    );
    const onPop = () => setView((current) => (current ? { ...readView(location.search, current.site), ...(SHARED_SITE ? { site: SHARED_SITE } : {}) } : current));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const navigate = (next: View) => {
    history.pushState(null, '', withLook(writeView(next)));
    setView(next);
  };

  const title = SHARED_SITE ? sites?.sites[0]?.name : undefined;
  if (failure) return <Shell title={title}><p class="error" role="alert">{failure}</p></Shell>;
  if (sites?.sites.length === 0) return <Shell title={title}><NoSites /></Shell>;
  if (!view || !view.site) return <Shell title={title}><p class="loading">Loading…</p></Shell>;
  const site = sites?.sites.find((s) => s.id === view.site);
  // Until the list arrives (or when the URL names a site the key cannot read), the picker holds the URL's site.
  const choices = site && sites ? sites.sites : [{ id: view.site, name: view.site, domain: null, timezone: '' }, ...(sites?.sites ?? [])];
  // A shared link's segment: conditions every answer carries, shown as chips the viewer cannot remove.
  const segment = sites?.segment ?? [];
  return (
    <Shell title={title}>
      <Controls view={view} sites={choices} picker={!SHARED_SITE} onChange={navigate} />
      {segment.length === 0 && <Live site={view.site} />}
      <Chips locked={segment} filters={view.filters} onRemove={(i) => navigate(withoutFilter(view, i))} onClear={() => navigate({ ...view, filters: [] })} />
      {sites && !sites.can.filters && <p class="note">This server's storage does not answer filtered queries yet, so rows cannot be clicked to filter.</p>}
      <Reports view={view} can={sites?.can ?? UNTIL_SITES} onChange={navigate} empty={(filtered) => (site && sites ? <NoData site={site} tracker={SHARED_SITE ? undefined : sites.tracker} filtered={filtered || segment.length > 0} /> : null)} />
    </Shell>
  );
}

/** The page's header: the sign-out form and, for an owner, the account pages; a shared link's page shows its site's name, an embedded one nothing. */
function Shell({ title, children }: { title: string | undefined; children: ComponentChildren }) {
  const account = meta('siteline-account');
  if (EMBEDDED) return <main class="content">{children}</main>;
  if (SHARED_SITE) {
    return (
      <>
        <header class="top"><span class="brand">{title ?? ''}</span><span class="shared-note">Shared dashboard · Siteline</span></header>
        <main class="content">{children}</main>
      </>
    );
  }
  return (
    <>
      <header class="top">
        <span class="brand">Siteline</span>
        <span class="top-actions">
          {account && <a href={account}>Account</a>}
          <form method="post" action="dashboard/sign-out"><input type="hidden" name="csrf" value={meta('csrf-token') ?? ''} /><button type="submit">Sign out</button></form>
        </span>
      </header>
      <main class="content">{children}</main>
    </>
  );
}

interface ReportsProps {
  view: View;
  /** What the storage answers (until the sites list arrives: assumed all). */
  can: Capabilities;
  onChange(view: View): void;
  empty(filtered: boolean): ComponentChildren;
}

function Reports({ view, can, onChange, empty }: ReportsProps) {
  const base = useMemo(() => reportParams(view), [view.site, view.period, view.from, view.to, JSON.stringify(view.filters), view.compare]);
  const withParam = (name: string, value: string) => {
    const params = new URLSearchParams(base);
    params.set(name, value);
    return params;
  };
  const stats = useData<Stats>('stats', base);
  const series = useData<Series>('stats/timeseries', withParam('interval', view.interval));
  const lists = {
    pages: useData<Record<string, unknown>>('pages', base),
    referrers: useData<Record<string, unknown>>('referrers', base),
    channels: useData<Record<string, unknown>>('channels', base),
    locations: useData<Record<string, unknown>>('locations', base),
    devices: useData<Record<string, unknown>>('devices', withParam('breakdown', view.breakdown)),
    events: useData<Record<string, unknown>>('events', base),
    campaigns: useData<Record<string, unknown>>('campaigns', base),
    goals: useData<Record<string, unknown>>('goals', can.goals ? base : undefined),
  };
  const goals = lists.goals;
  const [properties, setProperties] = useState<OpenProperties | undefined>(undefined);
  // Another site's events are not this one's: close the drill-down when the site changes.
  useEffect(() => setProperties(undefined), [view.site]);
  const addFilter = (conditions: FilterCondition[]) => onChange(withFilter(view, conditions));
  const nothing = stats.data !== undefined && stats.data.pageviews === 0 && stats.data.sessions === 0;
  return (
    <>
      <Summary loaded={stats} />
      {nothing && empty(view.filters.length > 0)}
      <Chart loaded={series} metric={view.metric} onMetric={(metric) => onChange({ ...view, metric })}>
        <IntervalSwitch view={view} hours={can.hours} onChange={onChange} />
      </Chart>
      <div class="lists">
        {PANELS.map((panel) => {
          const loaded = lists[panel.id];
          const rows = loaded.data ? panel.rows(loaded.data, view.breakdown) : [];
          const opensProperties = panel.id === 'events' && can.properties;
          return (
            <RankedTable key={panel.id} id={panel.id} title={panel.title} nameHeading={panel.id === 'devices' ? BREAKDOWN_LABELS[view.breakdown] : panel.nameHeading}
              metricHeadings={panel.metricHeadings} loaded={loaded} rows={rows} onFilter={can.filters ? addFilter : undefined}
              rowControl={opensProperties ? (row) => (
                <button type="button" class="open-properties" aria-expanded={properties?.event === row.key} onClick={() => setProperties({ event: row.key })}
                  aria-label={`Properties of event ${row.label}`}>Properties</button>
              ) : undefined}
              empty={view.filters.length > 0 ? 'Nothing matches the filters in this period.' : panel.empty}>
              {panel.id === 'devices' && (
                <div class="tabs" role="group" aria-label="Devices by">
                  {BREAKDOWNS.map((b) => (
                    <button type="button" key={b} aria-pressed={view.breakdown === b} onClick={() => onChange({ ...view, breakdown: b })}>{BREAKDOWN_LABELS[b]}</button>
                  ))}
                </div>
              )}
            </RankedTable>
          );
        })}
        {properties && can.properties && (
          <Properties open={properties} base={base} onOpen={setProperties} onFilter={can.filters ? addFilter : undefined} />
        )}
        {can.goals && (
          <RankedTable id={GOALS_PANEL.id} title={GOALS_PANEL.title} nameHeading={GOALS_PANEL.nameHeading} metricHeadings={GOALS_PANEL.metricHeadings}
            formats={GOALS_PANEL.formats} loaded={goals} rows={goals.data ? GOALS_PANEL.rows(goals.data, view.breakdown) : []}
            onFilter={can.filters ? addFilter : undefined} empty={GOALS_PANEL.empty} />
        )}
      </div>
    </>
  );
}
