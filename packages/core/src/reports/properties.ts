import { UnsupportedQueryError } from '../errors.js';
import { sortRows } from '../metrics/order.js';
import type { Query } from '../query/parse.js';
import type { PropertyTotals, Storage } from '../storage/types.js';
import type { ComparedPropertiesResponse, PropertiesResponse } from '../types.js';
import { attachComparison } from './compare.js';
import { importedPlan, readBoth, type ReportOptions, requireCapability, resolveQuery, withNote } from './resolve.js';

interface Row {
  key: string;
  count: number;
  visitors: number;
}

const rowsOf = (totals: PropertyTotals[]): Row[] => totals.filter((t) => t.count > 0).map(({ key, count, visitors }) => ({ key, count, visitors }));

/**
 * `/properties` (properties-goals.md section 2): the keys carried by the selected custom
 * events named `query.name` (without `query.property`), or the values of one key (with
 * it), each with its events (`count`) and daily visitors; ordered by count, visitors,
 * then key or value (byte order); at most `query.limit` rows. With `compare`, each row's
 * numbers over the compared range in `comparison`.
 *
 * @example
 * const { properties } = await getProperties(storage, parseQuery('properties', { site_id: 'ST-demo', name: 'Signup' }));
 * const { values } = await getProperties(storage, parseQuery('properties', { site_id: 'ST-demo', name: 'Signup', property: 'plan' }));
 */
export async function getProperties(storage: Storage, query: Query, options?: ReportOptions): Promise<PropertiesResponse | ComparedPropertiesResponse> {
  const resolved = await resolveQuery(storage, query, options);
  requireCapability(storage, 'properties', 'properties');
  const read = storage.properties?.bind(storage);
  if (!read) throw new UnsupportedQueryError(`The ${storage.kind} storage declares properties but has no properties read.`);
  const plan = await importedPlan(storage, resolved, { kind: 'never', reason: 'Imported data has no event properties.' });
  const name = query.name!;
  const [main, other] = await readBoth(resolved, (range) => read(range, name, query.property, resolved.selection));
  const rows = sortRows(rowsOf(main), ['count', 'visitors'], ['key']).slice(0, query.limit);
  const listed = other
    ? attachComparison(rows, rowsOf(other), (row) => row.key, (row) => ({ count: row?.count ?? 0, visitors: row?.visitors ?? 0 }))
    : rows;
  if (query.property === undefined) {
    return withNote({ name, properties: listed.map(({ key, ...rest }) => ({ property: key, ...rest })) }, plan.note) as PropertiesResponse | ComparedPropertiesResponse;
  }
  return withNote({ name, property: query.property, values: listed.map(({ key, ...rest }) => ({ value: key, ...rest })) }, plan.note) as PropertiesResponse | ComparedPropertiesResponse;
}
