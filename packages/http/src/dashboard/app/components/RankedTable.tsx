/** A ranked list as a table; each name is a button that adds the row as a filter (or opens the row). */
import type { FilterCondition } from '@siteline/core';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { changeOf, formatCount, formatPercent } from '../format.js';
import type { MetricFormat, Row } from '../panels.js';
import type { Loaded } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';

/** Rows shown before "Show all". */
const FIRST_ROWS = 10;

export interface RankedTableProps {
  id: string;
  title: string;
  nameHeading: string;
  metricHeadings: string[];
  loaded: Loaded<unknown>;
  rows: Row[];
  /** Shown when there are no rows. */
  empty: string;
  /** Adds a row's conditions; undefined when the storage cannot filter (the names are then plain text). */
  onFilter?: ((conditions: FilterCondition[]) => void) | undefined;
  /** Instead of filtering, a click on a name opens the row (a property's values); its label for screen readers. */
  onOpen?: { run(row: Row): void; label(row: Row): string } | undefined;
  /** A control after a row's name (the events' "Properties" button). */
  rowControl?: ((row: Row) => ComponentChildren) | undefined;
  /** Per metric column; counts when absent. */
  formats?: MetricFormat[] | undefined;
  /** Controls above the table (the devices' breakdown tabs). */
  children?: ComponentChildren;
}

const FORMAT: Record<MetricFormat, (n: number) => string> = { count: formatCount, percent: formatPercent };

export function RankedTable(props: RankedTableProps) {
  const [all, setAll] = useState(false);
  const { rows, loaded } = props;
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  const max = Math.max(1, ...rows.map((r) => r.metrics[0] ?? 0));
  const headingId = `h-${props.id}`;
  return (
    <section class="panel list" aria-labelledby={headingId} data-panel={props.id} data-query={loaded.query} aria-busy={loaded.busy ? 'true' : 'false'}>
      <h2 id={headingId}>{props.title}</h2>
      <DownloadCsv loaded={loaded} label={props.title.toLowerCase()} />
      {props.children}
      {loaded.error ? (
        <p class="error" role="alert">{loaded.error}</p>
      ) : rows.length === 0 ? (
        loaded.data !== undefined && <p class="empty">{props.empty}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{props.nameHeading}</th>
              {props.metricHeadings.map((h) => <th scope="col" class="num" key={h}>{h}</th>)}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key} data-key={row.key}>
                <th scope="row">
                  {props.onOpen ? (
                    <button type="button" class="row-filter" onClick={() => props.onOpen!.run(row)} aria-label={props.onOpen.label(row)}>
                      <span class="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} />
                      <span class="label">{row.label}</span>
                    </button>
                  ) : props.onFilter ? (
                    <button type="button" class="row-filter" onClick={() => props.onFilter?.(row.filter)} aria-label={`Filter by ${props.nameHeading.toLowerCase()} ${row.label}`}>
                      <span class="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} />
                      <span class="label">{row.label}</span>
                    </button>
                  ) : (
                    <span class="row-filter">
                      <span class="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} />
                      <span class="label">{row.label}</span>
                    </span>
                  )}
                  {props.rowControl?.(row)}
                </th>
                {row.metrics.map((value, i) => {
                  const change = row.compared ? changeOf(value, row.compared[i] ?? 0) : undefined;
                  return (
                    <td class="num" key={i}>
                      <span class="value">{FORMAT[props.formats?.[i] ?? 'count'](value)}</span>
                      {row.compared && <span class="chg">{change ? change.text : 'new'}</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length > FIRST_ROWS && (
        <button type="button" class="more" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show fewer' : `Show all ${formatCount(rows.length)}`}
        </button>
      )}
    </section>
  );
}
