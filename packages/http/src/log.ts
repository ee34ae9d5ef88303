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

/**
 * A request target safe to log: the `api_key` value replaced by `[REDACTED]`.
 * @example redactUrl('/api/v1/stats?site_id=ST-a&api_key=secret') // '/api/v1/stats?site_id=ST-a&api_key=[REDACTED]'
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[REDACTED]');
}
