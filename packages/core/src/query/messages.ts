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
} as const;

/** Longest range a query may span, in days (decisions.md section 1). */
export const MAX_RANGE_DAYS = 3660;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_EVENT_NAME_LENGTH = 200;
/** Longest accepted site id; keeps every input bounded. */
export const MAX_SITE_ID_LENGTH = 64;
