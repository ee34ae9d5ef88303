import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { connect } from '../connection/client.js';
import { sqlIdent, sqlInt, sqlString } from '../connection/escape.js';
import { MIGRATIONS, SCHEMA_VERSION, type MigrationContext } from './migrations/index.js';
import { onClusterClause, storageTableName, tableName, type SchemaTarget } from './schema.js';

interface Credentials {
  username?: string;
  password?: string;
  nodes?: string[];
}

/**
 * Brings the schema to `SCHEMA_VERSION`. Each server records the versions it
 * has applied in its own `schema_migrations` table (a database from before
 * versioning has none: step 1 then finds its tables already there, and step 2
 * upgrades them). One server: the steps run on it. A cluster with `nodes`:
 * they run on every node, each on its own rows. A cluster without `nodes`:
 * `ON CLUSTER` DDL through the given client (needs ZooKeeper / Keeper) and
 * data statements once through the `Distributed` tables.
 *
 * Run it with no writer running: a step rebuilds tables that writes also fill.
 *
 * @example
 * await migrateSchema(client, { database: 'siteline' }, {});
 */
export async function migrateSchema(client: ClickHouseClient, target: SchemaTarget, options: Credentials): Promise<void> {
  if (!target.cluster || !options.nodes?.length) {
    await migrateServer(client, target, Boolean(target.cluster));
    return;
  }
  for (const url of options.nodes) {
    const node = connect({ url, username: options.username, password: options.password });
    try {
      await migrateServer(node, target, false);
    } finally {
      await node.close();
    }
  }
}

/** Versions this server has applied, highest last (empty for a new or pre-versioning database). */
export async function appliedVersions(client: ClickHouseClient, target: SchemaTarget): Promise<number[]> {
  const result = await client.query({
    query: `SELECT DISTINCT version FROM ${storageTableName({ database: target.database }, 'schema_migrations')} ORDER BY version`,
    format: 'JSONEachRow',
  });
  return (await result.json<{ version: number | string }>()).map((r) => Number(r.version));
}

/**
 * Settings of data statements. `INSERT ... SELECT` gathers up to a million rows
 * into one block before the views see it, and a view that multiplies its rows
 * (`sessions_dims_mv`, eight per session) would then need gigabytes: blocks of
 * 100,000 rows keep it near 200 MB. Through Distributed tables (`ON CLUSTER`),
 * each statement's rows must be in before the next one reads them.
 */
const DATA_SETTINGS: ClickHouseSettings = { min_insert_block_size_rows: '100000', min_insert_block_size_bytes: String(64 * 1024 * 1024) };

/** How steps reach one server (see `MigrationContext`). */
export function migrationContext(client: ClickHouseClient, target: SchemaTarget, onCluster: boolean): MigrationContext {
  const command = async (query: string) => void (await client.command({ query }));
  return {
    target,
    onCluster,
    ddl: command,
    data: async (query) => void (await client.command({ query, clickhouse_settings: onCluster ? { ...DATA_SETTINGS, insert_distributed_sync: 1 } : DATA_SETTINGS })),
    async query<T>(sql: string) {
      return (await client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
    },
    dataTable: (name) => (onCluster ? tableName(target, name) : storageTableName(target, name)),
  };
}

async function migrateServer(client: ClickHouseClient, target: SchemaTarget, onCluster: boolean): Promise<void> {
  const on = onClusterClause(target, onCluster);
  const command = async (query: string) => void (await client.command({ query }));
  await command(`CREATE DATABASE IF NOT EXISTS ${sqlIdent(target.database)}${on}`);
  // Local to each server on purpose: each server says which steps it has been through.
  const versions = storageTableName({ database: target.database }, 'schema_migrations');
  await command(`CREATE TABLE IF NOT EXISTS ${versions}${on} (version UInt32, applied_at String) ENGINE = MergeTree() ORDER BY version`);
  const applied = await appliedVersions(client, target);
  const current = applied.length > 0 ? applied[applied.length - 1]! : 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`ClickHouse schema version ${current} of ${target.database} is newer than this Siteline (${SCHEMA_VERSION}); upgrade Siteline.`);
  }
  const ctx = migrationContext(client, target, onCluster);
  // Every step not recorded, not only those above the highest: a version allocated earlier can land later.
  const done = new Set(applied);
  for (const step of MIGRATIONS.filter((s) => !done.has(s.version))) {
    await step.up(ctx);
    await command(`INSERT INTO ${versions} (version, applied_at) VALUES (${sqlInt(step.version)}, ${sqlString(new Date().toISOString())})`);
  }
}
