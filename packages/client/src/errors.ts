import { parseRetryAfter } from './retry.js';

/** The part of a fetch `Headers` object the errors read. */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * Base of every error the client throws (except a caller's own abort, which
 * rejects with the signal's reason, as `fetch` does).
 *
 * @example
 * try { await client.stats({ site_id: 'ST-blog' }); }
 * catch (error) { if (error instanceof SitelineError) console.error(error.name, error.message); }
 */
export class SitelineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The server answered with a status other than 2xx. `message` is the body's
 * `error` string (e.g. `Site not found.`), `requestId` the `X-Request-Id`
 * header to quote when reporting a problem. Statuses without a subclass
 * (405, 414, ...) are thrown as a plain `APIError`.
 *
 * @example
 * catch (error) { if (error instanceof APIError) console.error(error.status, error.message, error.requestId); }
 */
export class APIError extends SitelineError {
  /** Made by `makeError` only, so every status maps to its class in one place. */
  constructor(
    readonly status: number,
    message: string,
    readonly headers: HeadersLike,
  ) {
    super(message);
  }

  /** `X-Request-Id` of the response, if the server sent one. */
  get requestId(): string | undefined {
    return this.headers.get('x-request-id') ?? undefined;
  }

  /** The error for a non-2xx response: the subclass of its status, else `APIError`. */
  static from(status: number, body: unknown, headers: HeadersLike): APIError {
    return makeError(status, body, headers);
  }
}

/** 401: the key is missing, wrong or revoked. */
export class UnauthorizedError extends APIError {}
/** 403: the server only answers over HTTPS (`HTTPS is required.`). */
export class ForbiddenError extends APIError {}
/** 404: the site does not exist or this key may not read it (`Site not found.`). */
export class NotFoundError extends APIError {}
/** 422: a parameter is missing or invalid; `message` names the first failing rule. */
export class ValidationError extends APIError {}
/** 500 and above: the server failed; the detail is in its log under `requestId`. */
export class ServerError extends APIError {}

/**
 * 429: the key's request budget is spent. Thrown after the client's own
 * retries, or at once when the server asks to wait longer than the client
 * will sleep (30 s).
 *
 * @example
 * catch (error) { if (error instanceof RateLimitError) setTimeout(retry, (error.retryAfter ?? 60) * 1000); }
 */
export class RateLimitError extends APIError {
  /** Seconds to wait before the next request (`Retry-After`), if given. */
  get retryAfter(): number | undefined {
    const ms = parseRetryAfter(this.headers.get('retry-after'));
    return ms === undefined ? undefined : Math.ceil(ms / 1000);
  }
}

/**
 * No response: the connection failed (refused, reset, DNS, TLS). `cause` is
 * the underlying error.
 *
 * @example
 * catch (error) { if (error instanceof ConnectionError) console.error('unreachable', error.cause); }
 */
export class ConnectionError extends SitelineError {}

/** No response within `timeoutMs` (per attempt). */
export class TimeoutError extends ConnectionError {}

type APIErrorClass = new (status: number, message: string, headers: HeadersLike) => APIError;

/** Status to error class, written once. Statuses >= 500 are `ServerError`. */
export const STATUS_ERRORS: Readonly<Record<number, APIErrorClass>> = {
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  422: ValidationError,
  429: RateLimitError,
};

/**
 * The one place a response becomes an error: picks the class by status and
 * takes the message from the `{"error": "..."}` body.
 *
 * @example
 * const error = makeError(404, { error: 'Site not found.' }, response.headers); // NotFoundError
 */
export function makeError(status: number, body: unknown, headers: HeadersLike): APIError {
  const Class = STATUS_ERRORS[status] ?? (status >= 500 ? ServerError : APIError);
  return new Class(status, errorMessage(status, body), headers);
}

function errorMessage(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') {
    return (body as { error: string }).error;
  }
  return `HTTP ${status} without an error message`;
}
