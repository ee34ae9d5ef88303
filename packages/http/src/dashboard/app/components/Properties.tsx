/**
 * The properties of one custom event (properties-goals.md section 2), opened from its
 * Events row and shown right under it: the event's keys, then a key's values; a value's
 * click filters by that event with that value (`prop:<key>`). Read through the API like
 * every other panel.
 */
import type { FilterCondition } from '@siteline/core';
import { useMemo } from 'preact/hooks';
import { visibleText } from '../format.js';
import { propertyRows } from '../panels.js';
import { useData } from '../use-data.js';
import { RankedTable } from './RankedTable.js';

export interface OpenProperties {
  event: string;
  /** The key whose values are shown; undefined: the event's keys. */
  property?: string | undefined;
}

interface PropertiesProps {
  open: OpenProperties;
  /** The view's report parameters (dates, filters, compare). */
  base: URLSearchParams;
  onOpen(open: OpenProperties | undefined): void;
  onFilter?: ((conditions: FilterCondition[]) => void) | undefined;
  /** Whether rows show their change against the compared range. */
  changes: boolean;
}

export function Properties({ open, base, onOpen, onFilter, changes }: PropertiesProps) {
  const { event, property } = open;
  const params = useMemo(() => {
    const p = new URLSearchParams(base);
    p.set('name', event);
    if (property !== undefined) p.set('property', property);
    p.set('limit', '100');
    return p;
  }, [base, event, property]);
  const loaded = useData<Record<string, unknown>>('properties', params);
  const rows = loaded.data ? propertyRows(loaded.data, event, property) : [];
  const title = property === undefined ? `Properties of ${visibleText(event)}` : `${visibleText(event)}: ${visibleText(property)}`;
  return (
    <RankedTable
      id="properties" title={title} nameHeading={property === undefined ? 'Property' : 'Value'} metricHeadings={['Events', 'Visitors']} loaded={loaded} rows={rows} changes={changes}
      empty={property === undefined ? `No ${event} event in this period carries properties.` : `No ${event} event in this period has ${property}.`}
      onOpen={property === undefined ? { run: (row) => onOpen({ event, property: row.key }), label: (row) => `Values of property ${row.label}` } : undefined}
      onFilter={property === undefined ? undefined : onFilter}
    >
      <div class="tabs" role="group" aria-label="Properties navigation">
        {property !== undefined && <button type="button" onClick={() => onOpen({ event })}>All properties of {event}</button>}
        <button type="button" onClick={() => onOpen(undefined)}>Close</button>
      </div>
    </RankedTable>
  );
}
