/**
 * Retry timing. Which failures are retried is decided in `request.ts`:
 * 429, >= 500 and connection errors are; timeouts, other 4xx and a caller's
 * abort are not.
 */

/** Longest `Retry-After` the client sleeps for; a longer one is thrown at once. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** Backoff without `Retry-After`: 0.5 s, 1 s, 2 s, ... up to 8 s, minus up to 25 % jitter. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 8_000;

/**
 * `Retry-After` in milliseconds: delta-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`, counted from `now`). `undefined` when
 * absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}/.test(text)) return undefined; // HTTP-dates start with the day name
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff for retry number `retry` (0-based), with jitter so clients spread out. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const delay = Math.min(BACKOFF_BASE_MS * 2 ** retry, BACKOFF_MAX_MS);
  return delay * (1 - 0.25 * random());
}

/**
 * How long to wait before retrying, or `undefined` not to retry because the
 * server asked for more than `MAX_RETRY_AFTER_MS`.
 */
export function retryDelay(retry: number, retryAfter: string | null | undefined): number | undefined {
  const asked = parseRetryAfter(retryAfter);
  if (asked === undefined) return backoffDelay(retry);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
