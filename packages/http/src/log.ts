import { parseRequestTarget, type RequestTarget } from './request-target.js';

/** One structured log entry; written as a JSON line by the default logger. */
export type LogEntry = { level: 'info' | 'warn' | 'error'; msg: string } & Record<string, unknown>;
export type Logger = (entry: LogEntry) => void;

/**
 * Writes each entry as one JSON line with a timestamp (stdout; errors to stderr).
 * @example createApiHandler({ storage, authenticate, logger: jsonLogger() })
 */
export function jsonLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Logger {
  return (entry) => (entry.level === 'error' ? err : out).write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}

export const silentLogger: Logger = () => {};

/** Longest path, parameter name and value written to a log line, and how many parameters. */
const LOGGED = { path: 512, name: 64, value: 256, params: 20 } as const;

/**
 * What a request log line says about the target: only what was parsed (path, decoded query
 * parameters), never the raw target, so neither a `#fragment` nor a target that does not
 * parse is ever written. A parameter whose decoded name is `api_key` in any spelling
 * (`api%5Fkey`, `%61pi_key`, `API-Key`, `api_key%00`: letters and digits compared, case
 * ignored) has its value replaced by `[REDACTED]`. Sizes are bounded.
 * @example requestLogFields(parseRequestTarget('/api/v1/stats?site_id=ST-a&api%5Fkey=secret#x'))
 * // { path: '/api/v1/stats', query: { site_id: 'ST-a', api_key: '[REDACTED]' } }
 */
export function requestLogFields(target: RequestTarget | undefined): { path: string; query: Record<string, string | string[]> } | { path: null } {
  if (!target) return { path: null };
  const query: Record<string, string | string[]> = {};
  let count = 0;
  for (const [name, value] of target.searchParams) {
    if (++count > LOGGED.params) break;
    const shown = isKeyParameter(name) ? '[REDACTED]' : clip(value, LOGGED.value);
    const key = clip(name, LOGGED.name);
    const previous = Object.hasOwn(query, key) ? query[key] : undefined;
    // defineProperty: a parameter named `__proto__` is a field like any other.
    Object.defineProperty(query, key, { value: previous === undefined ? shown : [previous, shown].flat(), enumerable: true, writable: true, configurable: true });
  }
  return { path: clip(target.pathname, LOGGED.path), query };
}

/**
 * A request target safe to log, rebuilt from what parses: the path and the decoded
 * parameters, `api_key` (in any spelling) as `[REDACTED]`, no fragment; `''` when it does not parse.
 * @example redactUrl('/api/v1/stats?site_id=ST-a&api%5Fkey=secret#frag') // '/api/v1/stats?site_id=ST-a&api_key=[REDACTED]'
 */
export function redactUrl(url: string): string {
  const target = parseRequestTarget(url);
  if (!target) return '';
  const params = [...target.searchParams].map(([name, value]) =>
    `${encodeURIComponent(name)}=${isKeyParameter(name) ? '[REDACTED]' : encodeURIComponent(value)}`);
  return params.length > 0 ? `${target.pathname}?${params.join('&')}` : target.pathname;
}

/** Whether a decoded parameter name is `api_key` as a person would read it. */
function isKeyParameter(name: string): boolean {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '') === 'apikey';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
