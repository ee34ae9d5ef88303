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

/** One bad line of an import (an NDJSON line, a CSV row). */
export interface ImportLineError {
  /** 1-based line number in the input (0: the file as a whole). */
  line: number;
  reason: string;
  /** The file of an export of several files (a Plausible zip), when the line is one of its. */
  file?: string;
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

/** What a `WriteUnavailableError` says, by where the write was refused; written once, tests import them. */
export const WRITE_UNAVAILABLE_MESSAGES = {
  full: "The database's disk is full; nothing was written. Free some space and try again.",
  readonly: 'The database cannot be written (a read-only file, directory or mount); nothing was written.',
  importFull: "The database's disk is full; nothing was imported. Free some space and run the import again.",
  importReadonly: 'The database cannot be written (a read-only file, directory or mount); nothing was imported.',
  stageFull: 'The temporary directory has no space left to stage the import; nothing was imported. Free some space there (or set TMPDIR to a larger disk) and run the import again.',
} as const;

/**
 * The store cannot take writes right now: its disk is full (SQLite's `SQLITE_FULL`) or it is
 * read-only (`SQLITE_READONLY`: a read-only file, directory or mount). Nothing of the write
 * was kept, reads still answer, and the same write succeeds once space (or write access) is
 * back. The HTTP layer answers 503 with `Retry-After`.
 */
export class WriteUnavailableError extends Error {
  override readonly name = 'WriteUnavailableError';
  constructor(
    /** `full`: no space left; `readonly`: the file or its directory cannot be written. */
    readonly reason: 'full' | 'readonly',
    message: string = WRITE_UNAVAILABLE_MESSAGES[reason],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
