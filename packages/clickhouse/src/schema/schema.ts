import { sqlIdent } from '../connection/escape.js';

/**
 * Where the tables live. Queries name every table by its plain name; on one
 * server that is the MergeTree table itself, on a cluster it is a
 * `Distributed` table over `<name>_local` tables on every shard.
 */
export interface SchemaTarget {
  database: string;
  /** Cluster name from the servers' `remote_servers`; absent on one server. */
  cluster?: string;
}

/** Fully qualified, quoted name of a table as queries use it (the `Distributed` one on a cluster). */
export function tableName(target: SchemaTarget, table: string): string {
  return `${sqlIdent(target.database)}.${sqlIdent(table)}`;
}

/** Name of the table that physically holds the rows (`<name>_local` on a cluster). */
export function storageTableName(target: SchemaTarget, table: string): string {
  return `${sqlIdent(target.database)}.${sqlIdent(target.cluster ? `${table}_local` : table)}`;
}

/** A table as a migration step creates it. Frozen in the step that creates it: a later change is a new step. */
export interface TableSpec {
  name: string;
  columns: string;
  engine: string;
  /** Sharding key of the `Distributed` table on a cluster. */
  shardBy: string;
}

/** ` ON CLUSTER <name>` when DDL is sent once for the whole cluster, else nothing. */
export const onClusterClause = (target: SchemaTarget, onCluster: boolean): string =>
  onCluster && target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : '';

/** `CREATE TABLE IF NOT EXISTS` of the table, plus its `Distributed` table on a cluster. */
export function createTableStatements(target: SchemaTarget, spec: TableSpec, onCluster: boolean): string[] {
  const on = onClusterClause(target, onCluster);
  const local = storageTableName(target, spec.name);
  const statements = [`CREATE TABLE IF NOT EXISTS ${local}${on} (${spec.columns}) ENGINE = ${spec.engine}`];
  if (target.cluster) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${tableName(target, spec.name)}${on} AS ${local}
       ENGINE = Distributed(${sqlIdent(target.cluster)}, ${sqlIdent(target.database)}, ${sqlIdent(`${spec.name}_local`)}, ${spec.shardBy})`,
    );
  }
  return statements;
}

/** `DROP TABLE IF EXISTS` of a table and, on a cluster, of its `Distributed` table. */
export function dropTableStatements(target: SchemaTarget, name: string, onCluster: boolean): string[] {
  const on = onClusterClause(target, onCluster);
  const statements = target.cluster ? [`DROP TABLE IF EXISTS ${tableName(target, name)}${on}`] : [];
  statements.push(`DROP TABLE IF EXISTS ${storageTableName(target, name)}${on}`);
  return statements;
}

/**
 * A materialized view from one physical table into another: on a cluster it
 * works shard-locally (`<source>_local` into `<into>_local`), which is right
 * for every view here because each one only regroups the rows it is given.
 */
export function createViewStatement(
  target: SchemaTarget,
  view: { name: string; from: string; into: string; select: (from: string) => string },
  onCluster: boolean,
): string {
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${tableName(target, view.name)}${onClusterClause(target, onCluster)}
    TO ${storageTableName(target, view.into)} AS ${view.select(storageTableName(target, view.from))}`;
}
