import { createTableStatements, storageTableName, tableName, type TableSpec } from '../schema.js';
import { sqlIdent } from '../../connection/escape.js';
import type { MigrationStep } from './step.js';

/**
 * Version 1: the schema as first released (before versioned migrations), kept
 * verbatim so a new database and an old one reach the same state. Events,
 * sites and import hashes are the source data; `sessions` / `sessions_mv`
 * (per-insert aggregate states) are replaced by version 2.
 */
const ATTRIBUTES = ['visitor_id', 'entry_path', 'referrer_source', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'country_code', 'device_type', 'browser', 'os'];
const FIRST_EVENT_TYPE = `Tuple(Date, ${ATTRIBUTES.map(() => 'String').join(', ')})`;

const TABLES: TableSpec[] = [
  {
    name: 'sites',
    columns: `id String, name String, timezone String, domain String, has_domain UInt8,
    account_id String, has_account UInt8, created_at String, version UInt64`,
    engine: 'ReplacingMergeTree(version) ORDER BY id',
    shardBy: 'sipHash64(id)',
  },
  { name: 'imports', columns: 'hash String, events UInt64, imported_at String', engine: 'MergeTree() ORDER BY hash', shardBy: 'sipHash64(hash)' },
  {
    name: 'events',
    columns: `site_id String, day Date, ts UInt64, seq UInt64, type Enum8('pageview' = 1, 'event' = 2),
    name String, path String, session_id String,
    ${ATTRIBUTES.map((c) => `${c} String`).join(', ')}`,
    engine: 'MergeTree() PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, session_id, ts, seq)',
    shardBy: 'sipHash64(session_id)',
  },
  {
    name: 'sessions',
    columns: `site_id String, session_id String, batch_day Date,
    first_event AggregateFunction(argMin, ${FIRST_EVENT_TYPE}, Tuple(UInt64, UInt64)),
    first_ts AggregateFunction(min, UInt64), last_ts AggregateFunction(max, UInt64),
    last_day AggregateFunction(max, Date),
    pageviews AggregateFunction(sum, UInt64), custom_events AggregateFunction(sum, UInt64)`,
    engine: 'AggregatingMergeTree() PARTITION BY toYYYYMM(batch_day) ORDER BY (site_id, session_id, batch_day)',
    shardBy: 'sipHash64(session_id)',
  },
];

export const initialSchema: MigrationStep = {
  version: 1,
  description: 'events, sites, imports, per-insert session aggregates',
  async up(ctx) {
    const { target, onCluster } = ctx;
    for (const spec of TABLES) for (const sql of createTableStatements(target, spec, onCluster)) await ctx.ddl(sql);
    const attrs = ATTRIBUTES.join(', ');
    const on = onCluster && target.cluster ? ` ON CLUSTER ${sqlIdent(target.cluster)}` : '';
    await ctx.ddl(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${tableName(target, 'sessions_mv')}${on} TO ${storageTableName(target, 'sessions')} AS
     SELECT site_id, session_id, argMin(day, (ts, seq)) AS batch_day,
       argMinState((day, ${attrs}), (ts, seq)) AS first_event,
       minState(ts) AS first_ts, maxState(ts) AS last_ts, maxState(day) AS last_day,
       sumState(toUInt64(type = 'pageview')) AS pageviews, sumState(toUInt64(type = 'event')) AS custom_events
     FROM ${storageTableName(target, 'events')} GROUP BY site_id, session_id`,
    );
  },
};
