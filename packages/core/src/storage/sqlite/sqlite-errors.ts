/**
 * SQLite's "cannot write now" errors, as the store reports them: better-sqlite3 throws a
 * `SqliteError` whose `code` is SQLite's (extended) result code name.
 */
import { WriteUnavailableError } from '../../errors.js';

/**
 * `WriteUnavailableError` for a full disk (`SQLITE_FULL`) or a read-only database
 * (`SQLITE_READONLY` and its extended codes: a read-only file, directory or mount);
 * `undefined` for anything else.
 * @example writeUnavailable(error) ?? error
 */
export function writeUnavailable(error: unknown): WriteUnavailableError | undefined {
  if (error instanceof WriteUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') return new WriteUnavailableError('full', undefined, { cause: error });
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_')) return new WriteUnavailableError('readonly', undefined, { cause: error });
  return undefined;
}

/**
 * Runs a write, throwing `WriteUnavailableError` in place of SQLite's disk-full and
 * read-only errors (a transaction that failed so has been rolled back: nothing of it is kept).
 */
export function translated<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw writeUnavailable(error) ?? error;
  }
}
