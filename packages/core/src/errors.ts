/**
 * Errors the core raises on purpose. The HTTP adapter maps them to statuses
 * (422, 404); anything else is an internal error (500).
 */

/** A request parameter broke a rule of decisions.md section 5 (HTTP 422). */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
}

/** The site does not exist or the caller may not read it (HTTP 404). */
export class SiteNotFoundError extends Error {
  override readonly name = 'SiteNotFoundError';
  constructor() {
    super('Site not found.');
  }
}

/** One bad line of an NDJSON import. */
export interface ImportLineError {
  /** 1-based line number in the input. */
  line: number;
  reason: string;
}

/** An import was rejected as a whole; nothing was stored. */
export class ImportError extends Error {
  override readonly name: string = 'ImportError';
  constructor(
    message: string,
    /** The first 100 bad lines, in input order. */
    readonly lineErrors: ImportLineError[] = [],
    /** Number of bad lines in total (may exceed `lineErrors.length`). */
    readonly badLines = lineErrors.length,
  ) {
    super(message);
  }
}

/** The same batch of events was imported before; nothing was stored. */
export class DuplicateImportError extends ImportError {
  override readonly name: string = 'DuplicateImportError';
  constructor(readonly hash: string) {
    super(`This data was already imported (sha256 ${hash}); nothing was stored.`);
  }
}

/**
 * The storage adapter does not implement what the query needs (filters without
 * `capabilities.selection`, `interval=hour` without `hourBuckets`, funnels without
 * `capabilities.funnels`): the query is refused rather than answered wrongly. The HTTP
 * adapter answers 422 with `MESSAGES.unsupported` and logs this message (which names the
 * storage and the capability) for the operator.
 */
export class UnsupportedQueryError extends Error {
  override readonly name = 'UnsupportedQueryError';
}

/** A goal broke a rule (properties-goals.md section 4) or is not there; nothing was changed. */
export class GoalError extends Error {
  override readonly name = 'GoalError';
}

/** A funnel broke a rule (funnels.md section 4) or is not there; nothing was changed. */
export class FunnelError extends Error {
  override readonly name = 'FunnelError';
}
