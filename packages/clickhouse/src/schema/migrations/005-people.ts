import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/** Names of the people tables (people.ts). */
export type PeopleTable = 'users' | 'user_links' | 'user_link_uses' | 'web_sessions';

/**
 * Version 5 (issue 25): dashboard users, one-time links and web sessions. ClickHouse has no
 * cheap updates, so every change is an inserted row and reads aggregate:
 * - `users`: the whole row again with a higher `version`; reads take `argMax(…, version)`.
 * - `web_sessions`: a use inserts a row with the new `last_seen_ms`, a sign-out one with
 *   `ended` 1; reads take `max(last_seen_ms)` and `max(ended)`, so an ended session stays
 *   ended whatever the clocks of the hosts that wrote. `version` (`ended` rows the largest)
 *   lets merges keep that row.
 * - `user_link_uses`: a link is used by inserting a use; only a use found alone succeeds (people.ts).
 * Each table is sharded by its key, so every row of one user, session or link lives on one
 * shard. New tables only: the step is idempotent.
 */
const TABLES: (TableSpec & { name: PeopleTable })[] = [
  {
    name: 'users',
    columns: `id String, account_id String, email String, role String, password_hash String, totp_secret String,
      recovery_hashes Array(String), sessions_after_ms UInt64, created_at String, removed UInt8, version UInt64`,
    engine: 'ReplacingMergeTree(version) ORDER BY id',
    shardBy: 'sipHash64(id)',
  },
  { name: 'user_links', columns: 'token_hash String, user_id String, expires_ms UInt64', engine: 'MergeTree() ORDER BY token_hash', shardBy: 'sipHash64(token_hash)' },
  {
    name: 'user_link_uses',
    columns: 'token_hash String, use_id String, used_ms UInt64',
    engine: 'MergeTree() ORDER BY (token_hash, used_ms, use_id)',
    shardBy: 'sipHash64(token_hash)',
  },
  {
    name: 'web_sessions',
    columns: `id_hash String, user_id String, key_id String, account_id String, csrf String, created_ms UInt64, last_seen_ms UInt64,
      ended UInt8, version UInt64`,
    engine: 'ReplacingMergeTree(version) ORDER BY id_hash',
    shardBy: 'sipHash64(id_hash)',
  },
];

export const peopleSchema = tablesStep(5, 'Dashboard users, one-time links and their uses, web sessions', TABLES);
