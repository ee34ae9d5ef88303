import type Database from 'better-sqlite3';
import { CLOUD_KEY_PATTERN, generateCloudKey, hashCloudKey, hashesEqual } from '../../accounts/keys.js';
import { accountIdFor, accountName, keyInfo, LAST_USED_RESOLUTION_MS, newKeyId, type StoredKeyRow } from '../../accounts/rules.js';
import type { Account, AccountStore } from '../../accounts/types.js';
import { writeUnavailable } from './sqlite-errors.js';

/**
 * Accounts and API keys in the SQLite store's database, on its connection (the backend
 * of `openSqliteBackend` wires them). Keys are stored as HMAC-SHA256 hashes only.
 */
export function createSqliteAccounts(db: Database.Database): AccountStore {
  const insertAccount = db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)');
  const getAccount = db.prepare<[string], { id: string; name: string; created_at: string }>('SELECT * FROM accounts WHERE id = ?');
  const allAccounts = db.prepare<[], { id: string; name: string; created_at: string }>('SELECT * FROM accounts ORDER BY created_at, id');
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, account_id, name, hash, prefix, last4, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const keyById = db.prepare<[string], StoredKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const keysOf = db.prepare<[string], StoredKeyRow>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL');
  const byHash = db.prepare<[Buffer], { id: string; account_id: string; hash: Buffer; last_used_at: string | null; revoked_at: string | null }>(
    'SELECT id, account_id, hash, last_used_at, revoked_at FROM api_keys WHERE hash = ?',
  );
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const active = db.prepare<[string], { revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE id = ?');
  const toAccount = (row: { id: string; name: string; created_at: string }): Account => ({ id: row.id, name: row.name, createdAt: row.created_at });

  return {
    async createAccount(name, id) {
      const account = { id: accountIdFor(id), name: accountName(name, 'An account'), createdAt: new Date().toISOString() };
      insertAccount.run(account.id, account.name, account.createdAt);
      return account;
    },
    async getAccount(id) {
      const row = getAccount.get(id);
      return row && toAccount(row);
    },
    async listAccounts() {
      return allAccounts.all().map(toAccount);
    },
    async createKey(accountId, name) {
      if (!getAccount.get(accountId)) throw new Error(`No account ${accountId}.`);
      const key = generateCloudKey();
      const id = newKeyId();
      insertKey.run(id, accountId, accountName(name, 'A key'), hashCloudKey(key), key.slice(0, 4), key.slice(-4), new Date().toISOString());
      return { key, info: keyInfo(keyById.get(id)!) };
    },
    async listKeys(accountId) {
      return keysOf.all(accountId).map(keyInfo);
    },
    async revokeKey(accountId, keyId) {
      return revoke.run(new Date().toISOString(), keyId, accountId).changes === 1;
    },
    async authenticate(key) {
      if (!CLOUD_KEY_PATTERN.test(key)) return null; // malformed: no database lookup
      const hash = hashCloudKey(key);
      const row = byHash.get(hash);
      if (!row || row.revoked_at !== null || !hashesEqual(row.hash, hash)) return null;
      const now = Date.now();
      if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
        try {
          touch.run(new Date(now).toISOString(), row.id);
        } catch (error) {
          // A full disk or read-only file: the key still reads; its "last used" catches up once it can be written.
          if (!writeUnavailable(error)) throw error;
        }
      }
      return { keyId: row.id, accountId: row.account_id };
    },
    async isActive(keyId) {
      const row = active.get(keyId);
      return row !== undefined && row.revoked_at === null;
    },
  };
}
