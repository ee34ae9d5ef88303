import { type PeopleStore, type Role, type UserChange, type UserRow } from '@siteline/core';
import { randomBytes } from 'node:crypto';
import { sqlString } from '../connection/escape.js';
import type { PeopleTable } from '../schema/migrations/005-people.js';
import type { AttemptsTable } from '../schema/migrations/007-people-attempts.js';
import type { ChangesTable } from '../schema/migrations/010-people-changes.js';

/** What the people stores share: reads, inserts and the tables by name. */
export interface PeopleIo {
  rows<T>(query: string): Promise<T[]>;
  insert(name: PeopleTable | AttemptsTable | ChangesTable, values: object[]): Promise<unknown>;
  table(name: PeopleTable | AttemptsTable | ChangesTable): string;
  /** A new version (microseconds of this host's clock, increasing within the process). */
  version(): number;
}

const BASE_COLUMNS = ['account_id', 'email', 'role', 'password_hash', 'totp_secret', 'recovery_hashes', 'sessions_after_ms', 'created_at', 'removed'] as const;

interface BaseRead extends Omit<UserRow, 'role' | 'removed' | 'sessions_after_ms'> {
  role: string;
  removed: number | string;
  sessions_after_ms: number | string;
  version: number | string;
}

/** The fields a change writes, as `user_changes` rows hold them (strings). */
function fieldsOf(change: UserChange, user: UserRow, nowMs: number): Record<string, string> {
  switch (change.kind) {
    case 'password':
      return { password_hash: change.password_hash, sessions_after_ms: String(Math.max(user.sessions_after_ms + 1, nowMs)) };
    case 'role':
      return { role: change.role };
    case 'removed':
      return { removed: '1' };
    case 'two-factor':
      return { totp_secret: change.totp_secret, recovery_hashes: JSON.stringify(change.recovery_hashes) };
  }
}

/**
 * Users in ClickHouse (migrations 5 and 10). A user is added as a whole `users` row, once;
 * every later change inserts only the fields it sets into `user_changes` (a newer version
 * per field), and a read lays each field's newest change over the row, so no change ever
 * writes back a field it did not mean to set. Recovery codes are spent by inserting a use
 * into `recovery_uses` and counting the uses: only a caller that finds its own use alone
 * succeeds, as with one-time links (at most one of racing uses; all may be refused, and the
 * code is spent). The same rule adds a user: of two adds of one email to one account, one
 * that does not find its row alone withdraws it. An account keeps an owner: a demotion or
 * removal of an owner checks before writing and again after, and takes itself back when
 * no other owner is left (two racing ones both do, so both are refused).
 */
export function clickHouseUsers(io: PeopleIo): Pick<PeopleStore, 'addUser' | 'userById' | 'usersByEmail' | 'usersOf' | 'changeUser' | 'useRecoveryCode'> {
  const latest = BASE_COLUMNS.map((c) => `argMax(${c}, version) AS last_${c}`).join(', ');
  const renamed = BASE_COLUMNS.map((c) => `last_${c} AS ${c}`).join(', ');

  /** The users whose `users` row meets `where` (immutable columns only: id, account_id, email), with their changes on top, removed ones included. */
  const read = async (where: string): Promise<UserRow[]> => {
    const base = await io.rows<BaseRead>(
      `SELECT id, ${renamed}, last_version AS version FROM (SELECT id, ${latest}, max(version) AS last_version FROM ${io.table('users')} GROUP BY id) WHERE ${where}`,
    );
    if (base.length === 0) return [];
    const ids = base.map((u) => sqlString(u.id)).join(', ');
    const [changes, uses] = await Promise.all([
      io.rows<{ user_id: string; field: string; newest: string; newest_version: number | string }>(
        `SELECT user_id, field, argMax(value, version) AS newest, max(version) AS newest_version FROM ${io.table('user_changes')} WHERE user_id IN (${ids}) GROUP BY user_id, field`,
      ),
      io.rows<{ user_id: string; code_hash: string }>(`SELECT DISTINCT user_id, code_hash FROM ${io.table('recovery_uses')} WHERE user_id IN (${ids})`),
    ]);
    return base.map((row) => {
      const fields: Record<string, unknown> = { ...row };
      for (const c of changes) if (c.user_id === row.id && Number(c.newest_version) > Number(row.version)) fields[c.field] = c.field === 'recovery_hashes' ? JSON.parse(c.newest) : c.newest;
      const used = new Set(uses.filter((u) => u.user_id === row.id).map((u) => u.code_hash));
      return {
        id: row.id, account_id: row.account_id, email: row.email, role: fields.role as Role, password_hash: String(fields.password_hash),
        totp_secret: String(fields.totp_secret), recovery_hashes: (fields.recovery_hashes as string[]).filter((h) => !used.has(h)),
        sessions_after_ms: Number(fields.sessions_after_ms), created_at: row.created_at, removed: Number(fields.removed) === 1,
      };
    });
  };
  const live = async (where: string) => (await read(where)).filter((u) => !u.removed);
  const write = (userId: string, fields: Record<string, string>) => {
    const version = io.version();
    return io.insert('user_changes', Object.entries(fields).map(([field, value]) => ({ user_id: userId, field, value, version })));
  };
  const anotherOwner = async (user: UserRow) => (await live(`account_id = ${sqlString(user.account_id)}`)).some((u) => u.id !== user.id && u.role === 'owner');
  /** Whether the owner `user` may stop being one: another owner now, and still after the write (else the write is taken back). */
  const leavesAnOwner = async (user: UserRow, change: Record<string, string>, undo: Record<string, string>): Promise<boolean> => {
    if (!(await anotherOwner(user))) return false;
    await write(user.id, change);
    if (await anotherOwner(user)) return true;
    await write(user.id, undo);
    return false;
  };

  return {
    async addUser(row) {
      await io.insert('users', [{ ...row, removed: 0, version: io.version() }]);
      const same = await live(`account_id = ${sqlString(row.account_id)} AND email = ${sqlString(row.email)}`);
      if (same.length === 1) return true;
      await write(row.id, { removed: '1' });
      return false;
    },
    async userById(id) {
      return (await read(`id = ${sqlString(id)}`))[0];
    },
    async usersByEmail(email) {
      return live(`email = ${sqlString(email)}`);
    },
    async usersOf(accountId) {
      return live(`account_id = ${sqlString(accountId)}`);
    },
    async changeUser(id, change, nowMs) {
      const [user] = await read(`id = ${sqlString(id)}`);
      if (!user || user.removed) return false;
      const fields = fieldsOf(change, user, nowMs);
      if (user.role === 'owner' && ((change.kind === 'role' && change.role !== 'owner') || change.kind === 'removed')) {
        return leavesAnOwner(user, fields, change.kind === 'removed' ? { removed: '0' } : { role: 'owner' });
      }
      await write(id, fields);
      return true;
    },
    async useRecoveryCode(userId, codeHash) {
      const [user] = await read(`id = ${sqlString(userId)}`);
      if (!user || user.removed || !user.recovery_hashes.includes(codeHash)) return false;
      await io.insert('recovery_uses', [{ user_id: userId, code_hash: codeHash, use_id: randomBytes(16).toString('hex') }]);
      const [uses] = await io.rows<{ n: string | number }>(
        `SELECT count() AS n FROM ${io.table('recovery_uses')} WHERE user_id = ${sqlString(userId)} AND code_hash = ${sqlString(codeHash)}`,
      );
      return Number(uses?.n) === 1;
    },
  };
}
