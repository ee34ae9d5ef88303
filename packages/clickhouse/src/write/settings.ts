import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';

/**
 * Settings of inserts (and of the `INSERT ... SELECT` of visitor builds):
 * synchronous Distributed inserts (read your writes, and an error reaches the
 * caller), and no cap on partitions per insert on servers that have one (an
 * import may span more than 100 months). Only names that ClickHouse 18.16
 * knows are sent unconditionally; anything newer is sent only after the
 * server listed it in `system.settings` (old servers reject unknown names).
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
