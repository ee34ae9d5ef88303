import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import {
  type Account,
  type AccountStore,
  accountIdFor,
  accountName,
  byCreation,
  CLOUD_KEY_PATTERN,
  generateCloudKey,
  hashCloudKey,
  hashesEqual,
  keyInfo,
  LAST_USED_RESOLUTION_MS,
  newKeyId,
  type StoredKeyRow,
} from '@siteline/core';
import type { BackendTable } from '../schema/migrations/003-backend.js';
import { sqlString } from '../connection/escape.js';
import { tableName, type SchemaTarget } from '../schema/schema.js';

/** A key row of `api_keys`: last use and revocation live in tables of their own. */
type KeyRow = Omit<StoredKeyRow, 'last_used_at' | 'revoked_at'>;

/**
 * Cloud accounts and API keys in ClickHouse, shared by every server process using the
 * database. Keys are stored as HMAC-SHA256 hashes only (hex); a lookup goes by hash and the
 * final comparison is constant-time. Revocation is a row in `api_key_revocations`, read on
 * every request (`authenticate`, `isActive`): inserts are synchronous (on a cluster too), so
 * once `revokeKey` returns, every process refuses the key, requests in flight included.
 *
 * @example
 * const accounts = createClickHouseAccounts(client, { database: 'siteline' }, {});
 * const { key } = await accounts.createKey((await accounts.createAccount('Acme')).id, 'reporting');
 */
export function createClickHouseAccounts(client: ClickHouseClient, target: SchemaTarget, insertSettings: ClickHouseSettings): AccountStore {
  const table = (name: BackendTable) => tableName(target, name);
  const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>();
  const insert = (name: BackendTable, values: object[]) =>
    client.insert({ table: table(name), values, format: 'JSONEachRow', clickhouse_settings: insertSettings });
  /** When this process last recorded a use of each key (at most one row a minute per key and process). */
  const lastRecorded = new Map<string, number>();

  const getAccount = async (id: string): Promise<Account | undefined> => {
    const [row] = await rows<{ id: string; name: string; created_at: string }>(
      `SELECT id, name, created_at FROM ${table('accounts')} WHERE id = ${sqlString(id)} LIMIT 1`,
    );
    return row && { id: row.id, name: row.name, createdAt: row.created_at };
  };
  const revoked = async (keyId: string): Promise<boolean> => {
    const [row] = await rows<{ n: string }>(`SELECT count() AS n FROM ${table('api_key_revocations')} WHERE key_id = ${sqlString(keyId)}`);
    return Number(row?.n ?? 0) > 0;
  };

  return {
    async createAccount(name, id) {
      const account = { id: accountIdFor(id), name: accountName(name, 'An account'), createdAt: new Date().toISOString() };
      await insert('accounts', [{ id: account.id, name: account.name, created_at: account.createdAt }]);
      return account;
    },
    getAccount,
    async listAccounts() {
      const found = await rows<{ id: string; name: string; created_at: string }>(`SELECT id, name, created_at FROM ${table('accounts')}`);
      return found.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at })).sort(byCreation);
    },
    async createKey(accountId, name) {
      if (!(await getAccount(accountId))) throw new Error(`No account ${accountId}.`);
      const key = generateCloudKey();
      const row: KeyRow & { hash: string } = {
        id: newKeyId(),
        account_id: accountId,
        name: accountName(name, 'A key'),
        hash: hashCloudKey(key).toString('hex'),
        prefix: key.slice(0, 4),
        last4: key.slice(-4),
        created_at: new Date().toISOString(),
      };
      await insert('api_keys', [row]);
      return { key, info: keyInfo({ ...row, last_used_at: null, revoked_at: null }) };
    },
    async listKeys(accountId) {
      const keys = await rows<KeyRow>(
        `SELECT id, account_id, name, prefix, last4, created_at FROM ${table('api_keys')} WHERE account_id = ${sqlString(accountId)}`,
      );
      if (keys.length === 0) return [];
      const ids = keys.map((k) => sqlString(k.id)).join(', ');
      const [revocations, uses] = await Promise.all([
        rows<{ key_id: string; at: string }>(`SELECT key_id, min(revoked_at) AS at FROM ${table('api_key_revocations')} WHERE key_id IN (${ids}) GROUP BY key_id`),
        rows<{ key_id: string; at: string }>(`SELECT key_id, toString(max(used_ms)) AS at FROM ${table('api_key_uses')} WHERE key_id IN (${ids}) GROUP BY key_id`),
      ]);
      const revokedAt = new Map(revocations.map((r) => [r.key_id, r.at]));
      const usedAt = new Map(uses.map((r) => [r.key_id, new Date(Number(r.at)).toISOString()]));
      return keys.map((k) => keyInfo({ ...k, last_used_at: usedAt.get(k.id) ?? null, revoked_at: revokedAt.get(k.id) ?? null })).sort(byCreation);
    },
    async revokeKey(accountId, keyId) {
      const [key] = await rows<{ id: string }>(
        `SELECT id FROM ${table('api_keys')} WHERE id = ${sqlString(keyId)} AND account_id = ${sqlString(accountId)} LIMIT 1`,
      );
      if (!key || (await revoked(keyId))) return false;
      await insert('api_key_revocations', [{ key_id: keyId, account_id: accountId, revoked_at: new Date().toISOString() }]);
      return true;
    },
    async authenticate(key) {
      if (!CLOUD_KEY_PATTERN.test(key)) return null; // malformed: no database lookup
      const hash = hashCloudKey(key);
      // Two plain reads, the key then its revocation: no `GLOBAL NOT IN`, whose temporary table 18.16 loses under concurrent reads.
      const [row] = await rows<{ id: string; account_id: string; hash: string }>(
        `SELECT id, account_id, hash FROM ${table('api_keys')} WHERE hash = ${sqlString(hash.toString('hex'))} LIMIT 1`,
      );
      if (!row || !hashesEqual(Buffer.from(row.hash, 'hex'), hash) || (await revoked(row.id))) return null;
      const now = Date.now();
      if (now - (lastRecorded.get(row.id) ?? -Infinity) >= LAST_USED_RESOLUTION_MS) {
        if (lastRecorded.size >= 10_000) lastRecorded.clear();
        lastRecorded.set(row.id, now);
        await insert('api_key_uses', [{ key_id: row.id, used_ms: now }]);
      }
      return { keyId: row.id, accountId: row.account_id };
    },
    async isActive(keyId) {
      const [[key], isRevoked] = await Promise.all([
        rows<{ id: string }>(`SELECT id FROM ${table('api_keys')} WHERE id = ${sqlString(keyId)} LIMIT 1`),
        revoked(keyId),
      ]);
      return key !== undefined && !isRevoked;
    },
  };
}
