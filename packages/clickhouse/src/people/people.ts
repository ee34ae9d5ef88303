import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { type ExpiryBounds, LINK_TTL_MS, type LinkRow, type PeopleStore, type SignInAttempt, type SignInRow, TOTP_STEP_MS, type WebSessionRow } from '@siteline/core';
import { randomBytes } from 'node:crypto';
import { goalVersions } from '../sites/goals.js';
import type { PeopleTable } from '../schema/migrations/005-people.js';
import type { AttemptsTable } from '../schema/migrations/007-people-attempts.js';
import type { ChangesTable } from '../schema/migrations/010-people-changes.js';
import { clickHouseUsers } from './people-users.js';
import { sqlInt, sqlString } from '../connection/escape.js';
import { storageTableName, tableName, type SchemaTarget } from '../schema/schema.js';

/** Runs `run` on every server holding rows (each node of a cluster, or the one server); `on` is the ON CLUSTER clause when DDL must carry it. */
export type EveryNode = (run: (client: ClickHouseClient, on: string) => Promise<unknown>) => Promise<void>;

/** Versions written for an ended session: above any clock-made version, so a merge keeps the ended row. */
const ENDED_VERSION = Number.MAX_SAFE_INTEGER;

/**
 * Users, one-time links, web sessions, two-factor steps and sign-in attempts in ClickHouse
 * (migrations 5, 7 and 10), shared by every server process and host using the database.
 * Rows are only inserted. Users: `people-users.ts` (a change inserts only the fields it
 * sets). A session is ended once any row says so and its last use is the largest written.
 * A link is used by inserting a use and counting the uses back: only a caller that finds
 * its own use alone succeeds. Inserts are synchronous (on a cluster too, all uses of a
 * token on one shard), so of two uses the later reader sees both: at most one caller ever
 * succeeds, with no clock involved. Two uses racing may both be refused (the link is then
 * spent; an owner or the operator makes a new one). A two-factor step is used the same way
 * (`totp_steps`: accepted when the caller's row is the only one of that step or a later one
 * for the user), and so is a recovery code.
 *
 * A sign-in attempt is reserved the same way: its failure rows (one per key) are inserted
 * first, then each key's rows are read; every reservation that finished inserting before
 * this read is among them, so N attempts at once are counted as N (a later one sees all
 * earlier ones; two racing ones may both be held, never both let through past the
 * allowance). A refused or successful attempt is released by a row with `failed` 2 and its
 * id, which reads leave out with the rows it names; a success also inserts a success row.
 *
 * `removeExpired` deletes with `ALTER TABLE … DELETE` (a mutation; ClickHouse 18.16 has no
 * TTL) on every server's own rows, only on tables holding such rows, and waits until the
 * mutations are done. A session's rows all live on one shard, so its condition (ended, idle,
 * too old: over all its rows) is exact per server.
 *
 * @example const people = new People(createClickHousePeople(client, { database: 'siteline' }, {}, (run) => run(client, '').then(() => undefined)));
 */
