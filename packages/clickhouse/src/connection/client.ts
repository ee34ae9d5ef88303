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

/** A request that went out on a connection the server had closed: no answer came, nothing was run. */
const isClosedConnection = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
};

/**
 * Code 101 (UNEXPECTED_PACKET_FROM_CLIENT) from a shard: a fault between two servers of a
 * cluster, not in the query. ClickHouse before 20.12 can cancel a `Distributed` read's
 * remote part while the query is still being sent to it, and that shard then fails the
 * read (ClickHouse pull request 17254). 18.16 did so once in CI, in the scale-out test (two
 * server processes reading through two shards on a loaded machine). The read ran nowhere to
 * completion and changed nothing, so it is sent again. The 18.16 message has no `(TYPE)`
 * suffix, so the client leaves it unparsed: the code is read from the text.
 */
const isShardProtocolFault = (error: unknown): boolean => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '101' || (typeof message === 'string' && /^Code: 101\b/.test(message));
};

/**
 * Every client of this package. The client's own logger is off: failures reach the caller
 * as rejected promises and the caller reports them (a server logs them as JSON lines, a
 * command prints what to fix), so nothing is printed twice or in another format.
 *
 * Over HTTP(S) a server closes a kept-alive connection once it has idled for its
 * `keep_alive_timeout` (3 s on 18.16), and a request that crosses that close on the wire
 * fails with `socket hang up` (ECONNRESET). The client drops connections sooner (2.5 s),
 * but on a loaded machine its timers run late and the race is real: a 10M import into
 * clickhouse-server 18.16 died of it. So reads (`query`: SELECTs, which change nothing)
 * keep their connections, and a read that went out on a closed one is sent once more, on
 * a connection of its own (any other kept-alive connection may have been closed too: after
 * a pause, every connection of the pool is, and reads side by side leave several);
 * a read a shard failed on a protocol fault (`isShardProtocolFault`) is sent once more too;
 * writes (`insert`, `command`, `exec`) go out on a connection of their own each, which
 * nobody closes under them, and are never sent twice (a write that fails may have been
 * stored, so it is reported, not repeated). A new loopback connection costs well under a
 * millisecond, and writes are few and large (imports, the collector's batches).
 *
 * @example
 * const client = connect({ url: 'http://127.0.0.1:8123' });
 * const rows = await (await client.query({ query: 'SELECT 1 AS one', format: 'JSONEachRow' })).json();
 */
export function connect(options: ConnectOptions): ClickHouseClient {
  const make = (keepAlive: boolean) =>
    createClient({
      url: options.url,
      connection: options.connection,
      username: options.username,
      password: options.password,
      request_timeout: options.requestTimeoutMs,
      clickhouse_settings: options.clickhouse_settings,
      keep_alive: { enabled: keepAlive },
      log: { level: ClickHouseLogLevel.OFF },
    });
  const client = make(true);
  if (options.connection) return client; // its own transport (chdb runs in-process): no connections to lose
  const writes = make(false);
  const query = client.query.bind(client);
  const close = client.close.bind(client);
  const fresh = writes.query.bind(writes);
  const retried: typeof client.query = async (params) => {
    try {
      return await query(params);
    } catch (error) {
      if (!isClosedConnection(error) && !isShardProtocolFault(error)) throw error;
      return fresh(params);
    }
  };
  return Object.assign(client, {
    query: retried,
    insert: writes.insert.bind(writes),
    command: writes.command.bind(writes),
    exec: writes.exec.bind(writes),
    close: async () => void (await Promise.all([close(), writes.close()])),
  });
}
