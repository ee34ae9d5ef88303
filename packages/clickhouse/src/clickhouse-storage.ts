import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { type BreakdownTotals, type DayTotals, dayStart, hasConditions, shiftDay, stepGoal, type PageTotals, type Site, type Storage } from '@siteline/core';
import { connect, type ClientConnection } from './connection/client.js';
import { clientIO } from './connection/client-io.js';
import { outsideDateType, readDay } from './schema/days.js';
import { createEventPages } from './reads/export.js';
import { createImported } from './imported/imported.js';
import { sqlIdent } from './connection/escape.js';
import { goalRow, goalsSql, goalVersions, toGoal, type GoalRead } from './sites/goals.js';
import { funnelRow, funnelsSql, toFunnel, type FunnelRead } from './sites/funnels.js';
import { createFunnelReads } from './reads/funnels.js';
import { migrateSchema } from './schema/migrate.js';
import * as q from './reads/queries.js';
import { createGoalVisitors } from './rollups/goal-visitors.js';
import { createFunnelVisitors } from './rollups/funnel-visitors.js';
import { createPropertyCounts } from './rollups/property-counts.js';
import { type BackgroundFailure, reportingCommand } from './rollups/failures.js';
import { createRollups } from './rollups/rollups.js';
import { countedBreakdown, createOneValueReads, oneKey } from './rollups/one-value.js';
import { createPropertyReads, selectedGoalTotals } from './reads/properties.js';
import { createSelectionReads } from './reads/selection.js';
import type { SchemaTarget } from './schema/schema.js';
import { bySiteOrder, siteRow, sitesSql, toSite, type SiteRead } from './sites/sites.js';
import { createVisitorReads } from './rollups/visitors.js';
import { createRepeatableWrites } from './write/repeatable.js';
import { createWriter, type TouchedDays } from './write/writer.js';

export type { ClientConnection } from './connection/client.js';

export interface ClickHouseStorageOptions {
  /** HTTP(S) address of a server, e.g. `http://127.0.0.1:8123`. Needed unless `client` is given. */
  url?: string;
  /**
   * A ready client instead of `url`, e.g. ClickHouse in-process through chdb:
   * `createClient({ connection: createChdbConnection({ path }) })`. The
   * storage closes it on `close()`; `username`, `password`,
   * `requestTimeoutMs` and `clickhouseSettings` are then the client's own
   * business.
   */
  client?: ClickHouseClient;
  /**
   * A `@clickhouse/client` connection instead of `url`: the storage makes the
   * client (`createClient({ connection })`) and closes it on `close()`. With
   * chdb's connection (`createChdbConnection({ path })` from `chdb/connection`)
   * bulk rows go through its zero-copy raw insert (`connection.chdb.rawInsert`),
   * about three times faster than the generic insert path.
   */
  connection?: ClientConnection;
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
   * @deprecated No effect since schema version 2: reads no longer look back
   * before a range (sessions are stored by their start day). Still checked.
   */
  maxSessionDays?: number;
  /**
   * The clock that decides which days are hot (today and, for six hours after
   * midnight, yesterday: read raw instead of being settled); default
   * `Date.now`. Results never depend on it, only speed. For benchmarks and tests.
   */
  now?: () => number;
  /** Extra settings sent with every request. */
  clickhouseSettings?: ClickHouseSettings;
  /**
   * `close` leaves the goal, funnel, property and per-value counts not started yet to a later
   * read (a running server's shutdown: `openClickHouseBackend` with role `serve`), instead of
   * finishing them first (an import tool, whose counts are then ready for the first reads).
   */
  leaveCountsOnClose?: boolean;
  /**
   * Told of each build or count statement that failed (daily visitor rollups, goal, funnel and
   * property counts, run before a read or in the background). Its days are read raw, so answers
   * stay the same but slower, and it is tried again later. The same failure is told at most once
   * a minute. The server logs it as a warning.
   */
  onBackgroundFailure?: (failure: BackgroundFailure) => void;
}

