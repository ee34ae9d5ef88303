/**
 * The ranked lists: which endpoint each reads, how a row is named and measured, and the
 * filter a click on the row adds (query-extensions.md's dimension for that row's value).
 */
import type { Breakdown, FilterCondition } from '@siteline/core';
import { countryName, visibleText } from './format.js';

export interface Row {
  /** Unique within the list. */
  key: string;
  /** The row's name as shown (`visibleText`: bidirectional controls escaped). */
  label: string;
  /** Shown as the panel's `formats` say (counts by default). */
  metrics: number[];
  /** The same metrics over the compared range, when compare is on. */
  compared?: number[];
  /** Conditions a click adds. */
  filter: FilterCondition[];
}

/** How a metric column is shown. */
export type MetricFormat = 'count' | 'percent';

export interface ListPanel {
  id: 'pages' | 'referrers' | 'channels' | 'locations' | 'devices' | 'events' | 'campaigns' | 'goals';
  title: string;
  /** API path below `/api/v1`. */
  path: string;
  /** Heading of the name column. */
  nameHeading: string;
  /** What the name column means, where two panels could be read alike (Referrers and Channels). */
  description?: string;
  metricHeadings: string[];
  /** Per metric column; counts when absent. */
  formats?: MetricFormat[];
  /** Why the list is empty when no filter is set. */
  empty: string;
  rows(body: Record<string, unknown>, breakdown: Breakdown): Row[];
}

type Json = Record<string, unknown> & { comparison?: Record<string, number> };
const list = (body: Record<string, unknown>, field: string) => (body[field] ?? []) as Json[];
const metrics = (row: Json, fields: string[]) => fields.map((f) => Number(row[f]));
const compared = (row: Json, fields: string[]) => (row.comparison ? fields.map((f) => Number(row.comparison![f])) : undefined);

/** A panel over one name field whose value is also the filter's value. */
function simple(id: ListPanel['id'], title: string, path: string, field: string, dimension: FilterCondition[1], nameHeading: string, fields: string[], headings: string[], empty: string): ListPanel {
  return {
    id, title, path, nameHeading, metricHeadings: headings, empty,
    rows: (body) => list(body, id).map((row) => {
      const value = String(row[field]);
      return { key: value, label: visibleText(value), metrics: metrics(row, fields), compared: compared(row, fields), filter: [['is', dimension, [value]]] };
    }),
  };
}

export const BREAKDOWN_LABELS: Record<Breakdown, string> = { device_type: 'Device type', browser: 'Browser', os: 'OS' };

export const PANELS: readonly ListPanel[] = [
  simple('pages', 'Pages', 'pages', 'url', 'page', 'Page', ['visitors', 'pageviews'], ['Visitors', 'Pageviews'], 'No pageviews in this period.'),
  {
    ...simple('referrers', 'Referrers', 'referrers', 'source', 'source', 'Source', ['visitors', 'sessions'], ['Visitors', 'Sessions'], 'No visits in this period.'),
    description: 'Source: the site whose link started the visit (the Referer\'s host). UTM tags do not change it: a visit without a referring site is Direct / None.',
  },
  {
    ...simple('channels', 'Channels', 'channels', 'channel', 'channel', 'Channel', ['visitors', 'sessions'], ['Visitors', 'Sessions'], 'No visits in this period.'),
    description: 'Channel: how the visit came, from the referring site, the UTM tags and ad click ids together (a link tagged utm_source=newsletter is Email, though Referrers counts it as Direct / None).',
  },
  {
    id: 'locations', title: 'Locations', path: 'locations', nameHeading: 'Country', metricHeadings: ['Visitors'], empty: 'No visits in this period.',
    rows: (body) => list(body, 'locations').map((row) => {
      const code = String(row.country_code);
      return { key: code, label: countryName(code, String(row.country)), metrics: metrics(row, ['visitors']), compared: compared(row, ['visitors']), filter: [['is', 'country', [code]]] };
    }),
  },
  {
    id: 'devices', title: 'Devices', path: 'devices', nameHeading: 'Name', metricHeadings: ['Visitors'], empty: 'No visits in this period.',
    rows: (body, breakdown) => list(body, 'devices').map((row) => {
      const name = String(row.name);
      return { key: name, label: visibleText(name), metrics: metrics(row, ['visitors']), compared: compared(row, ['visitors']), filter: [['is', breakdown, [name]]] };
    }),
  },
  simple('events', 'Events', 'events', 'name', 'event', 'Event', ['count'], ['Count'], "No custom events in this period. A page records one with tracker('event', 'signup')."),
  {
    id: 'campaigns', title: 'Campaigns', path: 'campaigns', nameHeading: 'Source / medium / campaign', metricHeadings: ['Visitors', 'Sessions'],
    empty: 'No sessions with utm_source, utm_medium and utm_campaign all set in this period.',
    rows: (body) => list(body, 'campaigns').map((row) => {
      const [source, medium, campaign] = [String(row.source), String(row.medium), String(row.campaign)];
      return {
        key: `${source}\u0000${medium}\u0000${campaign}`,
        // The API lists only sessions with all three set; a part that is empty anyway is left out rather than shown as a dangling slash.
        label: visibleText([source, medium, campaign].filter((part) => part.trim() !== '').join(' / ')),
        metrics: metrics(row, ['visitors', 'sessions']),
        compared: compared(row, ['visitors', 'sessions']),
        filter: [['is', 'utm_source', [source]], ['is', 'utm_medium', [medium]], ['is', 'utm_campaign', [campaign]]],
      };
    }),
  },
];

