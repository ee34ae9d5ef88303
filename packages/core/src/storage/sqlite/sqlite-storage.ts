import Database from 'better-sqlite3';
import type { Site } from '../../types.js';
import type { Storage } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { createQueries } from './sqlite-queries.js';
import { createWriter } from './sqlite-writer.js';

export interface SqliteStorageOptions {
  /** Open read-only (no migrations, no writes). */
  readonly?: boolean;
}

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

/**
 * The embedded store: one SQLite file (or `:memory:`) through better-sqlite3,
 * in WAL mode so readers never wait for the writer. The schema is migrated
 * on open.
 *
 * @example
 * const storage = createSqliteStorage('./siteline.db');
 * const stats = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo' }));
 */
export function createSqliteStorage(path: string, options: SqliteStorageOptions = {}): Storage & { db: Database.Database } {
  const db = new Database(path, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  }
  const write = createWriter(db);
  const queries = createQueries(db);
  const insertSite = db.prepare(
    'INSERT INTO sites (id, name, timezone, domain, account_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const getSite = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE id = ?');
  const allSites = db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY created_at, id');
  const accountSites = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE account_id = ? ORDER BY created_at, id');
  const communitySites = db.prepare<[], SiteRow>('SELECT * FROM sites WHERE account_id IS NULL ORDER BY created_at, id');

  return {
    kind: 'sqlite',
    db,
    async insertSite(site) {
      insertSite.run(site.id, site.name, site.timezone, site.domain, site.accountId, site.createdAt);
    },
    async getSite(id) {
      const row = getSite.get(id);
      return row && toSite(row);
    },
    async listSites(filter) {
      const accountId = filter?.accountId;
      const rows = accountId === undefined ? allSites.all() : accountId === null ? communitySites.all() : accountSites.all(accountId);
      return rows.map(toSite);
    },
    async writeEvents(events, record) {
      write(events, record);
    },
    summary: async (range) => queries.summary(range),
    timeseries: async (range) => queries.timeseries(range),
    sessionBreakdown: async (range, dimension) => queries.sessionBreakdown(range, dimension),
    pages: async (range) => queries.pages(range),
    customEvents: async (range, name) => queries.customEvents(range, name),
    liveVisitors: async (siteId, since, until) => queries.liveVisitors(siteId, since, until),
    async close() {
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
