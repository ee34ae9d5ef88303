import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { connect } from './client.js';
import { DuplicateImportError, type BreakdownTotals, type DayTotals, type PageTotals, type Storage } from '@siteline/core';
import { outsideDateType, readDay } from './days.js';
import { sqlIdent } from './escape.js';
import { eventRow } from './events.js';
import { migrateSchema } from './migrate.js';
import * as q from './queries.js';
import { tableName } from './schema.js';
import { insertSettings, querySettings } from './settings.js';
import { bySiteOrder, importCountSql, importRow, siteRow, sitesSql, toSite } from './sites.js';

export interface ClickHouseStorageOptions {
  /** HTTP(S) address of a server, e.g. `http://127.0.0.1:8123`. */
  url: string;
  username?: string;
  password?: string;
  /** Database of the Siteline tables, created by `migrate()`. Default `siteline`. */
  database?: string;
  /**
   * Cluster name from the servers' `remote_servers`. The tables then are
   * `Distributed` over `<table>_local` on every shard, sharded by session.
   */
  cluster?: string;
  /**
   * HTTP addresses of every server of `cluster`, so `migrate()` can create the
   * tables on each one. Without it `migrate()` uses `ON CLUSTER` DDL, which
   * needs ZooKeeper / ClickHouse Keeper.
   */
  nodes?: string[];
  /** Per-request timeout in ms (the client default, 30 s, when absent). */
  requestTimeoutMs?: number;
  /**
   * Optional bound on how many days a session may last, for very large
   * sites: the look-back before a range (to exclude sessions that started
   * earlier) then reads only this many days. Exact whenever no session spans
   * more days; absent (the default): unbounded and always exact.
   */
  maxSessionDays?: number;
  /** Extra settings sent with every request. */
  clickhouseSettings?: ClickHouseSettings;
}

/** A `Storage` over ClickHouse, plus schema creation and the underlying client. */
export interface ClickHouseStorage extends Storage {
  /** Creates the database, tables and materialized view if missing; idempotent. */
  migrate(): Promise<void>;
  readonly client: ClickHouseClient;
}

const num = (value: unknown): number => Number(value);

/**
 * The scale-out store: events in a MergeTree partitioned by month, sessions
 * pre-aggregated by a materialized view, optionally sharded over a cluster.
 * Call `migrate()` once before use.
 *
 * @example
 * const storage = createClickHouseStorage({ url: 'http://127.0.0.1:8123', database: 'siteline' });
 * await storage.migrate();
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo', period: '7d' }));
 */
