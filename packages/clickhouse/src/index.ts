/**
 * @siteline/clickhouse: the ClickHouse storage adapter of Siteline, for
 * billions of events on one server or a sharded cluster.
 *
 * @example
 * import { openClickHouseBackend } from '@siteline/clickhouse';
 * const backend = await openClickHouseBackend({ url: 'http://127.0.0.1:8123', database: 'siteline' });
 *
 * @example
 * import { createClickHouseStorage } from '@siteline/clickhouse';
 * const storage = createClickHouseStorage({ url: 'http://127.0.0.1:8123' });
 * await storage.migrate();
 */
export { createClickHouseStorage, type ClickHouseStorage, type ClickHouseStorageOptions, type ClientConnection } from './clickhouse-storage.js';
export { openClickHouseBackend, type ClickHouseBackendOptions } from './backend.js';
export { type BackgroundFailure } from './rollups/failures.js';
export { sqlDate, sqlIdent, sqlInt, sqlString } from './connection/escape.js';
export { type SchemaTarget } from './schema/schema.js';
export { MIGRATIONS, SCHEMA_VERSION, type MigrationContext, type MigrationStep } from './schema/migrations/index.js';
