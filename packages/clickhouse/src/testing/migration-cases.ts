/**
 * Migration cases (used only by tests), run on one 18.16 server, on two
 * shards and on chdb: a database populated the way the released adapter
 * (schema version 1, before versioned migrations) wrote it is upgraded by
 * `migrate()`, keeps its data, answers every report as the SQLite store
 * does, and takes further writes that continue its stored sessions.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { addFunnel, addGoal, createSite, listFunnels, createSqliteStorage, DuplicateImportError, importEvents, parseQuery, REPORTS, type RawParams, type Storage } from '@siteline/core';
import { ALPHA, BETA, DELTA_FIRST, DELTA_SECOND, GAMMA_FIRST, GAMMA_SECOND, ndjson, PROPS, PROPS_GOALS } from '@siteline/core/testing';
import { expect, it } from 'vitest';
import type { ClickHouseStorage } from '../clickhouse-storage.js';
import { DIFF_SITES, generateDiffData } from './differential-data.js';
import { addDiffGoals, differentialMismatches } from './differential-run.js';
import { sqlString } from '../connection/escape.js';
import { eventRow } from '../write/events.js';
import { migrationContext } from '../schema/migrate.js';
import { initialSchema } from '../schema/migrations/001-initial.js';
import { propertiesSchema } from '../schema/migrations/004-properties.js';
import { nameCountsSchema } from '../schema/migrations/008-name-counts.js';
import { funnelsSchema } from '../schema/migrations/013-funnels.js';
import { MIGRATIONS } from '../schema/migrations/index.js';
import { storageTableName, tableName, type SchemaTarget } from '../schema/schema.js';
import { importCountSql, importRow, siteRow, sitesSql, toSite, type SiteRead } from '../sites/sites.js';

const CONFORMANCE_SITES = [
  { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' },
  { id: 'ST-beta', name: 'Beta', timezone: 'America/New_York' },
  { id: 'ST-gamma', name: 'Gamma' },
  { id: 'ST-delta', name: 'Delta' },
];
const SALT = (day: string) => `migration-salt-${day}`;

/**
 * The store as version 1 wrote it: the released schema without a
 * `schema_migrations` table, events in one INSERT (its view filled the
 * per-insert session aggregates), then the import hash.
 */
async function legacyStore(client: ClickHouseClient, target: SchemaTarget, servers: ClickHouseClient[]): Promise<Storage> {
  for (const server of servers) {
    await server.command({ query: `CREATE DATABASE IF NOT EXISTS ${target.database}` });
    await initialSchema.up(migrationContext(server, target, false));
  }
  const settings = target.cluster ? { insert_distributed_sync: 1 as const } : {};
  const rows = async <T>(query: string) => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (table: string, values: object[]) =>
    client.insert({ table: tableName(target, table), values, format: 'JSONEachRow', clickhouse_settings: settings });
  const unused = async (): Promise<never> => {
    throw new Error('not part of the legacy store');
  };
  return {
    kind: 'clickhouse-v1',
    async insertSite(site) {
      await insert('sites', [siteRow(site, Date.now())]);
    },
    async getSite(id) {
      const [row] = await rows<SiteRead>(sitesSql(target, { id }));
      return row && toSite(row);
    },
    listSites: unused,
    updateSite: unused,
    async writeEvents(events, record) {
      if (record && Number((await rows<{ n: string }>(importCountSql(target, record.hash)))[0]?.n) > 0) throw new DuplicateImportError(record.hash);
      if (events.length > 0) await insert('events', events.map(eventRow));
      if (record) await insert('imports', [importRow(record)]);
    },
    summary: unused,
    timeseries: unused,
    sessionBreakdown: unused,
    pages: unused,
    customEvents: unused,
    liveVisitors: unused,
    close: async () => {},
  };
}

/**
 * Writes to every store in turn (the same stored events reach each). `released`: as the
 * released adapter could store them, without properties (it had no place for them).
 */
