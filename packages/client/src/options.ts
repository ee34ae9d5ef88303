import { type HeadersLike, SitelineError } from './errors.js';

/** What the client passes to `fetch`. */
export interface FetchInit {
  method: 'GET';
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** The part of a fetch `Response` the client reads. */
export interface FetchResponse {
  status: number;
  ok: boolean;
  headers: HeadersLike;
  text(): Promise<string>;
}

/**
 * The subset of `fetch` the client needs; the platform `fetch` fits, and so
 * does any adapter (a proxy agent, a server with a private CA).
 *
 * @example
 * import { Agent, fetch } from 'undici';
 * const dispatcher = new Agent({ connect: { ca: privateCaPem } });
 * createClient({ baseUrl, apiKey, fetch: (url, init) => fetch(url, { ...init, dispatcher }) });
 */
export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

/**
 * Options of `createClient`.
 *
 * @example
 * createClient({ baseUrl: 'https://analytics.example.com/api/v1', apiKey: process.env.SITELINE_API_KEY!, timeoutMs: 10_000 });
 */
export interface ClientOptions {
  /** The API's base address, ending in `/api/v1`, e.g. `https://analytics.example.com/api/v1`. Must be HTTPS. */
  baseUrl: string;
  /** The API key; sent only as `Authorization: Bearer <key>`. Keep it on the server. */
  apiKey: string;
  /** Replaces the global `fetch`. */
  fetch?: Fetch;
  /** Retries after 429, 5xx and connection errors; default 2 (so up to 3 attempts). */
  maxRetries?: number;
  /** Per-attempt limit in ms, until the whole body is read; default 30,000. */
  timeoutMs?: number;
  /** Allow `http://` to `localhost`, `127.0.0.1` or `[::1]` (local development only). */
  allowInsecureLoopback?: boolean;
}

/** Options after validation, as the request function uses them. */
export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  fetch: Fetch;
  maxRetries: number;
  timeoutMs: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Checks the options and fills in defaults; throws a `SitelineError` saying what to fix. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') {
    throw new SitelineError('Siteline API keys must not be used in client-side code: call the API from your back end.');
  }
  if (typeof options?.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new SitelineError('apiKey is required and must be a non-empty string.');
  }
  if (/[\s\x00-\x1f\x7f]/.test(options.apiKey)) throw new SitelineError('apiKey must not contain spaces or control characters.');
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new SitelineError('maxRetries must be an integer >= 0.');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new SitelineError('timeoutMs must be a positive number.');
  const fetch = options.fetch ?? defaultFetch();
  return { baseUrl: checkBaseUrl(options.baseUrl, options.allowInsecureLoopback ?? false), apiKey: options.apiKey, fetch, maxRetries, timeoutMs };
}

function checkBaseUrl(baseUrl: string, allowInsecureLoopback: boolean): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new SitelineError(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}.`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new SitelineError('baseUrl must not contain a query, a fragment or credentials.');
  }
  const insecureOk = url.protocol === 'http:' && allowInsecureLoopback && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !insecureOk) {
    throw new SitelineError(
      `baseUrl must use https:// (got ${url.protocol}//${url.host}): the API rejects plain HTTP and the key would travel in clear. ` +
        'For a local server on localhost, 127.0.0.1 or [::1], set allowInsecureLoopback: true.',
    );
  }
  return url.href.replace(/\/+$/, '');
}

function defaultFetch(): Fetch {
  if (typeof globalThis.fetch !== 'function') throw new SitelineError('No global fetch (Node >= 18 needed): pass options.fetch.');
  return (url, init) => globalThis.fetch(url, init);
}
