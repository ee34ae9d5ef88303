/**
 * The backend contract: everything a server needs from where the data lives, owned by
 * each adapter package (`openSqliteBackend` here, `openClickHouseBackend` in
 * `@siteline/clickhouse`) and only consumed by the server. The server never asks which
 * engine it has: it reads `capabilities`.
 */
import type { AccountStore } from './accounts/types.js';
import type { EmailReportStore } from './email-reports/types.js';
import type { PeopleStore } from './people/types.js';
import type { SaltStore } from './salts/salts.js';
import type { ShareStore } from './sharing/types.js';
import type { Storage } from './storage/types.js';

/** What a backend can do beyond the contract; declared, never detected. */
export interface BackendCapabilities {
  /**
   * The server runs the collector on a worker thread with a connection of its own (the
   * backend opened again with role `collect`): true for ClickHouse, whose writes are network
   * calls that the worker keeps in a local spool first (`Storage.planWrite`), so neither an
   * fsync nor a slow server holds up the thread answering requests. False for SQLite: a commit
   * of the few beacons that arrive meanwhile (a group commit) costs less than handing them to
   * another thread and back, so the request thread commits them itself.
   */
  readonly writerThread: boolean;
  /**
   * Any number of server processes, on any number of machines, may serve from it at once:
   * sites, accounts, keys and daily salts live in it. False for SQLite (one machine; several
   * processes on that machine may share a file).
   */
  readonly sharedAcrossHosts: boolean;
}

/**
 * Which connection a backend is opened for. `serve`: the server's request thread (on SQLite
 * it also commits the collector's beacons). `collect`: a collector's worker thread (SQLite
 * checkpoints less often there). `tool`: commands and embedders (engine defaults).
 */
export type BackendRole = 'serve' | 'collect' | 'tool';

/**
 * One engine's whole backend. Opened from configuration by the adapter's factory, closed
 * once by its owner (`close` closes everything it opened).
 *
 * @example
 * const backend = openSqliteBackend('siteline.db');
 * const stats = await getStats(backend.storage, parseQuery('stats', { site_id: 'ST-demo' }));
 * const { key } = await backend.accounts.createKey(accountId, 'reporting backend');
 * await backend.close();
 */
export interface Backend {
  /** Engine name for logs, e.g. `sqlite`, `clickhouse`. */
  readonly kind: string;
  /** Where the data is, safe to log (never a password), e.g. `sqlite:/srv/siteline.db`. */
  readonly description: string;
  readonly storage: Storage;
  /** Cloud accounts and API keys (hashed), shared by every process using this backend. */
  readonly accounts: AccountStore;
  /** Dashboard users, one-time links and web sessions (issue 25), shared like `accounts`. */
  readonly people: PeopleStore;
  /** Shared links of sites (issue 37), shared like `accounts`: revoking one ends its pages on every process. */
  readonly shares: ShareStore;
  /** Email report subscriptions and send attempts (issue 37): every process sees every claim, so a report goes out once. */
  readonly emailReports: EmailReportStore;
  /** Daily salts of the collector's visitor ids, shared by every process and kept across restarts. */
  readonly salts: SaltStore;
  readonly capabilities: BackendCapabilities;
  /** What opening it changed that its owner should log (SQLite: data files others could read, made the owner's alone); none usually. */
  readonly notices?: readonly string[];
  /** Closes every connection the backend opened. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The backend could not be opened: unreachable, refused the credentials, misconfigured.
 * The message says what to fix and never contains a password.
 */
export class BackendError extends Error {
  override readonly name = 'BackendError';
}
