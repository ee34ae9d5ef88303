import type Database from 'better-sqlite3';
import { TOTP_STEP_MS } from '../../people/rules.js';
import type { ExpiryBounds, LinkRow, PeopleStore, SignInRow, UserChange, UserRow, WebSessionRow } from '../../people/types.js';

type UserColumns = Omit<UserRow, 'recovery_hashes' | 'removed'> & { recovery_hashes: string; removed: number };
type SessionColumns = Omit<WebSessionRow, 'ended'> & { ended: number };

const toUser = (row: UserColumns | undefined): UserRow | undefined =>
  row && { ...row, recovery_hashes: JSON.parse(row.recovery_hashes) as string[], removed: row.removed === 1 };

/** The row's account keeps another owner who is not removed (or the row is not an owner). */
const KEEPS_AN_OWNER = `(role <> 'owner' OR EXISTS (SELECT 1 FROM users o WHERE o.account_id = users.account_id AND o.role = 'owner'
  AND o.removed = 0 AND o.id <> users.id))`;

/**
 * Users, one-time links and web sessions in the SQLite store's database, on its connection.
 * Every change is one statement, atomic across the processes sharing the file: a user's
 * change an `UPDATE` of its own columns (the one-owner rule a condition of the same
 * statement), a recovery code spent by an `UPDATE` that matches only while the code is in
 * the list, a link used by one `UPDATE` that matches only while `used_ms` is NULL, a
 * two-factor step by one upsert that changes the row only for a later step, a new user by
 * an `INSERT` the unique index (account, email) refuses. A sign-in attempt is reserved in
 * an IMMEDIATE transaction (read the counts, decide, insert), so two processes reserve one
 * after the other. `removeExpired` deletes rows.
 */
