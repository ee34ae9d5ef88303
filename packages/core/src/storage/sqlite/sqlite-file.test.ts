/**
 * The files holding data are the owner's alone (0600): the database, its `-wal` and `-shm`
 * files and an import's staging file, created so whatever the process umask, and an
 * existing database file readable by others tightened when it is opened (and said so).
 */
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStage } from '../../import/stage.js';
import { openSqliteBackend } from './sqlite-backend.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe('data files are created 0600', () => {
  it('a new database and its -wal and -shm files, under a umask of 022 (the usual default)', async () => {
    const umask = process.umask(0o022);
    try {
      const file = join(dir, 'new.db');
      const backend = openSqliteBackend(file);
      await backend.accounts.createAccount('Acme'); // a write: the WAL holds it
      expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(['600', '600', '600']);
      expect(backend.notices).toEqual([]);
      await backend.close();
    } finally {
      process.umask(umask);
    }
  });

  it('an existing database readable by others (0644, its -wal 0664) is tightened to 0600 at open, with a notice naming each file', async () => {
    const file = join(dir, 'old.db');
    await openSqliteBackend(file).close();
    chmodSync(file, 0o644);
    closeSync(openSync(`${file}-wal`, 'a'));
    chmodSync(`${file}-wal`, 0o664);
    const backend = openSqliteBackend(file);
    expect([modeOf(file), modeOf(`${file}-wal`)]).toEqual(['600', '600']);
    expect(backend.notices).toEqual([
      `${file} was readable by others (mode 644): changed to 600, as every file holding data.`,
      `${file}-wal was readable by others (mode 664): changed to 600, as every file holding data.`,
    ]);
    await backend.close();
    expect(openSqliteBackend(file).notices).toEqual([]); // once tightened, nothing more to say
  });

  it('an import\'s staging file', () => {
    const umask = process.umask(0o022);
    try {
      const stage = openStage();
      expect(modeOf(stage.file)).toBe('600');
      stage.close();
    } finally {
      process.umask(umask);
    }
  });
});
