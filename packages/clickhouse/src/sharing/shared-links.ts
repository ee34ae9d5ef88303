import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { SharedLinkRow, ShareStore } from '@siteline/core';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';
import { goalVersions } from '../sites/goals.js';

const COLUMNS = ['site_id', 'name', 'token_hash', 'password_hash', 'frame_ancestors', 'segment', 'created_at'] as const;

type LinkRead = Omit<SharedLinkRow, 'segment' | 'revoked_ms'> & { segment: string; revoked_ms: string | number };

/**
 * Shared links in ClickHouse (schema version 12): every save inserts the whole row with a higher
 * `version`; reads take the newest version of each column and the largest `revoked_ms`, so a
 * revoked link stays revoked whatever the hosts' clocks and whatever is saved after.
 *
 * @example const shares = createClickHouseShareStore(client, { database: 'siteline' }, {});
 */
export function createClickHouseShareStore(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings): ShareStore {
  const table = tableName(target, 'shared_links');
  const version = goalVersions();
  /** Links whose rows meet `where`: a condition on columns no save changes (id, site, token hash), so it can filter rows before grouping. */
  const links = async (where: string): Promise<SharedLinkRow[]> => {
    const latest = COLUMNS.map((c) => `argMax(${c}, version) AS last_${c}`).join(', ');
    const renamed = COLUMNS.map((c) => `last_${c} AS ${c}`).join(', ');
    const found = await (await client.query({
      query: `SELECT id, ${renamed}, revoked FROM (SELECT id, ${latest}, max(revoked_ms) AS revoked FROM ${table} WHERE ${where} GROUP BY id)`,
      format: 'JSONEachRow',
    })).json<Omit<LinkRead, 'revoked_ms'> & { revoked: string | number }>();
    return found.map(({ revoked, ...l }) => ({ ...l, segment: JSON.parse(l.segment) as SharedLinkRow['segment'], revoked_ms: Number(revoked) }));
  };
  return {
    async saveSharedLink(row) {
      await client.insert({
        table, format: 'JSONEachRow', clickhouse_settings: insertSettings,
        values: [{ ...row, segment: JSON.stringify(row.segment), version: version() }],
      });
    },
    async sharedLinkById(id) {
      return (await links(`id = ${sqlString(id)}`))[0];
    },
    async sharedLinkByTokenHash(tokenHash) {
      return (await links(`token_hash = ${sqlString(tokenHash)}`))[0];
    },
    async sharedLinksOf(siteId) {
      return links(`site_id = ${sqlString(siteId)}`);
    },
  };
}
