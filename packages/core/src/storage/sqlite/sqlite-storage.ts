import Database from 'better-sqlite3';
import { type Funnel, MAX_FUNNELS, stepGoal } from '../../funnels/funnel.js';
import type { Goal } from '../../goals/goal.js';
import type { Site } from '../../types.js';
import type { ImportRecord, Storage, StoredEvent } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { isSqliteFile, ownerOnlyFiles } from './sqlite-file.js';
import { type ColumnCacheStats, DEFAULT_COLUMN_CACHE_BYTES } from './sqlite-column-cache.js';
import { warmColumnCache } from './sqlite-column-warm.js';
import { createDayVersions } from './sqlite-day-versions.js';
import { createEventPages } from './sqlite-export.js';
import { createImported } from './sqlite-imported.js';
import { createReads } from './sqlite-reads.js';
import { createRollups } from './sqlite-rollups.js';
import { createLiveDeltas } from './sqlite-live.js';
import { createSlices } from './slices/slices.js';
import { translated } from './sqlite-errors.js';
import { createWriter, LIVE_WRITE_MAX_EVENTS } from './sqlite-writer.js';

export interface SqliteStorageOptions {
  /** Open read-only (no migrations, no writes; days not yet rolled up are read raw). */
  readonly?: boolean;
  /**
   * The clock that decides which days are hot ("today", whose rollups each
   * small write keeps current) for the rollups; default `Date.now`. Results
   * never depend on it, only speed. For benchmarks and tests.
   */
  now?: () => number;
  /**
   * WAL pages after which a commit on this connection checkpoints them into the
   * database file (SQLite's `wal_autocheckpoint`; default 1000, ~4 MB). A
   * connection doing only many small writes, away from any thread that answers
   * requests, does better with more: a page rewritten by many commits (rollup
   * rows, a session b-tree leaf) is copied back once per checkpoint. 0: this
   * connection never checkpoints by itself (another connection's commits do, and
   * closing the last connection does), so it never runs a long one. When set,
   * the WAL file is also cut back to 64 MB after a checkpoint (it would keep
   * its largest size otherwise).
   */
  walAutocheckpointPages?: number;
  /**
   * Filtered queries (`filters`), `interval=hour`, `/properties` and `/goals` read a columnar
   * copy of the raw rows of the days they ask for, kept in memory between queries: at most
   * this many bytes (typed arrays and each site's strings, estimated; default 256 MiB, the
   * server's `COLUMN_CACHE_MB`). A day whose rows pass an eighth of it is never loaded in
   * full: its filtered reads go to the raw tables. Larger ranges are still answered, their
   * days passing through the cache. Answers never depend on it, only speed.
   */
  columnCacheBytes?: number;
  /**
   * After opening, load each site's last this many days (today in its time zone and the
   * days before) into the column cache in the background, newest first, a step of a few
   * milliseconds per turn of the event loop, up to half of `columnCacheBytes`; so the first
   * filtered query after a restart finds them loaded. Default 0 (off: a tool or a test
   * opening the file does not expect background reads); the server's connection
   * (`openSqliteBackend` with role `serve`) warms 30.
   */
  columnCacheWarmDays?: number;
  /**
   * Memory for the groups of one day's rollup rebuild (default 32 MiB, estimated): past it
   * the largest table's groups are summed by SQLite instead, sorting on disk
   * (sqlite-rollup-compute.ts). Results never depend on it. For tests.
   */
  rebuildMemoryBytes?: number;
  /**
   * Slices (slices/): after an import, each past day's sums of the sessions of every one-condition
   * filter, so such a filter over a year is a sum of rows; a day changed since is read as before
   * until its slices are computed again (after the read that found it). Default true; false
   * leaves every filtered read to the column cache and the raw tables (tests of those).
   */
  slices?: boolean;
  /** Sessions a day needs for slices (default 4,000, slices/slices.ts `MIN_SESSIONS`). For tests. */
  sliceMinSessions?: number;
  /**
   * When a commit is durable (SQLite's `synchronous` in WAL mode): `normal` (the default), once
   * the commit returns it survives the process being killed, but a power loss or an operating
   * system crash may take the last commits before the next checkpoint; `full`, each commit also
   * waits for the WAL to be on disk (an fsync), so it survives those too, at the cost of that
   * fsync per commit. The server's `SQLITE_SYNCHRONOUS`.
   */
  synchronous?: SqliteSynchronous;
}

/** SQLite's `synchronous` settings the store offers (see `SqliteStorageOptions.synchronous`). */
export type SqliteSynchronous = 'normal' | 'full';

