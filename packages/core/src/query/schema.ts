import { z } from 'zod';
import { MAX_FUNNEL_NAME_LENGTH, MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from '../funnels/funnel.js';
import { MAX_GOAL_PATTERN_LENGTH } from '../goals/goals.js';
import { COMPARE_MODES, type EndpointName, FILTER_DIMENSIONS, FILTER_OPERATORS, IMPORTED_MODES, INTERVALS } from '../types.js';
import {
  MAX_EVENT_NAME_LENGTH,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_VALUE_LENGTH,
  MAX_FILTER_VALUES,
  MAX_LIMIT,
  MAX_PROPERTY_KEY_LENGTH,
  MAX_SITE_ID_LENGTH,
  MESSAGES,
  PROP_DIMENSION_PREFIX,
} from './messages.js';

/** `ST-` followed by letters and digits. */
export const SITE_ID_PATTERN = /^ST-[A-Za-z0-9]+$/;

export const siteIdSchema = z
  .string({ error: MESSAGES.siteIdRequired })
  .min(1, { error: MESSAGES.siteIdRequired })
  .max(MAX_SITE_ID_LENGTH, { error: MESSAGES.siteIdFormat })
  .regex(SITE_ID_PATTERN, { error: MESSAGES.siteIdFormat });

/** A real calendar date `YYYY-MM-DD` (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

export const dateSchema = (field: 'from' | 'to') =>
  z.string().refine(isCalendarDate, { error: MESSAGES.dateFormat(field) }).meta({ format: 'date' });

export const periodSchema = z.enum(['30d', '7d', '1d'], { error: MESSAGES.period });

export const limitSchema = z
  .string()
  .regex(/^[+-]?\d{1,12}$/, { error: MESSAGES.limitInteger })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: MESSAGES.limitRange }).max(MAX_LIMIT, { error: MESSAGES.limitRange }));

export const breakdownSchema = z.enum(['device_type', 'browser', 'os'], { error: MESSAGES.breakdown });

export const eventNameSchema = z
  .string()
  .min(1, { error: MESSAGES.name })
  .max(MAX_EVENT_NAME_LENGTH, { error: MESSAGES.name });
/** `/properties` `name`: required (missing or empty is its own message), then 1 to 200 characters. */
export const requiredEventNameSchema = z
  .string({ error: MESSAGES.nameRequired })
  .min(1, { error: MESSAGES.nameRequired })
  .max(MAX_EVENT_NAME_LENGTH, { error: MESSAGES.name });
/** `/properties` `property`: one property key, 1 to 300 characters. */
export const propertySchema = z
  .string()
  .min(1, { error: MESSAGES.property })
  .max(MAX_PROPERTY_KEY_LENGTH, { error: MESSAGES.property });

/** `prop:` and a key of 1 to 300 characters (any characters: keys are stored exactly as sent). */
export const PROP_DIMENSION_PATTERN = new RegExp(`^${PROP_DIMENSION_PREFIX}[\\s\\S]{1,${MAX_PROPERTY_KEY_LENGTH}}$`);
/** A filter dimension: one of the fixed names, or `prop:<key>`. */
export const filterDimensionSchema = z.union(
  [z.enum(FILTER_DIMENSIONS, { error: MESSAGES.filterDimension }), z.string().regex(PROP_DIMENSION_PATTERN, { error: MESSAGES.filterDimension })],
  { error: MESSAGES.filterDimension },
);

/** The shape every condition must have before its parts are checked: `[string, string, array]`. */
export const filterShapeSchema = z.tuple(
  [z.string({ error: MESSAGES.filtersShape }), z.string({ error: MESSAGES.filtersShape }), z.array(z.unknown(), { error: MESSAGES.filtersShape })],
  { error: MESSAGES.filtersShape },
);

export const filterValuesSchema = z
  .array(z.string({ error: MESSAGES.filterValues }).max(MAX_FILTER_VALUE_LENGTH, { error: MESSAGES.filterValues }), { error: MESSAGES.filterValues })
  .min(1, { error: MESSAGES.filterValues })
  .max(MAX_FILTER_VALUES, { error: MESSAGES.filterValues });

/** One condition, its parts checked in the order of the spec's rules: operator, dimension, values. */
export const filterConditionSchema = z.tuple([
  z.enum(FILTER_OPERATORS, { error: MESSAGES.filterOperator }),
  filterDimensionSchema,
  filterValuesSchema,
]);

/** The decoded `filters` parameter: at most 10 conditions. */
export const filterConditionsSchema = z
  .array(filterConditionSchema, { error: MESSAGES.filtersShape })
  .max(MAX_FILTER_CONDITIONS, { error: MESSAGES.filtersCount });

export const compareSchema = z.enum(COMPARE_MODES, { error: MESSAGES.compare });

export const intervalSchema = z.enum(INTERVALS, { error: MESSAGES.interval });

export const importedSchema = z.enum(IMPORTED_MODES, { error: MESSAGES.imported });

/**
 * A funnel step (funnels.md section 1): `{"page": <pattern>}` (1 to 500 characters, a page goal's
 * pattern) or `{"event": <name>}` (1 to 200 characters), nothing else.
 */
export const funnelStepSchema = z.union(
  [
    z.strictObject({ page: z.string().min(1).max(MAX_GOAL_PATTERN_LENGTH) }),
    z.strictObject({ event: z.string().min(1).max(MAX_EVENT_NAME_LENGTH) }),
  ],
  { error: MESSAGES.step },
);
/** The decoded `steps` parameter of `/funnels`: 2 to 8 steps (each then checked with `funnelStepSchema`). */
export const funnelStepsSchema = z
  .array(funnelStepSchema, { error: MESSAGES.steps })
  .min(MIN_FUNNEL_STEPS, { error: MESSAGES.steps })
  .max(MAX_FUNNEL_STEPS, { error: MESSAGES.steps });
/** The `funnel` parameter of `/funnels`: a saved funnel's name (1 to 120 characters; whether the site has it is checked with the site). */
export const funnelNameSchema = z
  .string()
  .min(1, { error: MESSAGES.funnel })
  .max(MAX_FUNNEL_NAME_LENGTH, { error: MESSAGES.funnel });

/** Response formats of a report: the JSON body, or its rows as CSV (docs/behaviour.md, "CSV"). */
export const FORMATS = ['json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];
export const formatSchema = z.enum(FORMATS, { error: MESSAGES.format });

/** The parameters an endpoint takes besides `site_id`, the dates, `filters` and `compare` (which all but `/live` take). */
export const ENDPOINT_OWN_PARAMETERS = {
  stats: [],
  timeseries: ['interval'],
  pages: ['limit'],
  referrers: [],
  channels: [],
  locations: [],
  devices: ['breakdown'],
  events: ['name'],
  campaigns: [],
  live: [],
  properties: ['name', 'property', 'limit'],
  goals: [],
  funnels: ['funnel', 'steps'],
} as const satisfies Record<EndpointName, readonly EndpointParameter[]>;

/** An endpoint's own parameter. */
export type EndpointParameter = 'interval' | 'limit' | 'breakdown' | 'name' | 'property' | 'funnel' | 'steps';

/** Whether `endpoint` reads its own parameter `name`. */
export const takes = (endpoint: EndpointName, name: EndpointParameter): boolean =>
  (ENDPOINT_OWN_PARAMETERS[endpoint] as readonly string[]).includes(name);