/** A `Storage` over ClickHouse, plus schema migration and the underlying client. */
export interface ClickHouseStorage extends Storage {
  /** Brings the schema to the current version (versioned steps, each idempotent; see README). */
  migrate(): Promise<void>;
  readonly client: ClickHouseClient;
}

const num = (value: unknown): number => Number(value);

/** How long a found site is kept in memory, and how many. */
const SITE_CACHE_MS = 60_000;
const MAX_CACHED_SITES = 10_000;

/**
 * The scale-out store: events in a MergeTree partitioned by month, sessions
 * kept exact by the writer, additive daily rollups kept by materialized
 * views and daily visitor counts built once per settled day; optionally
 * sharded over a cluster. Call `migrate()` once before use.
 *
 * @example
 * const storage = createClickHouseStorage({ url: 'http://127.0.0.1:8123', database: 'siteline' });
 * await storage.migrate();
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo', period: '7d' }));
 */
export function createClickHouseStorage(options: ClickHouseStorageOptions): ClickHouseStorage {
  const target: SchemaTarget = { database: options.database ?? 'siteline', cluster: options.cluster };
  sqlIdent(target.database); // refuse a bad name now, not at the first query
  if (target.cluster !== undefined) sqlIdent(target.cluster);
  if (options.maxSessionDays !== undefined && !(Number.isSafeInteger(options.maxSessionDays) && options.maxSessionDays >= 0)) {
    throw new TypeError('maxSessionDays must be a non-negative integer');
  }
  if (!options.client && !options.connection && !options.url) throw new TypeError('createClickHouseStorage needs a url, a client or a connection');
  const client =
    options.client ??
    connect({
      connection: options.connection,
      url: options.url,
      username: options.username,
      password: options.password,
      requestTimeoutMs: options.requestTimeoutMs,
      clickhouse_settings: options.clickhouseSettings,
    });
  const { io, command } = clientIO(client, target, options.cluster !== undefined, options.connection);
  const rows = io.rows;

  // Every report starts with getSite: a found site is kept for a minute (an edit here replaces it at once; the
  // minute bounds how long another process shows an edited name or domain), a missing one is always asked again.
  // The time zone, the one field reports depend on, never changes.
  const sites = new Map<string, { site: Site; until: number }>();
  const timezones = new Map<string, string>();
  const storage: ClickHouseStorage = {
    kind: 'clickhouse',
    capabilities: { selection: true, properties: true, goals: true, imported: true, funnels: true },
    client,
    async migrate() {
      await backgroundIdle(); // a step may rebuild the tables a background build writes to
      await migrateSchema(client, target, options);
      rollups.forget();
    },

    async insertSite(site) {
      if ((await this.getSite(site.id)) !== undefined) throw new Error(`Site ${site.id} already exists`);
      await io.insert('sites', [siteRow(site, Date.now())]);
    },
    async getSite(id) {
      const hit = sites.get(id);
      if (hit && hit.until > Date.now()) return hit.site;
      const [row] = await rows<SiteRead>(sitesSql(target, { id }));
      const site = row && toSite(row);
      if (site) {
        if (sites.size >= MAX_CACHED_SITES) sites.clear();
        sites.set(id, { site, until: Date.now() + SITE_CACHE_MS });
      }
      return site;
    },
    async updateSite(id, changes) {
      // `sites` keeps versions (ReplacingMergeTree): the edit is a new row with a greater version than the newest.
      const [row] = await rows<SiteRead>(sitesSql(target, { id }));
      if (!row) return undefined;
      const site: Site = { ...toSite(row), name: changes.name, domain: changes.domain };
      await io.insert('sites', [siteRow(site, Math.max(Date.now(), Number(row.site_version) + 1))]);
      sites.set(id, { site, until: Date.now() + SITE_CACHE_MS });
      return site;
    },
    async listSites(filter) {
      const found = await rows<SiteRead>(sitesSql(target, { accountId: filter?.accountId }));
      return found.map(toSite).sort(bySiteOrder);
    },

    async writeEvents(events, record) {
      // One write at a time per store: a write reads the state of its sessions, so two at once could both build on the same one.
      await serially(async () => {
        const touched = await write(events, record);
        if (record) await settle(touched);
      });
    },

    // Serialized with every other write, as writeEvents: a plan reads the state the writes before it left.
    planWrite: (events) => serially(() => repeatable.plan(events)),
    applyWrite: (plan, applyOptions) => serially(() => repeatable.apply(plan, applyOptions)),

    async writeImport(record, batches) {
      // As writeEvents with the record, a batch at a time (the writer merges a session written in several calls exactly).
      await serially(async () => {
        await write.refuseKnown(record);
        const touched: TouchedDays = new Map();
        for (const batch of batches) {
          for (const [siteId, days] of await write(batch)) {
            const all = touched.get(siteId) ?? new Set<string>();
            for (const day of days) all.add(day);
            touched.set(siteId, all);
          }
        }
        await write.recordImport(record);
        await settle(touched);
      });
    },

    async summary(range, selection) {
      if (selection) return (oneKey(selection) ? valueReads : selected).summary(range, selection);
      const totals = { visitors: 0, sessions: 0, bounces: 0, durationMs: 0, pageviews: 0 };
      if (outsideDateType(range)) return totals;
      const [sums, visitors] = await Promise.all([rows<DaySums>(q.daySumsSql(target, range)), visitorsBy(range, '')]);
      for (const d of sums) {
        totals.sessions += num(d.n);
        totals.bounces += num(d.b);
        totals.durationMs += num(d.dur);
        totals.pageviews += num(d.pv);
      }
      for (const v of visitors.values()) totals.visitors += v;
      return totals;
    },

    async summaryVisitors(range, selection) {
      if (selection) return (oneKey(selection) ? valueReads : selected).visitors(range, selection);
      if (outsideDateType(range)) return 0;
      let total = 0;
      for (const v of (await visitorsBy(range, '')).values()) total += v;
      return total;
    },

    async timeseries(range, selection) {
      if (selection) return (oneKey(selection) ? valueReads : selected).timeseries(range, selection);
      if (outsideDateType(range)) return [];
      const [sums, visitors] = await Promise.all([rows<DaySums>(q.daySumsSql(target, range)), visitorsBy(range, '')]);
      const out: DayTotals[] = [];
      for (const d of sums) {
        const day = readDay(d.d);
        const row = { day, visitors: visitors.get(day) ?? 0, sessions: num(d.n), pageviews: num(d.pv) };
        if (row.sessions !== 0 || row.pageviews !== 0) out.push(row);
      }
      return out;
    },

    async sessionBreakdown(range, dimension, selection): Promise<BreakdownTotals[]> {
      if (selection) return (oneKey(selection) && countedBreakdown(dimension) ? valueReads : selected).sessionBreakdown(range, dimension, selection);
      if (outsideDateType(range)) return [];
      const [sums, visitors] = await Promise.all([
        rows<{ val: string; n: string }>(q.dimensionSumsSql(target, range, dimension)),
        visitorsBy(range, dimension),
      ]);
      return sums.map((r) => ({
        key: dimension === 'utm' ? r.val.split('\u0000') : [r.val],
        visitors: visitors.get(r.val) ?? 0,
        sessions: num(r.n),
      }));
    },

    async pages(range, selection) {
      if (selection) return (oneKey(selection) ? valueReads : selected).pages(range, selection);
      if (outsideDateType(range)) return [];
      const [views, entries, visitors] = await Promise.all([
        rows<{ p: string; pv: string; tv: string; tm: string }>(q.pageSumsSql(target, range)),
        rows<{ val: string; n: string; b: string }>(q.dimensionSumsSql(target, range, 'entryPath')),
        visitorsBy(range, 'page'),
      ]);
      const entry = new Map(entries.map((e) => [e.val, e]));
      return views.map((v): PageTotals => ({
        path: v.p,
        pageviews: num(v.pv),
        visitors: visitors.get(v.p) ?? 0,
        entrySessions: num(entry.get(v.p)?.n ?? 0),
        entryBounces: num(entry.get(v.p)?.b ?? 0),
        timedViews: num(v.tv),
        timeOnPageMs: num(v.tm),
      }));
    },

    async customEvents(range, name, selection) {
      if (selection) return selected.customEvents(range, name, selection);
      if (outsideDateType(range)) return [];
      const found = await rows<{ nm: string; n: string }>(q.eventSumsSql(target, range, name));
      return found.map((r) => ({ name: r.nm, count: num(r.n) }));
    },

    hourBuckets: (range, starts, selection) => selected.hourBuckets(range, starts, selection),
    eventPage: (range, after, limit) => eventPage(range, after, limit),

    async liveVisitors(siteId, sinceMs, untilMs) {
      if (untilMs < 0 || untilMs <= sinceMs) return 0;
      const [row] = await rows<{ live: string }>(q.liveVisitorsSql(target, siteId, sinceMs, untilMs));
      return num(row?.live ?? 0);
    },

    properties: (range, name, property, selection) => propertyReads.properties(range, name, property, selection),
    goalTotals: (range, goals, selection) => propertyReads.goalTotals(range, goals, selection),

    async insertGoal(goal) {
      await io.insert('goals', [goalRow(goal, false, nextGoalVersion())]);
    },
    async listGoals(siteId) {
      return (await rows<GoalRead>(goalsSql(target, siteId))).map((row) => toGoal(siteId, row));
    },
    async deleteGoal(siteId, name) {
      const goal = (await this.listGoals!(siteId)).find((g) => g.name === name);
      if (!goal) return false;
      await io.insert('goals', [goalRow(goal, true, nextGoalVersion())]);
      return true;
    },

    writeImported: (dataset, batches) => imported.writeImported(dataset, batches),
    listImports: (siteId) => imported.listImports(siteId),
    deleteImport: (siteId, importId) => imported.deleteImport(siteId, importId),
    importedTotals: (request) => imported.importedTotals(request),
    nativeDays: (siteId, days) => imported.nativeDays(siteId, days),

    funnelVisitors(range, steps, selection) {
      if (!selection || !hasConditions(selection)) return savedFunnels.visitors(range, steps);
      return (oneKey(selection) ? valueReads : funnelReads).funnelVisitors(range, steps, selection);
    },
    // No transactions: the core's checks just before are all there is (two owners adding at once may both pass them).
    async insertFunnel(funnel) {
      await io.insert('funnels', [funnelRow(funnel, false, nextFunnelVersion())]);
      return true;
    },
    async listFunnels(siteId) {
      return (await rows<FunnelRead>(funnelsSql(target, siteId))).map((row) => toFunnel(siteId, row));
    },
    async deleteFunnel(siteId, name) {
      const funnel = (await this.listFunnels!(siteId)).find((f) => f.name === name);
      if (!funnel) return false;
      await io.insert('funnels', [funnelRow(funnel, true, nextFunnelVersion())]);
      return true;
    },

    async close() {
      // Counts are only ahead of time: a server leaves those not started to a later read, so its
      // shutdown waits for one statement at most, not for an import's queue of days.
      if (options.leaveCountsOnClose) for (const counts of [goalVisitors, savedFunnels, propertyCounts, valueReads]) counts.stop();
      await backgroundIdle();
      await client.close();
    },
  };
  const nextGoalVersion = goalVersions();
  const nextFunnelVersion = goalVersions();

  const write = createWriter(io, target);
  const repeatable = createRepeatableWrites(io, target, write.changes);
  let writing: Promise<void> = Promise.resolve();
  /** Runs `run` after every write queued before it (writes read the sessions the ones before them left). */
  const serially = <T>(run: () => Promise<T>): Promise<T> => {
    const result = writing.then(run);
    writing = result.then(() => {}, () => {});
    return result;
  };
  const timezoneOf = async (siteId: string) => {
    let zone = timezones.get(siteId);
    if (zone === undefined) {
      zone = (await storage.getSite(siteId))?.timezone;
      if (zone !== undefined) timezones.set(siteId, zone);
    }
    return zone;
  };
  const reported = reportingCommand(options.onBackgroundFailure);
  const rollups = createRollups(io, target, {
    now: options.now ?? Date.now,
    timezoneOf,
    command: reported('visitor rollups', command),
  });
  const visitorsBy = createVisitorReads(io, target, rollups);
  const selected = createSelectionReads(io, target, options.cluster !== undefined);
  const valueReads = createOneValueReads(io, target, {
    visitorsBy,
    selected: {
      ...selected,
      goalTotals: (range, goals, selection) => selectedGoalTotals(target, selected, range, goals, selection),
      funnelVisitors: (range, steps, selection) => funnelReads.funnelVisitors(range, steps, selection),
    },
    sources: (range) => rollups.sources(range),
    timezoneOf,
    savedSteps: async (siteId) => (await storage.listFunnels!(siteId)).map((f) => f.steps.map(stepGoal)),
    command: reported('per-value counts', command),
  });
  const eventPage = createEventPages(rows, target);
  const goalVisitors = createGoalVisitors(io, target, { sources: (range) => rollups.sources(range), command: reported('goal counts', command) });
  const propertyCounts = createPropertyCounts(io, target, { sources: (range) => rollups.sources(range), command: reported('property counts', command) });
  const propertyReads = createPropertyReads(target, selected, goalVisitors, propertyCounts, valueReads.goalTotals);
  const funnelReads = createFunnelReads(target, selected);
  const savedFunnels = createFunnelVisitors(io, target, {
    sources: (range) => rollups.sources(range),
    savedSteps: async (siteId) => (await storage.listFunnels!(siteId)).map((f) => f.steps.map(stepGoal)),
    raw: (range, steps) => funnelReads.funnelVisitors(range, steps),
    command: reported('funnel counts', command),
  });
  /** Resolves when every build and count started in the background so far is done. */
  const backgroundIdle = () => Promise.all([rollups.idle(), goalVisitors.idle(), savedFunnels.idle(), propertyCounts.idle(), valueReads.idle()]);
  /**
   * After an import: builds the days it touched, then has the site's goals and saved funnels
   * counted on them in the background, so the first reads of those days find counts. A count
   * that cannot start leaves its days to the first read, as before.
   */
  const settle = async (touched: TouchedDays) => {
    const builds = await rollups.settle(touched);
    for (const [siteId, settled] of builds) {
      if (settled.length === 0) continue;
      try {
        const site = await storage.getSite(siteId);
        if (!site) continue;
        const from = settled[0]!.day;
        const to = settled[settled.length - 1]!.day;
        const range = { siteId, from, to, startMs: dayStart(from, site.timezone), endMs: dayStart(shiftDay(to, 1), site.timezone) };
        const [goals, funnels] = await Promise.all([storage.listGoals!(siteId), storage.listFunnels!(siteId)]);
        await goalVisitors.countSettled(siteId, settled, goals);
        await valueReads.countSettled(siteId, settled, goals, funnels.map((f) => f.steps.map(stepGoal)));
        for (const funnel of funnels) await savedFunnels.countSettled(range, settled, funnel.steps.map(stepGoal));
      } catch {
        // Counting is only ahead of time: the first read of these days counts them.
      }
    }
  };
  const imported = createImported(io, target, { client, nodes: options.nodes, username: options.username, password: options.password });

  return storage;
}

interface DaySums {
  d: string;
  n: string;
  b: string;
  dur: string;
  pv: string;
}

