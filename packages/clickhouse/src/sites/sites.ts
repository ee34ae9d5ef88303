import type { ImportRecord, Site } from '@siteline/core';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/**
 * Rows and reads of the `sites` and `imports` tables. Nullable columns are
 * avoided (aggregate functions skip NULLs): `domain`/`account_id` are stored
 * as a string plus a `has_*` flag.
 */

export interface SiteRow {
  id: string;
  name: string;
  timezone: string;
  domain: string;
  has_domain: number;
  account_id: string;
  has_account: number;
  created_at: string;
  version: number;
}

export function siteRow(site: Site, version: number): SiteRow {
  return {
    id: site.id,
    name: site.name,
    timezone: site.timezone,
    domain: site.domain ?? '',
    has_domain: site.domain === null || site.domain === undefined ? 0 : 1,
    account_id: site.accountId ?? '',
    has_account: site.accountId === null ? 0 : 1,
    created_at: site.createdAt,
    version,
  };
}

/** The newest version of a site, as `sitesSql` reads it (scalar columns: a tuple would arrive as an array or an object, by server setting). */
export interface SiteRead {
  id: string;
  site_name: string;
  site_timezone: string;
  site_domain: string;
  site_has_domain: number | string;
  site_account: string;
  site_has_account: number | string;
  site_created_at: string;
  /** The newest version's number: an edit writes a greater one. */
  site_version: number | string;
}

/** Reads sites, newest version of each, optionally one id or one account (`null`: Community). */
export function sitesSql(t: SchemaTarget, filter: { id?: string; accountId?: string | null } = {}): string {
  const where = filter.id === undefined ? '' : `WHERE id = ${sqlString(filter.id)}`;
  const account =
    filter.accountId === undefined
      ? ''
      : filter.accountId === null
        ? 'WHERE site_has_account = 0'
        : `WHERE site_has_account = 1 AND site_account = ${sqlString(filter.accountId)}`;
  return `SELECT id, tupleElement(s, 1) AS site_name, tupleElement(s, 2) AS site_timezone, tupleElement(s, 3) AS site_domain,
      tupleElement(s, 4) AS site_has_domain, tupleElement(s, 5) AS site_account, tupleElement(s, 6) AS site_has_account,
      tupleElement(s, 7) AS site_created_at, site_version
    FROM (SELECT id, argMax((name, timezone, domain, has_domain, account_id, has_account, created_at), version) AS s, max(version) AS site_version
      FROM ${tableName(t, 'sites')} ${where} GROUP BY id) ${account}`;
}

export function toSite(row: SiteRead): Site {
  return {
    id: row.id,
    name: row.site_name,
    timezone: row.site_timezone,
    domain: Number(row.site_has_domain) ? row.site_domain : null,
    accountId: Number(row.site_has_account) ? row.site_account : null,
    createdAt: row.site_created_at,
  };
}

/** Sites in the order of the SQLite store: creation time, then id. */
export const bySiteOrder = (a: Site, b: Site): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function importCountSql(t: SchemaTarget, hash: string): string {
  return `SELECT count() AS n FROM ${tableName(t, 'imports')} WHERE hash = ${sqlString(hash)}`;
}

export const importRow = (record: ImportRecord) => ({
  hash: record.hash,
  events: record.events,
  imported_at: record.importedAt,
});