export function createSqlitePeople(db: Database.Database): PeopleStore {
  const addUser = db.prepare(`INSERT INTO users (id, account_id, email, role, password_hash, totp_secret, recovery_hashes,
    sessions_after_ms, created_at, removed) VALUES (@id, @account_id, @email, @role, @password_hash, @totp_secret, @recovery_hashes,
    @sessions_after_ms, @created_at, @removed) ON CONFLICT DO NOTHING`);
  const byId = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE email = ? AND removed = 0');
  const ofAccount = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE account_id = ? AND removed = 0');
  const changes: Record<UserChange['kind'], Database.Statement> = {
    password: db.prepare('UPDATE users SET password_hash = @password_hash, sessions_after_ms = max(sessions_after_ms + 1, @now) WHERE id = @id AND removed = 0'),
    role: db.prepare(`UPDATE users SET role = @role WHERE id = @id AND removed = 0 AND (@role = 'owner' OR ${KEEPS_AN_OWNER})`),
    removed: db.prepare(`UPDATE users SET removed = 1 WHERE id = @id AND removed = 0 AND ${KEEPS_AN_OWNER}`),
    'two-factor': db.prepare('UPDATE users SET totp_secret = @totp_secret, recovery_hashes = @recovery_hashes WHERE id = @id AND removed = 0'),
  };
  const useRecoveryCode = db.prepare(`UPDATE users SET recovery_hashes = (SELECT json_group_array(value) FROM json_each(users.recovery_hashes) WHERE value <> @hash)
    WHERE id = @id AND removed = 0 AND EXISTS (SELECT 1 FROM json_each(users.recovery_hashes) WHERE value = @hash)`);
  const saveLink = db.prepare('INSERT INTO user_links (token_hash, user_id, expires_ms) VALUES (?, ?, ?)');
  const useLink = db.prepare<[number, string], LinkRow>(
    'UPDATE user_links SET used_ms = ? WHERE token_hash = ? AND used_ms IS NULL RETURNING token_hash, user_id, expires_ms',
  );
  const endLinks = db.prepare('UPDATE user_links SET used_ms = ? WHERE user_id = ? AND used_ms IS NULL');
  const saveSession = db.prepare(`INSERT INTO web_sessions (id_hash, user_id, key_id, account_id, csrf, created_ms, last_seen_ms, ended, user_epoch)
    VALUES (@id_hash, @user_id, @key_id, @account_id, @csrf, @created_ms, @last_seen_ms, @ended, @user_epoch)
    ON CONFLICT (id_hash) DO UPDATE SET last_seen_ms = excluded.last_seen_ms, ended = max(ended, excluded.ended)`);
  const session = db.prepare<[string], SessionColumns>('SELECT * FROM web_sessions WHERE id_hash = ?');
  const useTotpStep = db.prepare(`INSERT INTO totp_steps (user_id, step) VALUES (?, ?)
    ON CONFLICT (user_id) DO UPDATE SET step = excluded.step WHERE excluded.step > totp_steps.step`);
  const signIns = db.prepare<[string, number], { at_ms: number; failed: number }>(
    'SELECT at_ms, failed FROM sign_ins WHERE key = ? ORDER BY at_ms DESC, failed DESC LIMIT ?',
  );
  const addSignIn = db.prepare('INSERT INTO sign_ins (key, at_ms, failed, id) VALUES (?, ?, 1, ?)');
  const succeeded = db.prepare('UPDATE sign_ins SET failed = 0, at_ms = ? WHERE key = ? AND id = ?');
  const dropSignIn = db.prepare('DELETE FROM sign_ins WHERE key = ? AND id = ?');
  const reserve = db.transaction((attempt: Parameters<PeopleStore['reserveSignIn']>[0], decide: Parameters<PeopleStore['reserveSignIn']>[1]) => {
    const history = attempt.keys.map(({ key, read }) => signIns.all(key, read).map((r): SignInRow => ({ at_ms: r.at_ms, failed: r.failed === 1 })));
    const wait = decide(history);
    if (wait <= 0) for (const { key } of attempt.keys) addSignIn.run(key, attempt.at_ms, attempt.id);
    return wait;
  });
  const settle = db.transaction((attempt: Parameters<PeopleStore['signInSucceeded']>[0], clears: readonly string[], atMs: number) => {
    for (const { key } of attempt.keys) {
      if (clears.includes(key)) succeeded.run(atMs, key, attempt.id);
      else dropSignIn.run(key, attempt.id);
    }
  });
  const removals = [
    db.prepare<[ExpiryBounds]>('DELETE FROM web_sessions WHERE ended = 1 OR last_seen_ms < @sessionsSeenBefore OR created_ms < @sessionsCreatedBefore'),
    db.prepare<[ExpiryBounds]>('DELETE FROM user_links WHERE used_ms IS NOT NULL OR expires_ms <= @linksExpiredBy'),
    db.prepare<[ExpiryBounds]>(`DELETE FROM totp_steps WHERE step < @attemptsBefore / ${TOTP_STEP_MS}`),
    db.prepare<[ExpiryBounds]>('DELETE FROM sign_ins WHERE at_ms < @attemptsBefore'),
  ];
  const removeExpired = db.transaction((bounds: ExpiryBounds) => removals.forEach((statement) => statement.run(bounds)));

  return {
    async addUser(row) {
      return addUser.run({ ...row, recovery_hashes: JSON.stringify(row.recovery_hashes), removed: row.removed ? 1 : 0 }).changes === 1;
    },
    async userById(id) {
      return toUser(byId.get(id));
    },
    async usersByEmail(email) {
      return byEmail.all(email).map((row) => toUser(row)!);
    },
    async usersOf(accountId) {
      return ofAccount.all(accountId).map((row) => toUser(row)!);
    },
    async changeUser(id, change, nowMs) {
      const values = change.kind === 'two-factor' ? { ...change, recovery_hashes: JSON.stringify(change.recovery_hashes) } : change;
      const { kind: _, ...fields } = values;
      return changes[change.kind].run({ ...fields, id, ...(change.kind === 'password' ? { now: nowMs } : {}) }).changes === 1;
    },
    async useRecoveryCode(userId, codeHash) {
      return useRecoveryCode.run({ id: userId, hash: codeHash }).changes === 1;
    },
    async saveLink(row) {
      saveLink.run(row.token_hash, row.user_id, row.expires_ms);
    },
    async useLink(tokenHash, nowMs) {
      return useLink.get(nowMs, tokenHash);
    },
    async endLinks(userId, nowMs) {
      endLinks.run(nowMs, userId);
    },
    async saveSession(row) {
      saveSession.run({ ...row, ended: row.ended ? 1 : 0 });
    },
    async session(idHash) {
      const row = session.get(idHash);
      return row && { ...row, ended: row.ended === 1 };
    },
    async useTotpStep(userId, step) {
      return useTotpStep.run(userId, step).changes === 1;
    },
    async reserveSignIn(attempt, decide) {
      return reserve.immediate(attempt, decide);
    },
    async signInSucceeded(attempt, clears, atMs) {
      settle.immediate(attempt, clears, atMs);
    },
    async removeExpired(bounds) {
      removeExpired(bounds);
    },
  };
}