interface SiteRow {
  id: string;
  name: string;
  timezone: string;
  domain: string | null;
  account_id: string | null;
  created_at: string;
}

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
  domain: row.domain,
  accountId: row.account_id,
  createdAt: row.created_at,
});

interface GoalRow {
  site_id: string;
  name: string;
  type: string;
  value: string;
  created_at: string;
}

const toGoal = (row: GoalRow): Goal => ({
  siteId: row.site_id,
  name: row.name,
  type: row.type === 'page' ? 'page' : 'event',
  value: row.value,
  createdAt: row.created_at,
});

interface FunnelRow {
  site_id: string;
  name: string;
  steps: string;
  created_at: string;
}

/** A stored funnel: its steps are the JSON array the API takes. */
const toFunnel = (row: FunnelRow): Funnel => ({ siteId: row.site_id, name: row.name, steps: JSON.parse(row.steps) as Funnel['steps'], createdAt: row.created_at });

/** The SQLite store with its connection and its column cache's counters and warming: for the adapter's own modules, tests and the bench only. */
export type SqliteStore = Storage & {
  readonly db: Database.Database;
  /** What opening changed that its owner should log: files others could read, tightened to 0600 (sqlite-file.ts). */
  readonly notices: readonly string[];
  columnCacheStats(): ColumnCacheStats;
  /** Settles when the background warming (`columnCacheWarmDays`) has finished or stopped; at once without it. Never rejects. */
  readonly columnCacheWarmed: Promise<void>;
  /** Settles once the loads that filtered reads started for the days they read raw have finished. Never rejects. */
  columnCacheFilled(): Promise<void>;
  /** Days filtered reads took from slices and read as before, since the store opened. */
  sliceStats(): { sliced: number; rest: number };
  /** Settles once the days reads found without valid slices have them again. */
  slicesComputed(): Promise<void>;
  /** Computes the slices of a site's days now (not today's), each day in a transaction of its own; a no-op with `slices: false`. */
  computeSlices(siteId: string, days: readonly string[]): void;
};

/**
 * The embedded store: one SQLite file (or `:memory:`) through better-sqlite3,
 * in WAL mode so readers never wait for the writer. The schema is migrated
 * on open. Reports sum per-day rollups (a few rows per day and value) instead
 * of scanning raw events: past days are rolled up after an import or on the
 * first read, today's rollups are kept current by each small write, and a day
 * a write has just touched is read raw until then (sqlite-rollups.ts), so
 * results are always those of the raw rows.
 *
 * @example
 * const storage = createSqliteStorage('./siteline.db');
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo' }));
 */
export function createSqliteStorage(path: string, options: SqliteStorageOptions = {}): Storage {
  return createSqliteStore(path, options);
}