function tee(stores: Storage[], released = false): Storage {
  return {
    ...stores[0]!,
    insertSite: async (site) => {
      for (const store of stores) await store.insertSite(site);
    },
    writeEvents: async (events, record) => {
      const written = released ? events.map(({ props: _, ...event }) => event) : events;
      for (const store of stores) await store.writeEvents(written, record);
    },
  };
}

export interface MigrationSetup {
  target: SchemaTarget;
  /** The client of the store (a node of the cluster, or chdb). */
  client: ClickHouseClient;
  /** Every server holding tables (one, each node of the cluster, or the chdb client). */
  servers: ClickHouseClient[];
  /** The current store over the same database. */
  open: () => ClickHouseStorage;
}

/** Registers the cases; `setup()` gives an empty server (or cluster) of the current file. */
export function migrationCases(setup: () => MigrationSetup): void {
  /** The migrated store is compared with SQLite four times: on every fourth differential case (the differential tests take them all). */
  const mismatches = (storage: ClickHouseStorage, name: string) => differentialMismatches(sqlite, [{ name, storage }], { every: 4 });
  let sqlite: Storage;
  let storage: ClickHouseStorage;
  let events = 0;
  const count = async (table: string) =>
    Number((await (await setup().client.query({ query: `SELECT count() AS n FROM ${tableName(setup().target, table)}`, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n);
  const report = (store: Storage, endpoint: keyof typeof REPORTS, params: RawParams) => REPORTS[endpoint](store, parseQuery(endpoint, params));

  it('populates a database with the released adapter (no schema version)', async () => {
    const { client, target, servers } = setup();
    const legacy = await legacyStore(client, target, servers);
    sqlite = createSqliteStorage(':memory:');
    const both = tee([legacy, sqlite], true);
    for (const site of [...CONFORMANCE_SITES, ...DIFF_SITES]) await createSite(both, site);
    for (const data of [ALPHA, BETA, GAMMA_FIRST, DELTA_FIRST]) await importEvents(both, ndjson(data), { salt: SALT });
    const [first, middle, last] = generateDiffData();
    for (const batch of [last!, first!, middle!]) await importEvents(both, batch.map((line) => JSON.stringify(line)), { salt: SALT });
    events = await count('events');
    expect(events).toBeGreaterThan(20_000);
    const tables = await (await client.query({
      query: `SELECT name FROM system.tables WHERE database = ${sqlString(target.database)} AND name IN ('sessions_mv', 'schema_migrations') ORDER BY name`,
      format: 'JSONEachRow',
    })).json<{ name: string }>();
    expect(tables.map((t) => t.name)).toEqual(['sessions_mv']);
  });

  it('migrates to the current version on every server and keeps every event', async () => {
    const { target, servers, open } = setup();
    storage = open();
    await storage.migrate();
    for (const server of servers) {
      const versions = await (await server.query({ query: `SELECT version FROM ${storageTableName({ database: target.database }, 'schema_migrations')} ORDER BY version`, format: 'JSONEachRow' })).json<{ version: number }>();
      expect(versions.map((v) => Number(v.version))).toEqual(MIGRATIONS.map((step) => step.version)); // 1 to SCHEMA_VERSION, each once
      const view = await (await server.query({ query: `SELECT count() AS n FROM system.tables WHERE database = ${sqlString(target.database)} AND name = 'sessions_mv'`, format: 'JSONEachRow' })).json<{ n: string }>();
      expect(Number(view[0]!.n)).toBe(0);
    }
    expect(await count('events')).toBe(events);
    expect(await count('imports')).toBe(7); // four conformance files and three slices
    await storage.migrate(); // nothing left to do
    expect(await count('events')).toBe(events);
    // Goals are kept from version 4 on; the same ones in the SQLite store, for the comparison.
    await addDiffGoals([storage, sqlite]);
  });

  it('runs a step a server has not recorded even below its highest version (a number allocated earlier that lands later)', async () => {
    const { target, servers } = setup();
    const versions = storageTableName({ database: target.database }, 'schema_migrations');
    const recorded = async (server: ClickHouseClient) =>
      (await (await server.query({ query: `SELECT version FROM ${versions} ORDER BY version`, format: 'JSONEachRow' })).json<{ version: number }>()).map((v) => Number(v.version));
    // As if step 5 (the people tables) had come after the later ones: every version but 5 is recorded, and the users tables are not there.
    for (const server of servers) {
      await server.command({ query: `TRUNCATE TABLE ${versions}` });
      await server.command({ query: `INSERT INTO ${versions} (version, applied_at) VALUES ${MIGRATIONS.filter((m) => m.version !== 5).map((m) => `(${m.version}, '')`).join(', ')}` });
      await server.command({ query: `DROP TABLE IF EXISTS ${storageTableName(target, 'users')}` });
      if (target.cluster) await server.command({ query: `DROP TABLE IF EXISTS ${tableName(target, 'users')}` });
    }
    await storage.migrate();
    for (const server of servers) expect(await recorded(server)).toEqual(MIGRATIONS.map((m) => m.version)); // 1 to SCHEMA_VERSION
    expect(await count('users')).toBe(0); // there again, empty
  });

  it('answers as it did before: the conformance numbers, and every report as the SQLite store', async () => {
    // conformance.ts: ST-alpha over 11-02..11-03, worked out there.
    expect(await report(storage, 'stats', { site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03' }))
      .toEqual({ visitors: 5, pageviews: 9, sessions: 6, bounce_rate: 33.3, avg_duration: 236.7 });
    expect(await mismatches(storage, 'migrated')).toEqual([]);
  }, 300_000);

  it('continues sessions stored before the migration', async () => {
    const both = tee([storage, sqlite]);
    await importEvents(both, ndjson(GAMMA_SECOND), { salt: SALT });
    await importEvents(both, ndjson(DELTA_SECOND), { salt: SALT });
    // conformance.ts: session x now starts with the older 09:55 /q from b.example (600 s); y keeps a.example (1800 s).
    const gamma = { site_id: 'ST-gamma', from: '2026-11-02', to: '2026-11-02' };
    expect(await report(storage, 'stats', gamma)).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 600 });
    expect(await report(storage, 'referrers', gamma)).toEqual({ referrers: [{ source: 'b.example', visitors: 1, sessions: 1 }] });
    const delta = { site_id: 'ST-delta', from: '2026-11-02', to: '2026-11-02' };
    expect(await report(storage, 'stats', delta)).toEqual({ visitors: 1, pageviews: 3, sessions: 1, bounce_rate: 0, avg_duration: 1800 });
    expect(await report(storage, 'pages', delta)).toEqual({
      pages: [
        { url: '/a', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 600 },
        { url: '/b', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 0 },
        { url: '/c', pageviews: 1, visitors: 1, bounce_rate: 0, avg_duration: 1200 },
      ],
    });
  });

  it('stores and reads properties after migration 4, written by import and continuing stored sessions', async () => {
    const both = tee([storage, sqlite]);
    await createSite(both, { id: 'ST-props', name: 'Properties', timezone: 'UTC' });
    for (const goal of PROPS_GOALS) for (const store of [storage, sqlite]) await addGoal(store, 'ST-props', goal);
    await importEvents(both, ndjson(PROPS), { salt: SALT });
    const range = { site_id: 'ST-props', from: '2026-11-10', to: '2026-11-11' };
    // conformance-properties.ts works these out.
    expect(await report(storage, 'properties', { ...range, name: 'Signup', property: 'plan' })).toEqual({
      name: 'Signup', property: 'plan',
      values: [{ value: 'pro', count: 3, visitors: 3 }, { value: 'Pro', count: 1, visitors: 1 }, { value: 'free', count: 1, visitors: 1 }],
    });
    expect(await report(storage, 'goals', range)).toEqual(await report(sqlite, 'goals', range));
    expect(((await report(storage, 'goals', range)) as { goals: unknown[] }).goals[0]).toEqual({ goal: 'Signup', visitors: 5, conversions: 6, conversion_rate: 83.3 });
    // Step 4 run again (an interrupted migration is started over): nothing added twice, nothing lost.
    const { target, servers } = setup();
    for (const server of servers) await propertiesSchema.up(migrationContext(server, target, false));
    expect(await report(storage, 'properties', { ...range, name: 'Signup', property: 'plan' })).toEqual(await report(sqlite, 'properties', { ...range, name: 'Signup', property: 'plan' }));
    expect(await report(storage, 'goals', range)).toEqual(await report(sqlite, 'goals', range));
  });

  it(`saves and reads funnels after migration ${funnelsSchema.version}, and keeps them when the step runs again`, async () => {
    const funnel = { name: 'Pricing to thanks', steps: [{ page: '/pricing' }, { event: 'Signup' }, { page: '/thanks*' }] };
    for (const store of [storage, sqlite]) await addFunnel(store, 'ST-props', funnel);
    const range = { site_id: 'ST-props', from: '2026-11-10', to: '2026-11-11', funnel: funnel.name };
    // datasets-properties.ts: /pricing then Signup in Q1 and Q2 (a, b on 11-10) and Q7 (a on 11-11): 2 + 1;
    // then /thanks in Q1 only. /stats visitors: a, b, c on 11-10 and a, d, e on 11-11.
    const expected = {
      funnel: funnel.name, visitors: 6,
      steps: [
        { step: 'Visit /pricing', visitors: 3, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
        { step: 'Signup', visitors: 3, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
        { step: 'Visit /thanks*', visitors: 1, dropoff: 2, dropoff_rate: 66.7, conversion_rate: 33.3, conversion_rate_step: 33.3 },
      ],
    };
    expect(await report(storage, 'funnels', range)).toEqual(expected);
    expect(await report(sqlite, 'funnels', range)).toEqual(expected);
    const { target, servers } = setup();
    for (const server of servers) await funnelsSchema.up(migrationContext(server, target, false));
    expect((await listFunnels(storage, 'ST-props')).map((f) => [f.name, f.steps])).toEqual([[funnel.name, funnel.steps]]);
    expect(await report(storage, 'funnels', range)).toEqual(expected);
  });

  it('ends the same when steps 6 and 8 run again, and when every step from 2 on runs again (an interrupted migration is started over)', async () => {
    const { target, servers, open } = setup();
    // As a migration must: with no writer running (close() waits for the store's background visitor builds).
    await storage.close();
    // Steps 6 and 8 over a database whose sessions have many versions and signed rows (the writes above); each rebuilds the session states.
    for (const server of servers) await nameCountsSchema.up(migrationContext(server, target, false));
    storage = open();
    expect(await mismatches(storage, 'step 8 again')).toEqual([]);
    await storage.close();
    for (const server of servers) for (const step of MIGRATIONS.filter((m) => m.version >= 6)) await step.up(migrationContext(server, target, false));
    storage = open();
    expect(await mismatches(storage, 'steps 6 to 8 again')).toEqual([]);
    await storage.close();
    for (const server of servers) for (const step of MIGRATIONS.slice(1)) await step.up(migrationContext(server, target, false));
    storage = open();
    expect(await mismatches(storage, 'every step from 2 on again')).toEqual([]);
    expect(await report(storage, 'stats', { site_id: 'ST-delta', from: '2026-11-02', to: '2026-11-02' }))
      .toEqual({ visitors: 1, pageviews: 3, sessions: 1, bounce_rate: 0, avg_duration: 1800 });
    await storage.close();
    await sqlite.close();
  }, 600_000);
}
