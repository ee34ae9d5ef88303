import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { testExportRoundTrip } from '../../testing/export-roundtrip.js';
import { createSqliteStorage } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
testExportRoundTrip({ name: 'sqlite file', create: async () => createSqliteStorage(join(dir, `export-${n++}.db`)) });
