import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';

/**
 * Per-request settings. Only names that ClickHouse 18.16 knows are sent
 * unconditionally; anything newer is sent only after the server listed it in
 * `system.settings` (old servers reject unknown setting names).
 */
export function querySettings(clustered: boolean) {
  return {
    /**
     * Session-level GROUP BYs: every event and session row of a session is on
     * one shard (sharding key `sipHash64(session_id)`), so each shard finishes
     * them alone, and IN subqueries read the shard's local table.
     */
    perSession: (clustered ? { distributed_group_by_no_merge: '1', distributed_product_mode: 'local' } : {}) as ClickHouseSettings,
    /** IN subqueries over a session set: local on each shard, for the same reason. */
    localIn: (clustered ? { distributed_product_mode: 'local' } : {}) as ClickHouseSettings,
  };
}

/**
 * Settings of inserts: synchronous Distributed inserts (read your writes,
 * and an error reaches the caller), and no cap on partitions per insert on
 * servers that have one (an import may span more than 100 months).
 */
export async function insertSettings(client: ClickHouseClient, clustered: boolean): Promise<ClickHouseSettings> {
  const settings: ClickHouseSettings = clustered ? { insert_distributed_sync: 1 } : {};
  const result = await client.query({
    query: "SELECT name FROM system.settings WHERE name = 'max_partitions_per_insert_block'",
    format: 'JSONEachRow',
  });
  if ((await result.json()).length > 0) settings.max_partitions_per_insert_block = '0';
  return settings;
}
