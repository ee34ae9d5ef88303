import type Database from 'better-sqlite3';
import type { LinkRow, PeopleStore, UserRow, WebSessionRow } from '../../people/types.js';

type UserColumns = Omit<UserRow, 'recovery_hashes' | 'removed'> & { recovery_hashes: string; removed: number };
type SessionColumns = Omit<WebSessionRow, 'ended'> & { ended: number };

const toUser = (row: UserColumns | undefined): UserRow | undefined =>
  row && { ...row, recovery_hashes: JSON.parse(row.recovery_hashes) as string[], removed: row.removed === 1 };

/**
 * Users, one-time links and web sessions in the SQLite store's database, on its connection.
 * A link is used by one UPDATE that matches only while `used_ms` is NULL, so of two
 * processes racing on one token exactly one changes the row.
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
  };
}
