import type { z } from 'zod';
import { ValidationError } from '../errors.js';
import { rangeLength } from '../time/zone.js';
import type { Breakdown, Compare, EndpointName, FilterCondition, FunnelStep, ImportedMode, Interval, Period } from '../types.js';
import { parseFilters } from './filters.js';
import { readFunnelChoice } from './funnel-params.js';
import { DEFAULT_LIMIT, MAX_HOUR_RANGE_DAYS, MAX_RANGE_DAYS, MESSAGES, PERIOD_DAYS } from './messages.js';
import {
  breakdownSchema,
  compareSchema,
  dateSchema,
  eventNameSchema,
  type Format,
  formatSchema,
  importedSchema,
  intervalSchema,
  limitSchema,
  periodSchema,
  propertySchema,
  requiredEventNameSchema,
  siteIdSchema,
  takes,
} from './schema.js';

/** Raw query parameters: a `URLSearchParams` or a plain object (repeats as arrays). */
export type RawParams = URLSearchParams | Record<string, string | readonly string[] | undefined>;

/** Which days a query covers, before the site's time zone resolves "today". */
export type DateSelection = { from: string; to: string } | { period: Period };

/** A validated query: what every report function takes. */
export interface Query {
  siteId: string;
  dates: DateSelection;
  /** `/pages` only; default 20. */
  limit: number;
  /** `/devices` only; default `device_type`. */
  breakdown: Breakdown;
  /** `/events`: one event name, or all when undefined; `/properties`: the event whose properties are read (required). */
  name: string | undefined;
  /** `/properties` only: the key whose values are listed, or undefined for the keys. */
  property: string | undefined;
  /** Conditions that must all hold (query-extensions.md section 1); empty: no filter. */
  filters: FilterCondition[];
  /** The compared range, when the response should carry `comparison`. */
  compare: Compare | undefined;
  /** `/stats/timeseries` only; default `day`. */
  interval: Interval;
  /** `json` (default) or `csv`; `/live` answers JSON only. */
  format: Format;
  /** `include` (default): imported daily totals count where they apply; `exclude`: left out. */
  imported: ImportedMode;
  /** `/funnels`: the name of a funnel saved for the site, or undefined with `steps`. */
  funnel: string | undefined;
  /** `/funnels`: ad-hoc steps (2 to 8), or undefined with `funnel`. */
  steps: readonly FunnelStep[] | undefined;
}

const DATE_SCHEMAS = { from: dateSchema('from'), to: dateSchema('to') };

/**
 * Validates raw endpoint parameters in the order of decisions.md section 5 and
 * query-extensions.md section 4 (site_id, from, to, period, filters, compare,
 * interval, imported, then the endpoint's own, then `format`) and returns a typed query, or throws
 * `ValidationError` with the message of the first failing rule. Unknown
 * parameters are ignored, and so are parameters an endpoint does not take
 * (`interval` outside `/stats/timeseries`); `/live` reads only `site_id`.
 *
 * @example
 * const query = parseQuery('pages', new URLSearchParams('site_id=ST-abc&limit=5&compare=previous_period'));
 * // { siteId: 'ST-abc', dates: { period: '30d' }, limit: 5, breakdown: 'device_type', name: undefined,
 * //   filters: [], compare: 'previous_period', interval: 'day', format: 'json', imported: 'include' }
 */
