import type { ImportRecord, Site } from '@siteline/core';
import { sqlString } from './escape.js';
import { tableName, type SchemaTarget } from './schema.js';

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

/** `[name, timezone, domain, has_domain, account_id, has_account, created_at]` of the newest version. */
type SiteTuple = [string, string, string, number, string, number, string];

/** Reads sites, newest version of each, optionally one id or one account (`null`: Community). */
export function sitesSql(t: SchemaTarget, filter: { id?: string; accountId?: string | null } = {}): string {
  const where = filter.id === undefined ? '' : `WHERE id = ${sqlString(filter.id)}`;
  const account =
    filter.accountId === undefined
      ? ''
      : filter.accountId === null
        ? 'HAVING tupleElement(s, 6) = 0'
        : `HAVING tupleElement(s, 6) = 1 AND tupleElement(s, 5) = ${sqlString(filter.accountId)}`;
  return `SELECT id, argMax((name, timezone, domain, has_domain, account_id, has_account, created_at), version) AS s
    FROM ${tableName(t, 'sites')} ${where} GROUP BY id ${account}`;
}

export function toSite(row: { id: string; s: SiteTuple }): Site {
  const [name, timezone, domain, hasDomain, accountId, hasAccount, createdAt] = row.s;
  return {
    id: row.id,
    name,
    timezone,
    domain: Number(hasDomain) ? domain : null,
    accountId: Number(hasAccount) ? accountId : null,
    createdAt,
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
