import type { TableSpec } from '../schema.js';
import { tablesStep } from './step.js';

/** Names of the tables of this step (sharing/). */
export type SharingTable = 'shared_links' | 'report_subscriptions' | 'report_sends';

/**
 * Version 12 (issue 37): shared links, email report subscriptions and send attempts. Every
 * change is an inserted row, as for people (version 5):
 * - `shared_links`: the whole row again with a higher `version`; reads take `argMax(…, version)`
 *   and `max(revoked_ms)`, so a revoked link stays revoked whatever the hosts' clocks.
 * - `report_subscriptions`: likewise, `removed` 1 when unsubscribed.
 * - `report_sends`: a claim is a row (outcome '', a random `claim_id`); after a settling wait
 *   the smallest claim of a send and attempt wins (sharing/email-reports.ts); the outcome
 *   ('sent', 'failed') is another row. Attempt 0 is a send by hand.
 * Links are sharded by id, the rest by site, so every row of one link or send is on one shard.
 * New tables only: the step is idempotent.
 */
const TABLES: (TableSpec & { name: SharingTable })[] = [
  {
    name: 'shared_links',
    columns: `id String, site_id String, name String, token_hash String, password_hash String, frame_ancestors Array(String),
      segment String, created_at String, revoked_ms UInt64, version UInt64`,
    engine: 'ReplacingMergeTree(version) ORDER BY id',
    shardBy: 'sipHash64(id)',
  },
  {
    name: 'report_subscriptions',
    columns: 'site_id String, kind String, email String, created_ms UInt64, removed UInt8, version UInt64',
    engine: 'ReplacingMergeTree(version) ORDER BY (site_id, kind, email)',
    shardBy: 'sipHash64(site_id)',
  },
  {
    name: 'report_sends',
    columns: `site_id String, kind String, period String, email String, attempt UInt32, claim_id String, claimed_ms UInt64,
      outcome String, unsubscribe_hash String`,
    engine: 'MergeTree() ORDER BY (period, site_id, kind, email, attempt, claim_id)',
    shardBy: 'sipHash64(site_id)',
  },
];

export const sharingSchema = tablesStep(12, 'Shared links, email report subscriptions and send attempts', TABLES);
