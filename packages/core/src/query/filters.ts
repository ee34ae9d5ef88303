import { ValidationError } from '../errors.js';
import type { FilterCondition } from '../types.js';
import { MAX_FILTERS_LENGTH, MESSAGES } from './messages.js';
import { filterConditionSchema, filterConditionsSchema, filterShapeSchema } from './schema.js';

/**
 * Reads the `filters` parameter (JSON text) with the rules of query-extensions.md
 * section 4, in their order: the conditions one by one, each failing on its first
 * broken rule (shape, operator, dimension, values), then their number. An empty
 * array is no filter.
 *
 * @example
 * parseFilters('[["is","country",["DE","AT"]],["is","page",["/pricing"]]]');
 * // [['is', 'country', ['DE', 'AT']], ['is', 'page', ['/pricing']]]
 */
export function parseFilters(text: string): FilterCondition[] {
  if (text.length > MAX_FILTERS_LENGTH) throw new ValidationError(MESSAGES.filtersShape);
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    throw new ValidationError(MESSAGES.filtersShape);
  }
  if (!Array.isArray(decoded)) throw new ValidationError(MESSAGES.filtersShape);
  for (const item of decoded) {
    firstIssue(filterShapeSchema.safeParse(item));
    firstIssue(filterConditionSchema.safeParse(item));
  }
  return firstIssue(filterConditionsSchema.safeParse(decoded)) as FilterCondition[];
}

function firstIssue<T>(result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }): T {
  if (!result.success) throw new ValidationError(result.error.issues[0]?.message ?? MESSAGES.filtersShape);
  return result.data;
}