export function createClickHousePeople(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings, everyNode: EveryNode): PeopleStore {
  const table = (name: PeopleTable | AttemptsTable | ChangesTable) => tableName(target, name);
  const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (name: PeopleTable | AttemptsTable | ChangesTable, values: object[]) =>
    client.insert({ table: table(name), values, format: 'JSONEachRow', clickhouse_settings: insertSettings });
  const version = goalVersions();
  const count = async (query: string) => Number((await rows<{ n: string | number }>(query))[0]?.n);
  /**
   * A key's counted attempts, newest first: failures and successes, without released
   * reservations nor `except`'s. An id has one counted row, and a release adds a row with
   * `failed` 2 (one group per id; no `GLOBAL NOT IN`, whose temporary table 18.16 loses
   * under concurrent reads of a Distributed table).
   */
  const signIns = async (key: string, limit: number, except: string) => (await rows<{ t: string | number; f: number | string }>(
    `SELECT max(at_ms) AS t, min(failed) AS f FROM ${table('sign_ins')} WHERE key = ${sqlString(key)} AND id != ${sqlString(except)}
     GROUP BY id HAVING max(failed) < 2 ORDER BY t DESC, f DESC LIMIT ${sqlInt(limit)}`,
  )).map((r) => ({ at_ms: r.t, failed: r.f }));
  const release = (attempt: SignInAttempt) => attempt.keys.map(({ key }) => ({ key, at_ms: attempt.at_ms, failed: 2, id: attempt.id }));

  return {
    ...clickHouseUsers({ rows, insert, table, version }),
    async saveLink(row) {
      await insert('user_links', [row]);
    },
    async useLink(tokenHash, nowMs) {
      await insert('user_link_uses', [{ token_hash: tokenHash, use_id: randomBytes(16).toString('hex'), used_ms: nowMs }]);
      if ((await count(`SELECT count() AS n FROM ${table('user_link_uses')} WHERE token_hash = ${sqlString(tokenHash)}`)) !== 1) return undefined;
      const [link] = await rows<{ token_hash: string; user_id: string; expires_ms: string | number }>(
        `SELECT token_hash, user_id, expires_ms FROM ${table('user_links')} WHERE token_hash = ${sqlString(tokenHash)} LIMIT 1`,
      );
      return link && ({ ...link, expires_ms: Number(link.expires_ms) } satisfies LinkRow);
    },
    async endLinks(userId, nowMs) {
      const links = await rows<{ token_hash: string }>(`SELECT token_hash FROM ${table('user_links')} WHERE user_id = ${sqlString(userId)}`);
      if (links.length === 0) return;
      await insert('user_link_uses', links.map(({ token_hash }) => ({ token_hash, use_id: randomBytes(16).toString('hex'), used_ms: nowMs })));
    },
    async saveSession(row) {
      await insert('web_sessions', [{ ...row, ended: row.ended ? 1 : 0, version: row.ended ? ENDED_VERSION : version() }]);
    },
    async session(idHash) {
      const [row] = await rows<Record<keyof WebSessionRow, string | number>>(
        `SELECT id_hash, any(user_id) AS user_id, any(key_id) AS key_id, any(account_id) AS account_id, any(csrf) AS csrf,
           min(created_ms) AS created_ms, max(last_seen_ms) AS last_seen_ms, max(ended) AS ended, min(user_epoch) AS user_epoch
         FROM ${table('web_sessions')} WHERE id_hash = ${sqlString(idHash)} GROUP BY id_hash`,
      );
      if (!row) return undefined;
      return {
        id_hash: String(row.id_hash), user_id: String(row.user_id), key_id: String(row.key_id), account_id: String(row.account_id),
        csrf: String(row.csrf), created_ms: Number(row.created_ms), last_seen_ms: Number(row.last_seen_ms), ended: Number(row.ended) === 1,
        user_epoch: Number(row.user_epoch),
      };
    },
    async useTotpStep(userId, step) {
      await insert('totp_steps', [{ user_id: userId, step, use_id: randomBytes(16).toString('hex') }]);
      return (await count(`SELECT count() AS n FROM ${table('totp_steps')} WHERE user_id = ${sqlString(userId)} AND step >= ${sqlInt(step)}`)) === 1;
    },
    async reserveSignIn(attempt, decide) {
      await insert('sign_ins', attempt.keys.map(({ key }) => ({ key, at_ms: attempt.at_ms, failed: 1, id: attempt.id })));
      const history = await Promise.all(attempt.keys.map(async ({ key, read }) =>
        (await signIns(key, read, attempt.id)).map((r): SignInRow => ({ at_ms: Number(r.at_ms), failed: Number(r.failed) === 1 }))));
      const wait = decide(history);
      if (wait > 0) await insert('sign_ins', release(attempt));
      return wait;
    },
    async signInSucceeded(attempt, clears, atMs) {
      const successes = attempt.keys.filter(({ key }) => clears.includes(key)).map(({ key }) => ({ key, at_ms: atMs, failed: 0, id: `${attempt.id}-ok` }));
      await insert('sign_ins', [...release(attempt), ...successes]);
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
