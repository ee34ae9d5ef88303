import { sqlIdent } from './escape.js';

/**
 * Where the tables live. Queries always name `sites`, `imports`, `events`
 * and `sessions`; on one server those are MergeTree tables, on a cluster they
 * are `Distributed` tables over `<name>_local` tables on every shard.
 */
export interface SchemaTarget {
  database: string;
  /** Cluster name from the servers' `remote_servers`; absent on one server. */
  cluster?: string;
}

/** The session attributes, in the order they are kept in `sessions.first_event`. */
export const SESSION_ATTRIBUTES = [
  'visitor_id',
  'entry_path',
  'referrer_source',
  'channel',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country_code',
  'device_type',
  'browser',
  'os',
] as const;

/** `first_event` holds the session's day and attributes, taken from its first event by (ts, seq). */
const FIRST_EVENT_TYPE = `Tuple(Date, ${SESSION_ATTRIBUTES.map(() => 'String').join(', ')})`;

const COLUMNS = {
  sites: `id String, name String, timezone String, domain String, has_domain UInt8,
    account_id String, has_account UInt8, created_at String, version UInt64`,
  imports: 'hash String, events UInt64, imported_at String',
  events: `site_id String, day Date, ts UInt64, seq UInt64, type Enum8('pageview' = 1, 'event' = 2),
    name String, path String, session_id String,
    ${SESSION_ATTRIBUTES.map((c) => `${c} String`).join(', ')}`,
  sessions: `site_id String, session_id String, batch_day Date,
    first_event AggregateFunction(argMin, ${FIRST_EVENT_TYPE}, Tuple(UInt64, UInt64)),
    first_ts AggregateFunction(min, UInt64), last_ts AggregateFunction(max, UInt64),
    last_day AggregateFunction(max, Date),
    pageviews AggregateFunction(sum, UInt64), custom_events AggregateFunction(sum, UInt64)`,
} as const;

const ENGINES = {
  // Newest version of a site wins; reads take argMax(..., version), so no FINAL is needed.
  sites: 'ReplacingMergeTree(version) ORDER BY id',
  imports: 'MergeTree() ORDER BY hash',
  events: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, session_id, ts, seq)',
  // One row per (session, insert block); rows of one session merge in the background and at query time.
  sessions: 'AggregatingMergeTree() PARTITION BY toYYYYMM(batch_day) ORDER BY (site_id, session_id, batch_day)',
} as const;

/** Sharding keys: all events and session rows of one session live on one shard. */
const SHARDING = { sites: 'sipHash64(id)', imports: 'sipHash64(hash)', events: 'sipHash64(session_id)', sessions: 'sipHash64(session_id)' } as const;

type Table = keyof typeof COLUMNS;
const TABLES: Table[] = ['sites', 'imports', 'events', 'sessions'];

/** Fully qualified, quoted name of a table as queries use it. */
export function tableName(target: SchemaTarget, table: Table): string {
  return `${sqlIdent(target.database)}.${sqlIdent(table)}`;
}

/** Name of the table that physically holds the rows (`_local` on a cluster). */
export function storageTableName(target: SchemaTarget, table: Table): string {
  return `${sqlIdent(target.database)}.${sqlIdent(target.cluster ? `${table}_local` : table)}`;
}

/**
 * The DDL, in order, idempotent (`IF NOT EXISTS`). With `onCluster` each
 * statement carries `ON CLUSTER` (needs ZooKeeper / ClickHouse Keeper);
 * without it the statements are meant to be run on every server.
 *
 * @example
 * for (const sql of schemaStatements({ database: 'siteline' })) await client.command({ query: sql });
 */
export function schemaStatements(target: SchemaTarget, onCluster = false): string[] {
  const db = sqlIdent(target.database);
  const on = onCluster && target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : '';
  const statements = [`CREATE DATABASE IF NOT EXISTS ${db}${on}`];
  for (const table of TABLES) {
    const local = storageTableName(target, table);
    statements.push(`CREATE TABLE IF NOT EXISTS ${local}${on} (${COLUMNS[table]}) ENGINE = ${ENGINES[table]}`);
    if (target.cluster) {
      const [, localName] = local.split('.');
      statements.push(
        `CREATE TABLE IF NOT EXISTS ${tableName(target, table)}${on} AS ${local}
         ENGINE = Distributed(${sqlIdent(target.cluster)}, ${db}, ${localName}, ${SHARDING[table]})`,
      );
    }
  }
  const attrs = SESSION_ATTRIBUTES.join(', ');
  statements.push(
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${sqlIdent('sessions_mv')}${on} TO ${storageTableName(target, 'sessions')} AS
     SELECT site_id, session_id, argMin(day, (ts, seq)) AS batch_day,
       argMinState((day, ${attrs}), (ts, seq)) AS first_event,
       minState(ts) AS first_ts, maxState(ts) AS last_ts, maxState(day) AS last_day,
       sumState(toUInt64(type = 'pageview')) AS pageviews, sumState(toUInt64(type = 'event')) AS custom_events
     FROM ${storageTableName(target, 'events')} GROUP BY site_id, session_id`,
  );
  return statements;
}
