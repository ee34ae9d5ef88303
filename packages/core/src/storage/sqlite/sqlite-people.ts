import type Database from 'better-sqlite3';
import { TOTP_STEP_MS } from '../../people/people.js';
import type { ExpiryBounds, LinkRow, PeopleStore, SignInRow, UserRow, WebSessionRow } from '../../people/types.js';

type UserColumns = Omit<UserRow, 'recovery_hashes' | 'removed'> & { recovery_hashes: string; removed: number };
type SessionColumns = Omit<WebSessionRow, 'ended'> & { ended: number };

const toUser = (row: UserColumns | undefined): UserRow | undefined =>
  row && { ...row, recovery_hashes: JSON.parse(row.recovery_hashes) as string[], removed: row.removed === 1 };

/**
 * Users, one-time links and web sessions in the SQLite store's database, on its connection.
 * A link is used by one UPDATE that matches only while `used_ms` is NULL, so of two
 * processes racing on one token exactly one changes the row; a two-factor step likewise by
 * one upsert that changes the row only for a later step. `removeExpired` deletes rows.
 */
export function createSqlitePeople(db: Database.Database): PeopleStore {
  const saveUser = db.prepare(`INSERT INTO users (id, account_id, email, role, password_hash, totp_secret, recovery_hashes,
    sessions_after_ms, created_at, removed) VALUES (@id, @account_id, @email, @role, @password_hash, @totp_secret, @recovery_hashes,
    @sessions_after_ms, @created_at, @removed) ON CONFLICT (id) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash,
    totp_secret = excluded.totp_secret, recovery_hashes = excluded.recovery_hashes, sessions_after_ms = excluded.sessions_after_ms,
    removed = excluded.removed`);
  const byId = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE email = ? AND removed = 0');
  const ofAccount = db.prepare<[string], UserColumns>('SELECT * FROM users WHERE account_id = ? AND removed = 0');
  const saveLink = db.prepare('INSERT INTO user_links (token_hash, user_id, expires_ms) VALUES (?, ?, ?)');
  const useLink = db.prepare<[number, string], LinkRow>(
    'UPDATE user_links SET used_ms = ? WHERE token_hash = ? AND used_ms IS NULL RETURNING token_hash, user_id, expires_ms',
  );
  const saveSession = db.prepare(`INSERT INTO web_sessions (id_hash, user_id, key_id, account_id, csrf, created_ms, last_seen_ms, ended)
    VALUES (@id_hash, @user_id, @key_id, @account_id, @csrf, @created_ms, @last_seen_ms, @ended)
    ON CONFLICT (id_hash) DO UPDATE SET last_seen_ms = excluded.last_seen_ms, ended = max(ended, excluded.ended)`);
  const session = db.prepare<[string], SessionColumns>('SELECT * FROM web_sessions WHERE id_hash = ?');
  const useTotpStep = db.prepare(`INSERT INTO totp_steps (user_id, step) VALUES (?, ?)
    ON CONFLICT (user_id) DO UPDATE SET step = excluded.step WHERE excluded.step > totp_steps.step`);
  const addSignIn = db.prepare('INSERT INTO sign_ins (key, at_ms, failed) VALUES (?, ?, ?)');
  const signIns = db.prepare<[string, number], { at_ms: number; failed: number }>(
    'SELECT at_ms, failed FROM sign_ins WHERE key = ? ORDER BY at_ms DESC, failed DESC LIMIT ?',
  );
  const removals = [
    db.prepare<[ExpiryBounds]>('DELETE FROM web_sessions WHERE ended = 1 OR last_seen_ms < @sessionsSeenBefore OR created_ms < @sessionsCreatedBefore'),
    db.prepare<[ExpiryBounds]>('DELETE FROM user_links WHERE used_ms IS NOT NULL OR expires_ms <= @linksExpiredBy'),
    db.prepare<[ExpiryBounds]>(`DELETE FROM totp_steps WHERE step < @attemptsBefore / ${TOTP_STEP_MS}`),
    db.prepare<[ExpiryBounds]>('DELETE FROM sign_ins WHERE at_ms < @attemptsBefore'),
  ];
  const removeExpired = db.transaction((bounds: ExpiryBounds) => removals.forEach((statement) => statement.run(bounds)));

  return {
    async saveUser(row) {
      saveUser.run({ ...row, recovery_hashes: JSON.stringify(row.recovery_hashes), removed: row.removed ? 1 : 0 });
    },
    async userById(id) {
      return toUser(byId.get(id));
    },
    async userByEmail(email) {
      return toUser(byEmail.get(email));
    },
    async usersOf(accountId) {
      return ofAccount.all(accountId).map((row) => toUser(row)!);
    },
    async saveLink(row) {
      saveLink.run(row.token_hash, row.user_id, row.expires_ms);
    },
    async useLink(tokenHash, nowMs) {
      return useLink.get(nowMs, tokenHash);
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
    async addSignIn(key, atMs, failed) {
      addSignIn.run(key, atMs, failed ? 1 : 0);
    },
    async signIns(key, limit) {
      return signIns.all(key, limit).map((r): SignInRow => ({ at_ms: r.at_ms, failed: r.failed === 1 }));
    },
    async removeExpired(bounds) {
      removeExpired(bounds);
    },
  };
}
