/**
 * A ranked list as a table; each name is a button that adds the row as a filter (or opens
 * the row). Names wrap rather than being cut, and carry their whole value in a title.
 */
import type { FilterCondition } from '@siteline/core';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { changeBetween, formatCount, formatPercent } from '../format.js';
import type { MetricFormat, Row } from '../panels.js';
import type { Loaded } from '../use-data.js';
import { DownloadCsv } from './DownloadCsv.js';

/** Rows shown before "Show all". */
const FIRST_ROWS = 10;

export interface RankedTableProps {
  id: string;
  title: string;
  /** What the name column holds, said under the title (Referrers and Channels read alike but count differently). */
  description?: string | undefined;
  nameHeading: string;
  metricHeadings: string[];
  loaded: Loaded<unknown>;
  rows: Row[];
  /** Shown when there are no rows. */
  empty: string;
  /** Whether rows show their change against the compared range (off, or nothing to compare with: none). */
  changes: boolean;
  /** Adds a row's conditions; undefined when the storage cannot filter (the names are then plain text). */
  onFilter?: ((conditions: FilterCondition[]) => void) | undefined;
  /** Instead of filtering, a click on a name opens the row (a property's values); its label for screen readers. */
  onOpen?: { run(row: Row): void; label(row: Row): string } | undefined;
  /** A control after a row's name (the events' "Properties" button). */
  rowControl?: ((row: Row) => ComponentChildren) | undefined;
  /** What opens under one row, right beside it (an event's properties). */
  detail?: { key: string; id: string; content: ComponentChildren } | undefined;
  /** Per metric column; counts when absent. Percentages change in percentage points. */
  formats?: MetricFormat[] | undefined;
  /** Controls above the table (the devices' breakdown tabs). */
  children?: ComponentChildren;
}

const FORMAT: Record<MetricFormat, (n: number) => string> = { count: formatCount, percent: formatPercent };

export function RankedTable(props: RankedTableProps) {
  const [all, setAll] = useState(false);
  const { rows, loaded, detail } = props;
  const shown = all ? [...rows] : rows.slice(0, FIRST_ROWS);
  // An opened row stays on screen even past the first ten.
  if (detail && !shown.some((r) => r.key === detail.key)) shown.push(...rows.filter((r) => r.key === detail.key));
  const max = Math.max(1, ...rows.map((r) => r.metrics[0] ?? 0));
  const headingId = `h-${props.id}`;
  const name = (row: Row) => {
    const inner = (
      <>
        <span class="bar" style={{ width: `${((row.metrics[0] ?? 0) / max) * 100}%` }} />
        <span class="label">{row.label}</span>
      </>
    );
    if (props.onOpen) return <button type="button" class="row-filter" title={row.label} onClick={() => props.onOpen!.run(row)} aria-label={props.onOpen.label(row)}>{inner}</button>;
    if (props.onFilter) {
      return <button type="button" class="row-filter" title={row.label} onClick={() => props.onFilter?.(row.filter)} aria-label={`Filter by ${props.nameHeading.toLowerCase()} ${row.label}`}>{inner}</button>;
    }
    return <span class="row-filter" title={row.label}>{inner}</span>;
  };
  return (
    <section class="panel list" aria-labelledby={headingId} data-panel={props.id} data-query={loaded.query} aria-busy={loaded.busy ? 'true' : 'false'}>
      <h2 id={headingId}>{props.title}</h2>
      {props.description && <p class="describe">{props.description}</p>}
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
            {shown.flatMap((row) => {
              const line = (
                <tr key={row.key} data-key={row.key}>
                  <th scope="row">
                    {props.rowControl ? <div class="row-name">{name(row)}{props.rowControl(row)}</div> : name(row)}
                  </th>
                  {row.metrics.map((value, i) => {
                    const format = props.formats?.[i] ?? 'count';
                    const change = props.changes && row.compared ? changeBetween(value, row.compared[i] ?? 0, format === 'percent' ? 'points' : 'relative') : undefined;
                    return (
                      <td class="num" key={i}>
                        <span class="value">{FORMAT[format](value)}</span>
                        {change && <span class="chg">{change.text}</span>}
                      </td>
                    );
                  })}
                </tr>
              );
              if (detail?.key !== row.key) return [line];
              return [line, <tr key={`${row.key}\u0000detail`} class="detail" id={detail.id}><td colSpan={1 + props.metricHeadings.length}>{detail.content}</td></tr>];
            })}
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