export function createClickHouseStorage(options: ClickHouseStorageOptions): ClickHouseStorage {
  const target: q.QueryTarget = { database: options.database ?? 'siteline', cluster: options.cluster, maxSessionDays: options.maxSessionDays };
  sqlIdent(target.database); // refuse a bad name now, not at the first query
  if (target.cluster !== undefined) sqlIdent(target.cluster);
  if (options.maxSessionDays !== undefined && !(Number.isSafeInteger(options.maxSessionDays) && options.maxSessionDays >= 0)) {
    throw new TypeError('maxSessionDays must be a non-negative integer');
  }
  const client = connect({
    url: options.url,
    username: options.username,
    password: options.password,
    requestTimeoutMs: options.requestTimeoutMs,
    clickhouse_settings: options.clickhouseSettings,
  });
  const clustered = options.cluster !== undefined;
  const { perSession, localIn } = querySettings(clustered);
  let forInserts: Promise<ClickHouseSettings> | undefined;

  const rows = async <T>(query: string, settings: ClickHouseSettings = {}): Promise<T[]> =>
    (await client.query({ query, format: 'JSONEachRow', clickhouse_settings: settings })).json<T>();

  const insert = async (table: 'sites' | 'events' | 'imports', values: object[]) => {
    forInserts ??= insertSettings(client, clustered).catch((error: unknown) => {
      forInserts = undefined; // ask again next time
      throw error;
    });
    await client.insert({ table: tableName(target, table), values, format: 'JSONEachRow', clickhouse_settings: await forInserts });
  };

  const sessionDays = (range: Parameters<Storage['summary']>[0]) =>
    rows<{ d: string; visitors: string; sessions: string; bounces: string; durationMs: string }>(q.sessionDaysSql(target, range), perSession);
  const pageviewDays = (range: Parameters<Storage['summary']>[0]) =>
    rows<{ d: string; pageviews: string }>(q.pageviewDaysSql(target, range));

  return {
    kind: 'clickhouse',
    client,
    migrate: () => migrateSchema(client, target, options),

    async insertSite(site) {
      if ((await this.getSite(site.id)) !== undefined) throw new Error(`Site ${site.id} already exists`);
      await insert('sites', [siteRow(site, Date.now())]);
    },
    async getSite(id) {
      const [row] = await rows<Parameters<typeof toSite>[0]>(sitesSql(target, { id }));
      return row && toSite(row);
    },
    async listSites(filter) {
      const found = await rows<Parameters<typeof toSite>[0]>(sitesSql(target, { accountId: filter?.accountId }));
      return found.map(toSite).sort(bySiteOrder);
    },

    async writeEvents(events, record) {
      const values = events.map(eventRow);
      if (record) {
        const [found] = await rows<{ n: string }>(importCountSql(target, record.hash));
        if (num(found?.n) > 0) throw new DuplicateImportError(record.hash);
      }
      // One INSERT: a failure leaves at most whole parts behind, never a torn row (see README, "Writes").
      if (values.length > 0) await insert('events', values);
      if (record) await insert('imports', [importRow(record)]);
    },

    async summary(range) {
      const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      if (outsideDateType(range)) return totals;
      const [days, views] = await Promise.all([sessionDays(range), pageviewDays(range)]);
      for (const d of days) {
        totals.visitors += num(d.visitors);
        totals.sessions += num(d.sessions);
        totals.bounces += num(d.bounces);
        totals.durationMs += num(d.durationMs);
      }
      for (const d of views) totals.pageviews += num(d.pageviews);
      return totals;
    },

    async timeseries(range) {
      if (outsideDateType(range)) return [];
      const [days, views] = await Promise.all([sessionDays(range), pageviewDays(range)]);
      const out = new Map<string, DayTotals>();
      for (const d of days) out.set(readDay(d.d), { day: readDay(d.d), visitors: num(d.visitors), sessions: num(d.sessions), pageviews: 0 });
      for (const d of views) {
        const day = readDay(d.d);
        const row = out.get(day) ?? { day, visitors: 0, sessions: 0, pageviews: 0 };
        row.pageviews = num(d.pageviews);
        out.set(day, row);
      }
      return [...out.values()];
    },

    async sessionBreakdown(range, dimension): Promise<BreakdownTotals[]> {
      if (outsideDateType(range)) return [];
      const found = await rows<Record<string, string>>(q.breakdownSql(target, range, dimension), perSession);
      const keys = q.dimensionColumns(dimension).map((_, i) => `k${i}`);
      return found.map((r) => ({ key: keys.map((k) => r[k]!), visitors: num(r.visitors), sessions: num(r.sessions) }));
    },

    async pages(range) {
      if (outsideDateType(range)) return [];
      const [views, entries, [last]] = await Promise.all([
        rows<{ path: string; pageviews: string; visitors: string }>(q.pageViewsSql(target, range)),
        rows<{ path: string; entrySessions: string; entryBounces: string }>(q.pageEntriesSql(target, range), perSession),
        rows<{ last: string }>(q.lastSessionDaySql(target, range), localIn),
      ]);
      const pages = new Map<string, PageTotals>();
      for (const v of views) {
        pages.set(v.path, {
          path: v.path, pageviews: num(v.pageviews), visitors: num(v.visitors),
          entrySessions: 0, entryBounces: 0, timedViews: 0, timeOnPageMs: 0,
        });
      }
      if (pages.size === 0) return [];
      for (const e of entries) {
        const page = pages.get(e.path);
        if (page) Object.assign(page, { entrySessions: num(e.entrySessions), entryBounces: num(e.entryBounces) });
      }
      const timed = await rows<{ path: string; timedViews: string; timeOnPageMs: string }>(
        q.timeOnPageSql(target, range, readDay(last?.last ?? '0000-00-00')),
        perSession,
      );
      for (const t of timed) {
        const page = pages.get(t.path);
        if (page) Object.assign(page, { timedViews: num(t.timedViews), timeOnPageMs: num(t.timeOnPageMs) });
      }
      return [...pages.values()];
    },

    async customEvents(range, name) {
      if (outsideDateType(range)) return [];
      const found = await rows<{ name: string; n: string }>(q.customEventsSql(target, range, name));
      return found.map((r) => ({ name: r.name, count: num(r.n) }));
    },

    async liveVisitors(siteId, sinceMs, untilMs) {
      if (untilMs < 0 || untilMs <= sinceMs) return 0;
      const [row] = await rows<{ live: string }>(q.liveVisitorsSql(target, siteId, sinceMs, untilMs));
      return num(row?.live ?? 0);
    },

    async close() {
      await client.close();
    },
  };
}
