import { createTableStatements, type TableSpec } from '../schema.js';
import type { MigrationStep } from './step.js';

/** Names of the backend's tables (accounts.ts, salts.ts). */
export type BackendTable = 'accounts' | 'api_keys' | 'api_key_revocations' | 'api_key_uses' | 'salts';

/**
 * Version 3: the backend's tables beside the reports' data: Cloud accounts,
 * API keys (hashes only), their revocations and last uses, and the
 * collector's daily salts. Rows are only ever inserted (ClickHouse has no
 * cheap updates): a key is revoked by a row in `api_key_revocations`, which
 * nothing can take back, and its last use is the newest row of
 * `api_key_uses`. New tables only, so the step is idempotent.
 */
const TABLES: (TableSpec & { name: BackendTable })[] = [
  { name: 'accounts', columns: 'id String, name String, created_at String', engine: 'MergeTree() ORDER BY id', shardBy: 'sipHash64(id)' },
  {
    name: 'api_keys',
    columns: 'id String, account_id String, name String, hash String, prefix String, last4 String, created_at String',
    engine: 'MergeTree() ORDER BY hash',
    shardBy: 'sipHash64(hash)',
  },
  { name: 'api_key_revocations', columns: 'key_id String, account_id String, revoked_at String', engine: 'MergeTree() ORDER BY key_id', shardBy: 'sipHash64(key_id)' },
  // Newest use per key survives merges; reads take max(used_ms) anyway.
  { name: 'api_key_uses', columns: 'key_id String, used_ms UInt64', engine: 'ReplacingMergeTree(used_ms) ORDER BY key_id', shardBy: 'sipHash64(key_id)' },
  // One partition per day, so an expired day's salt is dropped whole; `inserted` is the clock of the
  // server that stores the row (a day's candidates all land on one shard): see salts.ts.
  {
    name: 'salts',
    columns: 'day String, salt String, inserted DateTime DEFAULT now()',
    engine: 'MergeTree() PARTITION BY day ORDER BY (day, inserted, salt)',
    shardBy: 'sipHash64(day)',
  },
];

export const backendSchema: MigrationStep = {
  version: 3,
  description: 'Cloud accounts, API keys, key revocations and uses, daily salts',
  async up(ctx) {
    for (const spec of TABLES) for (const sql of createTableStatements(ctx.target, spec, ctx.onCluster)) await ctx.ddl(sql);
  },
};
