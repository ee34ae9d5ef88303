import { type ClickHouseClient, ClickHouseLogLevel, type ClickHouseSettings, createClient } from '@clickhouse/client';

export interface ConnectOptions {
  url: string;
  username?: string;
  password?: string;
  /** Per-request timeout in ms (the client default, 30 s, when absent). */
  requestTimeoutMs?: number;
  clickhouse_settings?: ClickHouseSettings;
}

/**
 * Every client of this package. The client's own logger is off: failures reach the caller
 * as rejected promises and the caller reports them (a server logs them as JSON lines, a
 * command prints what to fix), so nothing is printed twice or in another format.
 */
export function connect(options: ConnectOptions): ClickHouseClient {
  return createClient({
    url: options.url,
    username: options.username,
    password: options.password,
    request_timeout: options.requestTimeoutMs,
    clickhouse_settings: options.clickhouse_settings,
    log: { level: ClickHouseLogLevel.OFF },
  });
}
