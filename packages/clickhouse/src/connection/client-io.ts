import { Readable } from 'node:stream';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { ClientConnection } from './client.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { insertSettings } from '../write/settings.js';
import type { WriterIO } from '../write/writer.js';

type RawInsert = (params: {
  table: string;
  columns: readonly string[];
  values: Buffer;
  format: 'TabSeparated';
  settings: Record<string, string>;
}) => Promise<unknown>;

/** chdb's raw insert, when the connection is chdb's (its `chdb` namespace says so). */
function chdbRawInsert(connection: ClientConnection | undefined): RawInsert | undefined {
  const chdb = (connection as { chdb?: { rawInsert?: RawInsert } } | undefined)?.chdb;
  return typeof chdb?.rawInsert === 'function' ? (params) => chdb.rawInsert!(params) : undefined;
}

/** Visitor builds: blocks of 100,000 rows before the insert (see migrate.ts, DATA_SETTINGS). */
const BUILD_SETTINGS: ClickHouseSettings = { min_insert_block_size_rows: '100000' };

/**
 * The store's way to the server: reads as JSON rows, inserts (small ones as
 * `JSONEachRow`, bulk rows as `TabSeparated`, through chdb's raw insert when
 * the connection is chdb's) and `INSERT ... SELECT` commands, all writes with
 * the insert settings (settings.ts).
 */
export function clientIO(client: ClickHouseClient, target: SchemaTarget, clustered: boolean, connection?: ClientConnection) {
  const rawInsert = chdbRawInsert(connection);
  let forInserts: Promise<ClickHouseSettings> | undefined;
  const writeSettings = () =>
    (forInserts ??= insertSettings(client, clustered).catch((error: unknown) => {
      forInserts = undefined; // ask again next time
      throw error;
    }));
  const io: WriterIO = {
    async rows<T>(query: string, settings: ClickHouseSettings = {}): Promise<T[]> {
      return (await client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings })).json<T>();
    },
    async insert(table, values) {
      await client.insert({ table: tableName(target, table), values: values as object[], format: 'JSONEachRow', clickhouse_settings: await writeSettings() });
    },
    async insertLines(table, columns, body) {
      if (rawInsert) {
        const settings = Object.fromEntries(Object.entries(await writeSettings()).map(([k, v]) => [k, String(v)]));
        await rawInsert({ table: `${target.database}.${table}`, columns, values: Buffer.concat([...body].map((piece) => Buffer.from(piece))), format: 'TabSeparated', settings });
        return;
      }
      await client.insert({
        table: tableName(target, table),
        columns: columns as [string, ...string[]],
        values: Readable.from(body, { objectMode: false }),
        format: 'TabSeparated',
        clickhouse_settings: await writeSettings(),
      });
    },
  };
  return {
    io,
    /** An `INSERT ... SELECT` (visitor builds). */
    async command(query: string): Promise<void> {
      // A build's `IN` and `JOIN` subqueries read one session's rows, which all live on one shard: shard-locally on a cluster.
      const local: ClickHouseSettings = clustered ? { distributed_product_mode: 'local' } : {};
      await client.command({ query, clickhouse_settings: { ...(await writeSettings()), ...BUILD_SETTINGS, ...local } });
    },
  };
}