export function parseQuery(endpoint: EndpointName, raw: RawParams): Query {
  const get = getter(raw);
  const siteId = readSiteId(get);
  const query: Query = {
    siteId, dates: { period: '30d' }, limit: DEFAULT_LIMIT, breakdown: 'device_type', name: undefined, property: undefined, filters: [], compare: undefined,
    interval: 'day', format: 'json', imported: 'include', funnel: undefined, steps: undefined,
  };
  if (endpoint === 'live') return query;
  query.dates = readDates(get);

  const filters = get('filters');
  // Given twice, it is not one JSON array: the first rule's message.
  if (filters !== undefined) query.filters = filters.length > 1 ? parseFilters('') : parseFilters(filters[0]!);
  query.compare = single(get('compare'), compareSchema);
  if (takes(endpoint, 'interval')) {
    query.interval = single(get('interval'), intervalSchema) ?? 'day';
    const days = 'from' in query.dates ? rangeLength(query.dates.from, query.dates.to) : PERIOD_DAYS[query.dates.period];
    if (query.interval === 'hour' && days > MAX_HOUR_RANGE_DAYS) throw new ValidationError(MESSAGES.hourRange);
  }
  query.imported = single(get('imported'), importedSchema) ?? 'include';

  if (endpoint === 'funnels') {
    // funnels.md section 3: exactly one of funnel and steps.
    Object.assign(query, readFunnelChoice(get('funnel'), get('steps')));
  } else if (endpoint === 'properties') {
    // properties-goals.md section 2: name (required), property, then limit.
    query.name = check(requiredEventNameSchema, (get('name')?.length ?? 0) > 1 ? '' : get('name')?.[0]);
    query.property = single(get('property'), propertySchema);
    query.limit = single(get('limit'), limitSchema) ?? DEFAULT_LIMIT;
  } else {
    if (takes(endpoint, 'limit')) query.limit = single(get('limit'), limitSchema) ?? DEFAULT_LIMIT;
    if (takes(endpoint, 'breakdown')) query.breakdown = single(get('breakdown'), breakdownSchema) ?? 'device_type';
    if (takes(endpoint, 'name')) query.name = single(get('name'), eventNameSchema);
  }
  query.format = single(get('format'), formatSchema) ?? 'json';
  return query;
}

/** What `GET /export` and `siteline export` read: a site and its days. */
export type ExportQuery = Pick<Query, 'siteId' | 'dates'>;

/**
 * The parameters of an export: `site_id`, then the dates (`from`/`to` or `period`, default
 * `30d`) with the rules and messages of every report. Other parameters are ignored.
 * @example parseExportQuery({ site_id: 'ST-blog', from: '2026-11-01', to: '2026-11-30' })
 * // { siteId: 'ST-blog', dates: { from: '2026-11-01', to: '2026-11-30' } }
 */
export function parseExportQuery(raw: RawParams): ExportQuery {
  const get = getter(raw);
  const siteId = readSiteId(get);
  return { siteId, dates: readDates(get) };
}

type Getter = (key: string) => string[] | undefined;

/** Every value of a parameter, `undefined` when absent. */
function getter(raw: RawParams): Getter {
  return (key) => {
    const values = raw instanceof URLSearchParams ? raw.getAll(key) : raw[key];
    if (values === undefined) return undefined;
    const list = typeof values === 'string' ? [values] : [...values];
    return list.length === 0 ? undefined : list;
  };
}

function readSiteId(get: Getter): string {
  const siteIdValues = get('site_id');
  if (siteIdValues && siteIdValues.length > 1) throw new ValidationError(MESSAGES.siteIdFormat);
  return check(siteIdSchema, siteIdValues?.[0]);
}

/** `from`/`to` (both or neither, ordered, at most 3660 days), else `period`, else 30 days. */
function readDates(get: Getter): DateSelection {
  const from = single(get('from'), DATE_SCHEMAS.from);
  const to = single(get('to'), DATE_SCHEMAS.to);
  if (to !== undefined && from === undefined) throw new ValidationError(MESSAGES.requiredWith('from', 'to'));
  if (from !== undefined && to === undefined) throw new ValidationError(MESSAGES.requiredWith('to', 'from'));
  let dates: DateSelection = { period: '30d' };
  if (from !== undefined && to !== undefined) {
    if (from > to) throw new ValidationError(MESSAGES.toBeforeFrom);
    if (rangeLength(from, to) > MAX_RANGE_DAYS) throw new ValidationError(MESSAGES.rangeTooLong);
    dates = { from, to };
  }
  const period = single(get('period'), periodSchema);
  if (period !== undefined && !('from' in dates)) dates = { period };
  return dates;
}

/**
 * A parameter given once is checked; given twice it is not a single valid
 * value, so it fails its own rule (checked as the empty string, which every
 * rule rejects with the parameter's message).
 */
function single<T extends z.ZodType>(values: string[] | undefined, schema: T): z.output<T> | undefined {
  if (values === undefined) return undefined;
  return check(schema, values.length > 1 ? '' : values[0]);
}

function check<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(result.error.issues[0]?.message ?? 'Invalid parameter.');
  return result.data;
}
