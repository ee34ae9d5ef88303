/** Helpers of the query tests (used only by tests). */
import { expect } from 'vitest';
import { ValidationError } from '../errors.js';
import type { EndpointName } from '../types.js';
import { parseQuery, type RawParams } from './parse.js';

/** The message of the `ValidationError` that parsing `params` for `endpoint` throws (fails the test when it does not throw one). */
export function failure(endpoint: EndpointName, params: RawParams): string {
  try {
    parseQuery(endpoint, params);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a validation error');
}