/** `createSqliteStorage` with the connection exposed (the backend's accounts and salts share it). Not exported from the package. */
export function createSqliteStore(path: string, options: SqliteStorageOptions = {}): SqliteStore {
  const readonly = options.readonly ?? false;
  const walPages = options.walAutocheckpointPages;
  if (walPages !== undefined && (!Number.isSafeInteger(walPages) || walPages < 0)) {
    throw new RangeError(`walAutocheckpointPages must be a whole number >= 0, got ${walPages}`);
  }
  for (const name of ['columnCacheWarmDays', 'rebuildMemoryBytes'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new RangeError(`${name} must be a whole number >= 0, got ${value}`);
  }
  const cacheBytes = options.columnCacheBytes;
  if (cacheBytes !== undefined && (!Number.isSafeInteger(cacheBytes) || cacheBytes < 1)) throw new RangeError(`columnCacheBytes must be a whole number >= 1, got ${cacheBytes}`);
  // The file holds password hashes, two-factor secrets, session tokens and salts: the owner's alone, created so (sqlite-file.ts).
  const notices = isSqliteFile(path) ? ownerOnlyFiles(path, !readonly) : [];
  const db = new Database(path, { readonly });
  db.pragma('busy_timeout = 5000');
  // A larger page cache keeps the index pages of a bulk import in memory (the default is 2 MB).
  db.pragma('cache_size = -65536');
  // Sorts larger than the cache spill to a temporary file, not to memory: a rebuild's GROUP BY over a day of
  // unique long URLs sorts gigabytes (sqlite-rollup-compute.ts); small sorts stay in memory either way.
  db.pragma('temp_store = FILE');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    if (walPages !== undefined) {
      db.pragma(`wal_autocheckpoint = ${walPages}`);
      db.pragma('journal_size_limit = 67108864');
    }
    migrate(db);
  } else if ((db.pragma('user_version', { simple: true }) as number) < MIGRATIONS.length) {
    db.close();
    throw new Error(`Database ${path} has an older schema; open it once read-write to upgrade it.`);
  }
  const insertSite = db.prepare(
    'INSERT INTO sites (id, name, timezone, domain, account_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const getSite = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE id = ?');
  const updateSite = db.prepare<[string, string | null, string], SiteRow>('UPDATE sites SET name = ?, domain = ? WHERE id = ? RETURNING *');
  const allSites = db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY created_at, id');
  const accountSites = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE account_id = ? ORDER BY created_at, id');
  const communitySites = db.prepare<[], SiteRow>('SELECT * FROM sites WHERE account_id IS NULL ORDER BY created_at, id');
  const insertGoal = db.prepare('INSERT INTO goals (site_id, name, type, value, created_at) VALUES (?, ?, ?, ?, ?)');
  const siteGoals = db.prepare<[string], GoalRow>('SELECT site_id, name, type, value, created_at FROM goals WHERE site_id = ?');
  const deleteGoal = db.prepare('DELETE FROM goals WHERE site_id = ? AND name = ?');
  // One statement checks the name and the site's count and inserts: two adds at once cannot both pass either.
  const insertFunnel = db.prepare(
    `INSERT INTO funnels (site_id, name, steps, created_at) SELECT @site, @name, @steps, @created WHERE (SELECT COUNT(*) FROM funnels WHERE site_id = @site) < ${MAX_FUNNELS}
     ON CONFLICT (site_id, name) DO NOTHING`,
  );
  const siteFunnels = db.prepare<[string], FunnelRow>('SELECT site_id, name, steps, created_at FROM funnels WHERE site_id = ?');
  const deleteFunnel = db.prepare('DELETE FROM funnels WHERE site_id = ? AND name = ?');
  const timezones = new Map<string, string>();
  const timezoneOf = (siteId: string): string | undefined => {
    let zone = timezones.get(siteId);
    if (zone === undefined) {
      zone = getSite.get(siteId)?.timezone;
      if (zone !== undefined) timezones.set(siteId, zone);
    }
    return zone;
  };
  const write = createWriter(db, createLiveDeltas(db));
  const rollups = createRollups(db, options.rebuildMemoryBytes);
  const versions = createDayVersions(db);
  const slices = options.slices === false ? undefined : createSlices(db, versions, {
    now: options.now ?? Date.now,
    timezoneOf,
    settingsOf: (siteId) => ({ goals: siteGoals.all(siteId).map(toGoal), funnels: siteFunnels.all(siteId).map((row) => toFunnel(row).steps.map(stepGoal)) }),
    ...(options.sliceMinSessions !== undefined ? { minSessions: options.sliceMinSessions } : {}),
  });
  const reads = createReads(db, rollups, { now: options.now ?? Date.now, readonly, timezoneOf, columnCacheBytes: cacheBytes, versions, ...(slices ? { slices } : {}) });
  /** Writes in one transaction; returns the days whose rollups it made stale. */
  const writeEvents = db.transaction((events: readonly StoredEvent[], record?: ImportRecord) => {
    const { dirty: touched, written } = write(events, record);
    rollups.markDirty(touched);
    versions.bump(written);
    return touched;
  });
  /** An import in batches, in one transaction: its record first (refused if known), every batch as a large write. */
  const writeImport = db.transaction((record: ImportRecord, batches: Iterable<readonly StoredEvent[]>) => {
    const touched = new Set<string>();
    let first = true;
    for (const batch of batches) {
      const { dirty, written } = write(batch, first ? record : undefined, true);
      first = false;
      rollups.markDirty(dirty);
      versions.bump(written);
      for (const key of dirty) touched.add(key);
    }
    if (first) write([], record, true);
    return touched;
  });
  /**
   * Rebuilds the rollups of the days a large write (an import) made stale, each day in a
   * transaction of its own after the write's: a small write leaves them to the next read.
   * Meanwhile they are dirty and read raw, so answers never wait for this; a rebuild the disk
   * has no room for leaves its day dirty (the write itself is committed and stays).
   */
  const rebuild = (touched: ReadonlySet<string>) => {
    const days = new Map<string, string[]>();
    for (const key of touched) {
      const [siteId, day] = key.split('\u0000') as [string, string];
      days.set(siteId, [...(days.get(siteId) ?? []), day]);
    }
    for (const [siteId, list] of days) {
      reads.refresh(siteId, list);
      slices?.compute(siteId, list);
    }
  };
  /** The background warming of `columnCacheWarmDays`, started on the next turn so opening returns first. */
  const warm = async (): Promise<void> => {
    const days = options.columnCacheWarmDays ?? 0;
    if (days === 0) return;
    await new Promise((resolve) => setImmediate(resolve));
    await warmColumnCache(reads.columnCache, {
      sites: () => (db.open ? allSites.all() : []),
      days,
      now: options.now ?? Date.now,
      maxBytes: (cacheBytes ?? DEFAULT_COLUMN_CACHE_BYTES) / 2,
      stopped: () => !db.open,
    });
  };
  const eventPage = createEventPages(db);
  const imported = createImported(db);
  return {
    notices,
    kind: 'sqlite',
    capabilities: { selection: true, properties: true, goals: true, imported: true, funnels: true },
    db,
    columnCacheStats: () => reads.columnCache.stats(),
    columnCacheWarmed: warm(),
    columnCacheFilled: () => reads.filled(),
    sliceStats: () => reads.sliceStats(),
    slicesComputed: () => reads.slicesComputed(),
    computeSlices: (siteId, days) => slices?.compute(siteId, days),
    async insertSite(site) {
      insertSite.run(site.id, site.name, site.timezone, site.domain, site.accountId, site.createdAt);
    },
    async getSite(id) {
      const row = getSite.get(id);
      return row && toSite(row);
    },
    async updateSite(id, changes) {
      const row = updateSite.get(changes.name, changes.domain, id);
      return row && toSite(row);
    },
    async listSites(filter) {
      const accountId = filter?.accountId;
      const rows = accountId === undefined ? allSites.all() : accountId === null ? communitySites.all() : accountSites.all(accountId);
      return rows.map(toSite);
    },
    async writeEvents(events, record) {
      const touched = translated(() => writeEvents.immediate(events, record));
      if (record || events.length >= LIVE_WRITE_MAX_EVENTS) rebuild(touched);
    },
    async writeImport(record, batches) {
      rebuild(translated(() => writeImport.immediate(record, batches)));
    },
    summary: async (range, selection) => reads.summary(range, selection),
    timeseries: async (range, selection) => reads.timeseries(range, selection),
    sessionBreakdown: async (range, dimension, selection) => reads.sessionBreakdown(range, dimension, selection),
    pages: async (range, selection) => reads.pages(range, selection),
    customEvents: async (range, name, selection) => reads.customEvents(range, name, selection),
    hourBuckets: async (range, starts, selection) => reads.hourBuckets(range, starts, selection),
    liveVisitors: async (siteId, since, until) => reads.liveVisitors(siteId, since, until),
    eventPage: async (range, after, limit) => eventPage(range, after, limit),
    properties: async (range, name, property, selection) => reads.properties(range, name, property, selection),
    goalTotals: async (range, goals, selection) => reads.goalTotals(range, goals, selection),
    async insertGoal(goal) {
      insertGoal.run(goal.siteId, goal.name, goal.type, goal.value, goal.createdAt);
    },
    listGoals: async (siteId) => siteGoals.all(siteId).map(toGoal),
    deleteGoal: async (siteId, name) => deleteGoal.run(siteId, name).changes > 0,
    funnelVisitors: async (range, steps, selection) => reads.funnelVisitors(range, steps, selection),
    insertFunnel: async (funnel) => insertFunnel.run({ site: funnel.siteId, name: funnel.name, steps: JSON.stringify(funnel.steps), created: funnel.createdAt }).changes > 0,
    listFunnels: async (siteId) => siteFunnels.all(siteId).map(toFunnel),
    deleteFunnel: async (siteId, name) => deleteFunnel.run(siteId, name).changes > 0,
    writeImported: async (dataset, batches) => imported.writeImported(dataset, batches),
    listImports: async (siteId) => imported.listImports(siteId),
    deleteImport: async (siteId, importId) => imported.deleteImport(siteId, importId),
    importedTotals: async (request) => imported.importedTotals(request),
    nativeDays: async (siteId, days) => imported.nativeDays(siteId, days),
    async close() {
      reads.columnCache.close();
      if (db.open) db.close();
    },
  };
}

/** Applies the migrations the file has not seen yet, each in its own transaction. */
function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(`Database schema version ${version} is newer than this Siteline (${MIGRATIONS.length}); upgrade Siteline.`);
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
