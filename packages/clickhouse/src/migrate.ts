import type { ClickHouseClient } from '@clickhouse/client';
import { connect } from './client.js';
import { backendSchemaStatements } from './backend-schema.js';
import { schemaStatements, type SchemaTarget } from './schema.js';

/** Every statement of the schema: the reports' tables, then the backend's (accounts, keys, salts). */
const allStatements = (target: SchemaTarget, onCluster = false) => [...schemaStatements(target, onCluster), ...backendSchemaStatements(target, onCluster)];

interface Credentials {
  username?: string;
  password?: string;
  nodes?: string[];
}

/**
 * Creates the schema. One server: the statements run on it. A cluster with
 * `nodes`: they run on every node (each needs its local tables, the
 * Distributed tables and the materialized view). A cluster without `nodes`:
 * `ON CLUSTER` DDL through the given client (needs ZooKeeper / Keeper).
 *
 * @example
 * await migrateSchema(client, { database: 'siteline' }, {});
 */
export async function migrateSchema(client: ClickHouseClient, target: SchemaTarget, options: Credentials): Promise<void> {
  if (!target.cluster || !options.nodes?.length) {
    for (const query of allStatements(target, true)) await client.command({ query });
    return;
  }
  for (const url of options.nodes) {
    const node = connect({ url, username: options.username, password: options.password });
    try {
      for (const query of allStatements(target)) await node.command({ query });
    } finally {
      await node.close();
    }
  }
}