/**
 * The Goals panel (properties-goals.md section 4): every goal of the site with its visitors,
 * conversions and conversion rate; a click selects the sessions that converted on it.
 */
export const GOALS_PANEL: ListPanel = {
  id: 'goals', title: 'Goals', path: 'goals', nameHeading: 'Goal', metricHeadings: ['Visitors', 'Conversions', 'Conversion rate'],
  formats: ['count', 'count', 'percent'],
  empty: 'No goals for this site yet. An owner adds them on the account\'s Goals page, or on the server: npx siteline goals add --site <id> --event signup (or --page "/thanks*").',
  rows: (body) => list(body, 'goals').map((row) => {
    const goal = String(row.goal);
    const fields = ['visitors', 'conversions', 'conversion_rate'];
    return { key: goal, label: visibleText(goal), metrics: metrics(row, fields), compared: compared(row, fields), filter: [['is', 'goal', [goal]]] };
  }),
};

/**
 * The rows of `/properties` for an opened event: its keys, or the values of one key. A
 * value's row selects that event with that value (`event` and `prop:<key>` together).
 */
export function propertyRows(body: Record<string, unknown>, event: string, property: string | undefined): Row[] {
  const field = property === undefined ? 'properties' : 'values';
  return list(body, field).map((row) => {
    const name = String(property === undefined ? row.property : row.value);
    const filter: FilterCondition[] = property === undefined ? [] : [['is', 'event', [event]], ['is', `prop:${property}`, [name]]];
    return { key: name, label: visibleText(name), metrics: metrics(row, ['count', 'visitors']), compared: compared(row, ['count', 'visitors']), filter };
  });
}

/** How a condition reads on its chip: `Source is google.com`, `Property plan is pro`. */
export function describeCondition([operator, dimension, values]: FilterCondition): string {
  const names: Record<string, string> = {
    entry_page: 'Entry page', source: 'Source', channel: 'Channel', country: 'Country', device_type: 'Device type', browser: 'Browser', os: 'OS',
    utm_source: 'UTM source', utm_medium: 'UTM medium', utm_campaign: 'UTM campaign', page: 'Page', event: 'Event', goal: 'Goal',
  };
  if (dimension.startsWith('prop:')) names[dimension] = `Property ${dimension.slice(5)}`;
  const verbs: Record<string, string> = { is: 'is', is_not: 'is not', contains: 'contains', contains_not: 'does not contain' };
  const shown = values.map((v) => (dimension === 'country' ? countryName(v) : v === '' ? '(none)' : visibleText(v)));
  return `${names[dimension] ?? dimension} ${verbs[operator] ?? operator} ${shown.join(' or ')}`;
}
