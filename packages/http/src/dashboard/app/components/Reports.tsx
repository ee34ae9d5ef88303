/**
 * Every panel of a view: the figures, the chart and the lists, each its own request derived
 * from the view (state.ts) and the site's today (dates.ts). A site without pageviews in a
 * range that runs until now shows the waiting screen instead, asking again every few
 * seconds until the first pageview turns it into the dashboard.
 */
import type { FilterCondition, ImportedNote, StatsResponse, SummaryComparison, TimeseriesRow } from '@siteline/core';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Capabilities, SiteInfo } from '../api.js';
import { daysOf, intervalOf, now, rangeOf } from '../dates.js';
import { BREAKDOWN_LABELS, GOALS_PANEL, PANELS } from '../panels.js';
import { BREAKDOWNS, reportParams, type View, withFilter, withInterval } from '../state.js';
import { useData } from '../use-data.js';
import { Chart } from './Chart.js';
import { NoData, WAITING_POLL_MS, Waiting } from './EmptySite.js';
import { ImportedNotice } from './ImportedNotice.js';
import { IntervalSwitch } from './IntervalSwitch.js';
import { type OpenProperties, Properties } from './Properties.js';
import { RankedTable } from './RankedTable.js';
import { Funnels } from './Funnels.js';
import { comparedEmpty, Summary } from './Summary.js';

type Stats = StatsResponse & { comparison?: SummaryComparison };
type Series = { timeseries: TimeseriesRow[]; comparison?: TimeseriesRow[]; imported?: ImportedNote };

export interface ReportsProps {
  view: View;
  /** The site from the sites list; undefined until it arrives. */
  site: SiteInfo | undefined;
  /** The site's today; undefined until the sites list has said its time zone. */
  today: string | undefined;
  /** What the storage answers (until the sites list arrives: assumed filters and hours). */
  can: Capabilities;
  /** Path of the tracker script, for the snippet; undefined on a shared link's page (no snippet, no waiting: only "no pageviews"). */
  tracker: string | undefined;
  /** The account pages' address (a password sign-in), for what an owner can add there. */
  account?: string | undefined;
  onChange(view: View): void;
}

export function Reports({ view, site, today, can, tracker, account, onChange }: ReportsProps) {
  const base = useMemo(() => reportParams(view, today), [view.site, view.range, view.custom?.from, view.custom?.to, today, JSON.stringify(view.filters), view.compare]);
  const days = daysOf(view.range, today, view.custom);
  const interval = days === undefined ? undefined : intervalOf(view.interval, days, can.hours);
  const range = today === undefined ? undefined : rangeOf(view.range, today, view.custom);
  const running = range !== undefined && today !== undefined && range.from <= today && today <= range.to;

  // `poll` asks the figures again while the site waits for its first pageview; the lists ask once it has come.
  const [poll, setPoll] = useState(0);
  const stats = useData<Stats>('stats', base, poll);
  const empty = stats.data !== undefined && stats.data.pageviews === 0 && stats.data.sessions === 0;
  const waiting = empty && view.filters.length === 0 && running && site !== undefined && tracker !== undefined;
  useEffect(() => {
    if (!waiting) return;
    // Each answer schedules the next question; a hidden tab waits until it is looked at again.
    let timer = setTimeout(function tick() {
      if (document.hidden) timer = setTimeout(tick, WAITING_POLL_MS);
      else setPoll((p) => p + 1);
    }, WAITING_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, stats.data]);

  const shared = waiting ? undefined : base;
  const withParam = (name: string, value: string | undefined) => {
    if (!shared || value === undefined) return undefined;
    const params = new URLSearchParams(shared);
    params.set(name, value);
    return params;
  };
  const series = useData<Series>('stats/timeseries', withParam('interval', interval), poll);
  const lists = {
    pages: useData<Record<string, unknown>>('pages', shared, poll),
    referrers: useData<Record<string, unknown>>('referrers', shared, poll),
    channels: useData<Record<string, unknown>>('channels', shared, poll),
    locations: useData<Record<string, unknown>>('locations', shared, poll),
    devices: useData<Record<string, unknown>>('devices', withParam('breakdown', view.breakdown), poll),
    events: useData<Record<string, unknown>>('events', shared, poll),
    campaigns: useData<Record<string, unknown>>('campaigns', shared, poll),
    goals: useData<Record<string, unknown>>('goals', can.goals ? shared : undefined, poll),
  };
  const [properties, setProperties] = useState<OpenProperties | undefined>(undefined);
  // Another site's events are not this one's: close the drill-down when the site changes.
  useEffect(() => setProperties(undefined), [view.site]);

  if (waiting) return <Waiting site={site} tracker={tracker!} />;
  const addFilter = (conditions: FilterCondition[]) => onChange(withFilter(view, conditions));
  // Changes are shown only against a compared range that holds data; Summary says once when it holds none.
  const changes = stats.data?.comparison !== undefined && !comparedEmpty(stats.data.comparison);
  const goals = lists.goals;
  return (
    <>
      <Summary loaded={stats} running={running} />
      <ImportedNotice note={stats.data?.imported} />
      {empty && <NoData filtered={view.filters.length > 0} />}
      <Chart loaded={series} metric={view.metric} onMetric={(metric) => onChange({ ...view, metric })} changes={changes}
        clock={site && range ? { now: now(), zone: site.timezone, range } : undefined} imported={site?.imported}>
        <IntervalSwitch interval={interval} days={days} hours={can.hours} onPick={(i) => days !== undefined && onChange(withInterval(view, i, days, can.hours))} />
      </Chart>
      <div class="lists">
        {PANELS.map((panel) => {
          const loaded = lists[panel.id];
          const rows = loaded.data ? panel.rows(loaded.data, view.breakdown) : [];
          const opensProperties = panel.id === 'events' && can.properties;
          const open = opensProperties && properties ? properties : undefined;
          return (
            <RankedTable key={panel.id} id={panel.id} title={panel.title} description={panel.description}
              nameHeading={panel.id === 'devices' ? BREAKDOWN_LABELS[view.breakdown] : panel.nameHeading}
              metricHeadings={panel.metricHeadings} loaded={loaded} rows={rows} changes={changes} onFilter={can.filters ? addFilter : undefined}
              rowControl={opensProperties ? (row) => (
                <button type="button" class="open-properties" aria-expanded={properties?.event === row.key} aria-controls={properties?.event === row.key ? 'event-properties' : undefined}
                  onClick={() => setProperties(properties?.event === row.key ? undefined : { event: row.key })} aria-label={`Properties of event ${row.label}`}>Properties</button>
              ) : undefined}
              detail={open && base ? {
                key: open.event, id: 'event-properties',
                content: <Properties open={open} base={base} onOpen={setProperties} onFilter={can.filters ? addFilter : undefined} changes={changes} />,
              } : undefined}
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
        {can.goals && (
          <RankedTable id={GOALS_PANEL.id} title={GOALS_PANEL.title} nameHeading={GOALS_PANEL.nameHeading} metricHeadings={GOALS_PANEL.metricHeadings}
            formats={GOALS_PANEL.formats} loaded={goals} rows={goals.data ? GOALS_PANEL.rows(goals.data, view.breakdown) : []} changes={changes}
            onFilter={can.filters ? addFilter : undefined} empty={GOALS_PANEL.empty} />
        )}
        {can.funnels && <Funnels view={view} base={shared} changes={changes} account={account} shared={tracker === undefined} onChange={onChange} />}
      </div>
    </>
  );
}
