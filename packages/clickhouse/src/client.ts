import { type ClickHouseClient, ClickHouseLogLevel, type ClickHouseSettings, createClient } from '@clickhouse/client';

/** A connection `createClient` takes (`@clickhouse/client` >= 1.23), e.g. chdb's. */
export type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>;

export interface ConnectOptions {
  /** HTTP(S) address of a server; or `connection`. */
  url?: string;
  /** A ready connection instead of `url` (e.g. chdb's in-process one). */
  connection?: ClientConnection;
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
    connection: options.connection,
    username: options.username,
    password: options.password,
    request_timeout: options.requestTimeoutMs,
    clickhouse_settings: options.clickhouse_settings,
    log: { level: ClickHouseLogLevel.OFF },
  });
}
