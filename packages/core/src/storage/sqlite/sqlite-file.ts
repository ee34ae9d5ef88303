import { chmodSync, closeSync, openSync, statSync } from 'node:fs';

/** Whether a SQLite path names a file another connection can open (not an in-memory database). */
export function isSqliteFile(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file::memory:') && !/[?&]mode=memory/.test(path);
}

/** The files SQLite keeps beside a database: its write-ahead log, its shared-memory index, a rollback journal. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/** Only the owner may read or write a file holding data: password hashes, two-factor secrets, session tokens, salts. */
export const DATA_FILE_MODE = 0o600;

/**
 * Makes a database's files the owner's alone, before SQLite opens it: a database that does
 * not exist yet is created empty with mode 0600 (SQLite gives the `-wal` and `-shm` files
 * it creates the database file's mode, so they follow, whatever the process umask); an
 * existing database or companion file that others may read or write is changed to 0600.
 * Returns one sentence per file changed, for the log.
 * @example for (const notice of ownerOnlyFiles('./siteline.db')) console.warn(notice);
 */
export function ownerOnlyFiles(path: string, create = true): string[] {
  if (create) {
    try {
      closeSync(openSync(path, 'wx', DATA_FILE_MODE));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const notices: string[] = [];
  for (const file of [path, ...COMPANIONS.map((suffix) => `${path}${suffix}`)]) {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      continue; // not there
    }
    if ((mode & 0o077) === 0) continue;
    chmodSync(file, DATA_FILE_MODE);
    notices.push(`${file} was readable by others (mode ${mode.toString(8)}): changed to ${DATA_FILE_MODE.toString(8)}, as every file holding data.`);
  }
  return notices;
}
