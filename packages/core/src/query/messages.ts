/**
 * Validation messages of decisions.md section 5: the one place they are
 * written. Tests import them from here.
 */
export const MESSAGES = {
  siteIdRequired: 'The site_id field is required.',
  siteIdFormat: 'The site_id field format is invalid.',
  dateFormat: (field: 'from' | 'to') => `The ${field} field must be a valid date in the format YYYY-MM-DD.`,
  requiredWith: (field: 'from' | 'to', other: 'from' | 'to') =>
    `The ${field} field is required when ${other} is present.`,
  toBeforeFrom: 'The to field must be a date after or equal to from.',
  rangeTooLong: 'The date range may not be longer than 3660 days.',
  period: 'The selected period is invalid.',
  limitInteger: 'The limit field must be an integer.',
  limitRange: 'The limit field must be between 1 and 100.',
  breakdown: 'The selected breakdown is invalid.',
  name: 'The name field must be between 1 and 200 characters.',
  // properties-goals.md section 2
  nameRequired: 'The name field is required.',
  property: 'The property field must be between 1 and 300 characters.',
  // query-extensions.md section 4
  filtersShape: 'The filters field must be a JSON array of [operator, dimension, values] conditions.',
  filterOperator: 'The selected filter operator is invalid.',
  filterDimension: 'The selected filter dimension is invalid.',
  filterValues: 'The filter values must be 1 to 20 strings of at most 500 characters.',
  filtersCount: 'The filters field may not have more than 10 conditions.',
  compare: 'The selected compare is invalid.',
  interval: 'The selected interval is invalid.',
  imported: 'The selected imported is invalid.',
  hourRange: 'The hour interval supports ranges of at most 7 days.',
  // Export (issue 27)
  format: 'The selected format is invalid. Use json or csv.',
  // funnels.md section 3
  funnelOrSteps: 'Either the funnel or the steps field is required.',
  funnel: 'The selected funnel is invalid.',
  steps: 'The steps field must be a JSON array of 2 to 8 steps.',
  step: 'Each step must be {"page": <pattern>} or {"event": <name>}.',
  // A query the server's storage cannot answer (UnsupportedQueryError): refused, never answered wrongly.
  unsupported: 'This server\'s storage cannot answer this query.',
} as const;

/** Days of each `period` (decisions.md section 1): today and the days before. */
export const PERIOD_DAYS = { '30d': 30, '7d': 7, '1d': 1 } as const;

/** Longest range a query may span, in days (decisions.md section 1). */
export const MAX_RANGE_DAYS = 3660;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_EVENT_NAME_LENGTH = 200;
/** Longest accepted site id; keeps every input bounded. */
export const MAX_SITE_ID_LENGTH = 64;

/** Filter limits of query-extensions.md section 1. */
export const MAX_FILTER_CONDITIONS = 10;
export const MAX_FILTER_VALUES = 20;
export const MAX_FILTER_VALUE_LENGTH = 500;
/** Property limits of properties-goals.md section 1: entries per event, key and value length. */
export const MAX_PROPERTIES = 30;
export const MAX_PROPERTY_KEY_LENGTH = 300;
export const MAX_PROPERTY_VALUE_LENGTH = 2000;
/** `prop:`, the prefix of a property's filter dimension. */
export const PROP_DIMENSION_PREFIX = 'prop:';
/** Longest range `interval=hour` accepts, in days. */
export const MAX_HOUR_RANGE_DAYS = 7;
/**
 * Longest `filters` text read. Every valid filter written as compact JSON fits, even with
 * every character of every value escaped as `\uXXXX` (6 characters each): the longest
 * operator (12 characters), the longest dimension (`prop:` and a key of 300 characters,
 * escaped), 20 values of 500, 10 conditions. A longer text fails the first rule without
 * being parsed.
 */
export const MAX_FILTERS_LENGTH =
  2 +
  MAX_FILTER_CONDITIONS *
    (2 + (12 + 3) + (6 * (PROP_DIMENSION_PREFIX.length + MAX_PROPERTY_KEY_LENGTH) + 3) + 2 + MAX_FILTER_VALUES * (6 * MAX_FILTER_VALUE_LENGTH + 3)) +
  MAX_FILTER_CONDITIONS;
