import type { EndpointName, EndpointParams, EndpointResponses } from '@siteline/core';
import { PATHS } from './endpoints.js';
import { ConnectionError, makeError, RateLimitError, ServerError, SitelineError, TimeoutError } from './errors.js';
import type { FetchResponse, ResolvedOptions } from './options.js';
import { backoffDelay, retryDelay, sleep } from './retry.js';

/** Per-call options of every endpoint method. */
export interface RequestOptions {
  /** Aborts the call, including any wait between retries; the call then rejects with `signal.reason`. */
  signal?: AbortSignal;
}

/** What a call answers: the JSON body, or the text of `format=csv` or of `/export` (NDJSON). */
export type ResponseFormat = 'json' | 'csv' | 'ndjson';
const ACCEPT: Record<ResponseFormat, string> = {
  json: 'application/json', csv: 'text/csv, application/json', ndjson: 'application/x-ndjson, application/json',
};
/** `/export` (issue 27) besides the report paths. */
const REQUEST_PATHS = { ...PATHS, export: '/export' } as const;

/** The one request function behind every endpoint method; `csv` and `ndjson` resolve to the text. */
export type Request = <E extends EndpointName>(
  endpoint: E | 'export',
  params: EndpointParams[E],
  options?: RequestOptions,
  format?: ResponseFormat,
) => Promise<EndpointResponses[E]>;

/**
 * Builds the request function: one GET per attempt, retried after 429,
 * >= 500 and connection errors (see `retryDelayFor`).
 */
export function createRequest(config: ResolvedOptions): Request {
  return async (endpoint, params, options = {}, format = 'json') => {
    const url = buildUrl(config.baseUrl, REQUEST_PATHS[endpoint], format === 'csv' ? { ...params, format } : params);
    for (let retry = 0; ; retry++) {
      let delay: number | undefined;
      try {
        return (await attempt(config, url, options.signal, format)) as never;
      } catch (error) {
        delay = retry < config.maxRetries ? retryDelayFor(error, retry) : undefined;
        if (delay === undefined) throw error;
      }
      await sleep(delay, options.signal);
    }
  };
}

/**
 * The retry policy. 429 and >= 500 wait for `Retry-After` when given (given
 * up at once when it exceeds 30 s), else jittered exponential backoff.
 * Connection errors back off and retry: every endpoint is a read, so
 * repeating one is safe. Timeouts are not retried: a report that took
 * `timeoutMs` once will likely do so again, and retrying would multiply both
 * the caller's wait and the load on a slow server. Everything else (other
 * 4xx, a caller's abort, a malformed body) is final.
 */
function retryDelayFor(error: unknown, retry: number): number | undefined {
  if (error instanceof RateLimitError || error instanceof ServerError) return retryDelay(retry, error.headers.get('retry-after'));
  if (error instanceof ConnectionError && !(error instanceof TimeoutError)) return backoffDelay(retry);
  return undefined;
}

/** One attempt: the response body parsed (CSV: its text), or the error it stands for (errors are JSON either way). */
async function attempt(config: ResolvedOptions, url: string, callerSignal: AbortSignal | undefined, format: ResponseFormat): Promise<unknown> {
  callerSignal?.throwIfAborted();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, config.timeoutMs);
  const onAbort = () => controller.abort(callerSignal!.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const headers = { Authorization: `Bearer ${config.apiKey}`, Accept: ACCEPT[format] };
    let response: FetchResponse;
    let text: string;
    try {
      // Raced against the signal too, so a fetch that ignores it still times out.
      response = await untilAborted(config.fetch(url, { method: 'GET', headers, signal: controller.signal }), controller.signal);
      text = await untilAborted(response.text(), controller.signal);
    } catch (cause) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut) throw new TimeoutError(`No response within ${config.timeoutMs} ms.`, { cause });
      throw new ConnectionError(`Connection failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (response.ok && format !== 'json') return text;
    const body = parseJson(text);
    if (!response.ok) throw makeError(response.status, body, response.headers);
    if (typeof body !== 'object' || body === null) throw new SitelineError(`The server answered ${response.status} with a body that is not a JSON object.`);
    return body;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onAbort);
  }
}

/**
 * `<baseUrl><path>?<params>`: numbers become strings, `filters` (a list of
 * conditions) and `steps` (a funnel's) the JSON text the API reads, `undefined`
 * and `null` are left out. The key never goes into the URL.
 */
export function buildUrl(baseUrl: string, path: string, params: object | undefined): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue;
    if (name === 'api_key') throw new SitelineError('Pass the key as the apiKey option, never as a URL parameter.');
    query.append(name, (name === 'filters' || name === 'steps') && typeof value !== 'string' ? JSON.stringify(value) : String(value));
  }
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
