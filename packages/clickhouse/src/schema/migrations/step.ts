import { createTableStatements, type SchemaTarget, type TableSpec } from '../schema.js';

/**
 * What a migration step can do. A step runs once per server that holds
 * tables (every node of a cluster when `nodes` are known, else once with
 * `ON CLUSTER` DDL); `data` statements then read and write that server's own
 * rows (`storageTableName`), which is exact because a session's rows all
 * live on one shard.
 */
export interface MigrationContext {
  target: SchemaTarget;
  /** DDL is sent once for the whole cluster: every statement must carry `onClusterClause`. */
  onCluster: boolean;
  /** Runs a DDL statement. */
  ddl(sql: string): Promise<void>;
  /** Runs a data statement (`INSERT ... SELECT`) on the server's own rows. */
  data(sql: string): Promise<void>;
  /** Reads rows (JSONEachRow). */
  query<T>(sql: string): Promise<T[]>;
  /**
   * The table a data statement reads and writes: the server's physical table
   * when the step runs per server, the `Distributed` one when it runs once
   * for an `ON CLUSTER` cluster.
   */
  dataTable(name: string): string;
}

/**
 * One schema version. `up` must be idempotent (a step interrupted half-way is
 * run again from its start) and is never edited once released: a change is a
 * new step appended to `MIGRATIONS`.
 */
export interface MigrationStep {
  version: number;
  description: string;
  up(ctx: MigrationContext): Promise<void>;
}

/**
 * A step that only creates tables (and their `Distributed` tables on a cluster): idempotent
 * by `CREATE TABLE IF NOT EXISTS`.
 * @example export const peopleSchema = tablesStep(6, 'Dashboard users …', TABLES);
 */
export function tablesStep(version: number, description: string, tables: readonly TableSpec[]): MigrationStep {
  return {
    version,
    description,
    async up(ctx) {
      for (const spec of tables) for (const sql of createTableStatements(ctx.target, spec, ctx.onCluster)) await ctx.ddl(sql);
    },
  };
}
