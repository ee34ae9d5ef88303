/** A Cloud account: it owns sites and API keys. */
export interface Account {
  /** `acct_` and 16 letters or digits. */
  id: string;
  name: string;
  createdAt: string;
}

/** An API key as listed: never the key itself, nor its hash. */
export interface ApiKeyInfo {
  id: string;
  accountId: string;
  name: string;
  /** First and last four characters, e.g. `st_a…9f3c`. */
  masked: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The key an authenticated request presented. */
export interface KeyIdentity {
  keyId: string;
  accountId: string;
}

/**
 * Accounts and their keys. The SQLite implementation shares the database
 * file of the SQLite store, so every process using that file sees a
 * revocation at once.
 */
export interface AccountStore {
  /** Creates an account; `id` (`newAccountId()`'s shape) when the caller made it first, e.g. to add its owner before it. */
  createAccount(name: string, id?: string): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  /** Creates a key; the full key is in the result and nowhere else, ever. */
  createKey(accountId: string, name: string): Promise<{ key: string; info: ApiKeyInfo }>;
  listKeys(accountId: string): Promise<ApiKeyInfo[]>;
  /** Revokes a key of the account; false when there is no such active key. */
  revokeKey(accountId: string, keyId: string): Promise<boolean>;
  /** The active key matching `key`, recording its use; null for malformed, unknown or revoked keys. */
  authenticate(key: string): Promise<KeyIdentity | null>;
  /** Whether the key is still active (not revoked). */
  isActive(keyId: string): Promise<boolean>;
}
