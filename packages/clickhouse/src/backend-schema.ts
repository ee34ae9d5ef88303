import { sqlIdent } from './escape.js';
import type { SchemaTarget } from './schema.js';

/**
 * Tables of the backend beside the reports' data: Cloud accounts, API keys (hashes only),
 * their revocations and last uses, and the collector's daily salts. Rows are only ever
 * inserted (ClickHouse has no cheap updates): a key is revoked by a row in
 * `api_key_revocations`, which nothing can take back, and its last use is the newest row
 * of `api_key_uses`.
 */
export const BACKEND_TABLES = {
  accounts: { columns: 'id String, name String, created_at String', engine: 'MergeTree() ORDER BY id', sharding: 'sipHash64(id)' },
  api_keys: {
    columns: 'id String, account_id String, name String, hash String, prefix String, last4 String, created_at String',
    engine: 'MergeTree() ORDER BY hash',
    sharding: 'sipHash64(hash)',
  },
  api_key_revocations: { columns: 'key_id String, account_id String, revoked_at String', engine: 'MergeTree() ORDER BY key_id', sharding: 'sipHash64(key_id)' },
  // Newest use per key survives merges; reads take max(used_ms) anyway.
  api_key_uses: { columns: 'key_id String, used_ms UInt64', engine: 'ReplacingMergeTree(used_ms) ORDER BY key_id', sharding: 'sipHash64(key_id)' },
  // One partition per day, so an expired day's salt is dropped whole; `inserted` is the clock of the
  // server that stores the row (a day's candidates all land on one shard): see salts.ts.
  salts: {
    columns: 'day String, salt String, inserted DateTime DEFAULT now()',
    engine: 'MergeTree() PARTITION BY day ORDER BY (day, inserted, salt)',
    sharding: 'sipHash64(day)',
  },
} as const;

export type BackendTable = keyof typeof BACKEND_TABLES;

/** Name queries use (`Distributed` on a cluster). */
export function backendTable(target: SchemaTarget, table: BackendTable): string {
  return `${sqlIdent(target.database)}.${sqlIdent(table)}`;
}

/** Name of the table holding the rows on each server (`_local` on a cluster). */
export function backendLocalTable(target: SchemaTarget, table: BackendTable): string {
  return `${sqlIdent(target.database)}.${sqlIdent(target.cluster ? `${table}_local` : table)}`;
}

/** The DDL of the backend tables, idempotent, in the shape of `schemaStatements`. */
export function backendSchemaStatements(target: SchemaTarget, onCluster = false): string[] {
  const on = onCluster && target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : '';
  const statements: string[] = [];
  for (const [table, { columns, engine, sharding }] of Object.entries(BACKEND_TABLES) as [BackendTable, (typeof BACKEND_TABLES)[BackendTable]][]) {
    const local = backendLocalTable(target, table);
    statements.push(`CREATE TABLE IF NOT EXISTS ${local}${on} (${columns}) ENGINE = ${engine}`);
    if (target.cluster) {
      statements.push(
        `CREATE TABLE IF NOT EXISTS ${backendTable(target, table)}${on} AS ${local}
         ENGINE = Distributed(${sqlIdent(target.cluster)}, ${sqlIdent(target.database)}, ${sqlIdent(`${table}_local`)}, ${sharding})`,
      );
    }
  }
  return statements;
}
