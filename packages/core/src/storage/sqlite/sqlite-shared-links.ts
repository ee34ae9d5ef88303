import type Database from 'better-sqlite3';
import type { SharedLinkRow, ShareStore } from '../../sharing/types.js';

type LinkColumns = Omit<SharedLinkRow, 'frame_ancestors' | 'segment'> & { frame_ancestors: string; segment: string };

const toLink = (row: LinkColumns | undefined): SharedLinkRow | undefined =>
  row && { ...row, frame_ancestors: JSON.parse(row.frame_ancestors) as string[], segment: JSON.parse(row.segment) as SharedLinkRow['segment'] };

/**
 * Shared links in the SQLite store's database, on its connection. A save replaces the row
 * except that `revoked_ms` only grows, so a revoked link stays revoked.
 */
export function createSqliteShareStore(db: Database.Database): ShareStore {
  const save = db.prepare(`INSERT INTO shared_links (id, site_id, name, token_hash, password_hash, frame_ancestors, segment, created_at, revoked_ms)
    VALUES (@id, @site_id, @name, @token_hash, @password_hash, @frame_ancestors, @segment, @created_at, @revoked_ms)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, frame_ancestors = excluded.frame_ancestors,
      segment = excluded.segment, revoked_ms = max(revoked_ms, excluded.revoked_ms)`);
  const byId = db.prepare<[string], LinkColumns>('SELECT * FROM shared_links WHERE id = ?');
  const byToken = db.prepare<[string], LinkColumns>('SELECT * FROM shared_links WHERE token_hash = ?');
  const ofSite = db.prepare<[string], LinkColumns>('SELECT * FROM shared_links WHERE site_id = ?');
  return {
    async saveSharedLink(row) {
      save.run({ ...row, frame_ancestors: JSON.stringify(row.frame_ancestors), segment: JSON.stringify(row.segment) });
    },
    async sharedLinkById(id) {
      return toLink(byId.get(id));
    },
    async sharedLinkByTokenHash(tokenHash) {
      return toLink(byToken.get(tokenHash));
    },
    async sharedLinksOf(siteId) {
      return ofSite.all(siteId).map((row) => toLink(row)!);
    },
  };
}
