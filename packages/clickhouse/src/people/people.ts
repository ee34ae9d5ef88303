import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { type ExpiryBounds, LINK_TTL_MS, type LinkRow, type PeopleStore, type Role, TOTP_STEP_MS, type UserRow, type WebSessionRow } from '@siteline/core';
import { randomBytes } from 'node:crypto';
import { goalVersions } from '../sites/goals.js';
import type { PeopleTable } from '../schema/migrations/005-people.js';
import type { AttemptsTable } from '../schema/migrations/007-people-attempts.js';
import { sqlInt, sqlString } from '../connection/escape.js';
import { storageTableName, tableName, type SchemaTarget } from '../schema/schema.js';

/** Runs `run` on every server holding rows (each node of a cluster, or the one server); `on` is the ON CLUSTER clause when DDL must carry it. */
export type EveryNode = (run: (client: ClickHouseClient, on: string) => Promise<unknown>) => Promise<void>;

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
 * link is then spent; an owner or the operator makes a new one). A two-factor step is used
 * the same way (`totp_steps`: accepted when the caller's row is the only one of that step or
 * a later one for the user).
 *
 * `removeExpired` deletes with `ALTER TABLE … DELETE` (a mutation; ClickHouse 18.16 has no
 * TTL) on every server's own rows, only on tables holding such rows, and waits until the
 * mutations are done. A session's rows all live on one shard, so its condition (ended, idle,
 * too old: over all its rows) is exact per server.
 *
 * @example const people = new People(createClickHousePeople(client, { database: 'siteline' }, {}, (run) => run(client, '').then(() => undefined)));
 */
export function createClickHousePeople(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings, everyNode: EveryNode): PeopleStore {
  const table = (name: PeopleTable | AttemptsTable) => tableName(target, name);
  const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (name: PeopleTable | AttemptsTable, values: object[]) =>
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
    async useTotpStep(userId, step) {
      await insert('totp_steps', [{ user_id: userId, step, use_id: randomBytes(16).toString('hex') }]);
      const [uses] = await rows<{ n: string | number }>(`SELECT count() AS n FROM ${table('totp_steps')} WHERE user_id = ${sqlString(userId)} AND step >= ${sqlInt(step)}`);
      return Number(uses?.n) === 1;
    },
    async addSignIn(key, atMs, failed) {
      await insert('sign_ins', [{ key, at_ms: atMs, failed: failed ? 1 : 0, id: randomBytes(8).toString('hex') }]);
    },
    async signIns(key, limit) {
      const found = await rows<{ at_ms: string | number; failed: number }>(
        `SELECT at_ms, failed FROM ${table('sign_ins')} WHERE key = ${sqlString(key)} ORDER BY at_ms DESC, failed DESC LIMIT ${sqlInt(limit)}`,
      );
      return found.map((r) => ({ at_ms: Number(r.at_ms), failed: Number(r.failed) === 1 }));
    },
    async removeExpired(bounds) {
      await everyNode(async (node, on) => {
        for (const [name, where] of expiredRows(bounds, (t) => storageTableName(target, t))) {
          const local = storageTableName(target, name);
          // A mutation rewrites parts: none when nothing is due (ON CLUSTER, this server cannot tell for the others).
          if (on === '') {
            const [found] = await (await node.query({ query: `SELECT count() AS n FROM ${local} WHERE ${where}`, format: 'JSONEachRow' })).json<{ n: string }>();
            if (Number(found?.n) === 0) continue;
          }
          await node.command({ query: `ALTER TABLE ${local}${on} DELETE WHERE ${where}` });
        }
        await mutationsDone(node, target.database);
      });
    },
  };
}

/** Each table's rows that can no longer be used, as conditions on the server's own table (`local`). */
function expiredRows(b: ExpiryBounds, local: (name: PeopleTable | AttemptsTable) => string): [PeopleTable | AttemptsTable, string][] {
  return [
    ['web_sessions', `id_hash IN (SELECT id_hash FROM ${local('web_sessions')} GROUP BY id_hash
      HAVING max(ended) = 1 OR max(last_seen_ms) < ${sqlInt(b.sessionsSeenBefore)} OR min(created_ms) < ${sqlInt(b.sessionsCreatedBefore)})`],
    // A use is removed with its link (both on one shard); a use older than a link's lifetime belongs to an expired link.
    ['user_links', `expires_ms <= ${sqlInt(b.linksExpiredBy)} OR token_hash IN (SELECT token_hash FROM ${local('user_link_uses')})`],
    ['user_link_uses', `used_ms < ${sqlInt(b.linksExpiredBy - LINK_TTL_MS)} OR token_hash NOT IN (SELECT token_hash FROM ${local('user_links')})`],
    ['totp_steps', `step < ${sqlInt(Math.floor(b.attemptsBefore / TOTP_STEP_MS))}`],
    ['sign_ins', `at_ms < ${sqlInt(b.attemptsBefore)}`],
  ];
}

/** Waits (up to a minute) until the server's mutations in the database are done. */
async function mutationsDone(node: ClickHouseClient, database: string): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const [left] = await (await node.query({
      query: `SELECT count() AS n FROM system.mutations WHERE database = ${sqlString(database)} AND is_done = 0`, format: 'JSONEachRow',
    })).json<{ n: string }>();
    if (Number(left?.n) === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`ClickHouse mutations in ${database} did not finish within a minute (see system.mutations).`);
}
