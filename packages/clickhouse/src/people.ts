import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { LinkRow, PeopleStore, Role, UserRow, WebSessionRow } from '@siteline/core';
import { randomBytes } from 'node:crypto';
import { goalVersions } from './goals.js';
import type { PeopleTable } from './migrations/005-people.js';
import { sqlString } from './escape.js';
import { tableName, type SchemaTarget } from './schema.js';

const USER_COLUMNS = ['account_id', 'email', 'role', 'password_hash', 'totp_secret', 'recovery_hashes', 'sessions_after_ms', 'created_at', 'removed'] as const;
/** Versions written for an ended session: above any clock-made version, so a merge keeps the ended row. */
const ENDED_VERSION = Number.MAX_SAFE_INTEGER;

interface UserRead extends Omit<UserRow, 'role' | 'removed' | 'sessions_after_ms'> {
  role: string;
  removed: number | string;
  sessions_after_ms: number | string;
}

/**
 * Users, one-time links and web sessions in ClickHouse (migration 6), shared by every server
 * process and host using the database. Rows are only inserted (see the migration): the newest
 * version of a user wins; a session is ended once any row says so and its last use is the
 * largest written. A link is used by inserting a use and counting the uses back: only a
 * caller that finds its own use alone succeeds. Inserts are synchronous (on a cluster too,
 * all uses of a token on one shard), so of two uses the later reader sees both: at most one
 * caller ever succeeds, with no clock involved. Two uses racing may both be refused (the
 * link is then spent; an owner or the operator makes a new one).
 *
 * @example const people = new People(createClickHousePeople(client, { database: 'siteline' }, {}));
 */
export function createClickHousePeople(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings): PeopleStore {
  const table = (name: PeopleTable) => tableName(target, name);
  const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (name: PeopleTable, values: object[]) =>
    client.insert({ table: table(name), values, format: 'JSONEachRow', clickhouse_settings: insertSettings });
  const version = goalVersions();

  /** Newest version of each user, then the condition on it. */
  const users = async (where: string): Promise<UserRow[]> => {
    const latest = USER_COLUMNS.map((c) => `argMax(${c}, version) AS last_${c}`).join(', ');
    const renamed = USER_COLUMNS.map((c) => `last_${c} AS ${c}`).join(', ');
    const found = await rows<UserRead>(`SELECT id, ${renamed} FROM (SELECT id, ${latest} FROM ${table('users')} GROUP BY id) WHERE ${where}`);
    return found.map((u) => ({ ...u, role: u.role as Role, removed: Number(u.removed) === 1, sessions_after_ms: Number(u.sessions_after_ms) }));
  };

  return {
    async saveUser(row) {
      await insert('users', [{ ...row, removed: row.removed ? 1 : 0, version: version() }]);
    },
    async userById(id) {
      return (await users(`id = ${sqlString(id)}`))[0];
    },
    async userByEmail(email) {
      return (await users(`email = ${sqlString(email)} AND removed = 0`))[0];
    },
    async usersOf(accountId) {
      return users(`account_id = ${sqlString(accountId)} AND removed = 0`);
    },
    async saveLink(row) {
      await insert('user_links', [row]);
    },
    async useLink(tokenHash, nowMs) {
      await insert('user_link_uses', [{ token_hash: tokenHash, use_id: randomBytes(16).toString('hex'), used_ms: nowMs }]);
      const [uses] = await rows<{ n: string | number }>(`SELECT count() AS n FROM ${table('user_link_uses')} WHERE token_hash = ${sqlString(tokenHash)}`);
      if (Number(uses?.n) !== 1) return undefined;
      const [link] = await rows<{ token_hash: string; user_id: string; expires_ms: string | number }>(
        `SELECT token_hash, user_id, expires_ms FROM ${table('user_links')} WHERE token_hash = ${sqlString(tokenHash)} LIMIT 1`,
      );
      return link && ({ ...link, expires_ms: Number(link.expires_ms) } satisfies LinkRow);
    },
    async saveSession(row) {
      await insert('web_sessions', [{ ...row, ended: row.ended ? 1 : 0, version: row.ended ? ENDED_VERSION : version() }]);
    },
    async session(idHash) {
      const [row] = await rows<Record<keyof WebSessionRow, string | number>>(
        `SELECT id_hash, any(user_id) AS user_id, any(key_id) AS key_id, any(account_id) AS account_id, any(csrf) AS csrf,
           min(created_ms) AS created_ms, max(last_seen_ms) AS last_seen_ms, max(ended) AS ended
         FROM ${table('web_sessions')} WHERE id_hash = ${sqlString(idHash)} GROUP BY id_hash`,
      );
      if (!row) return undefined;
      return {
        id_hash: String(row.id_hash), user_id: String(row.user_id), key_id: String(row.key_id), account_id: String(row.account_id),
        csrf: String(row.csrf), created_ms: Number(row.created_ms), last_seen_ms: Number(row.last_seen_ms), ended: Number(row.ended) === 1,
      };
    },
  };
}
