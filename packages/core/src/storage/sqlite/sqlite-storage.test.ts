import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { testStorage } from '../../testing/conformance.js';
import { createSqliteStorage } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

testStorage({ name: 'sqlite file', create: async () => createSqliteStorage(join(dir, 'conformance.db')) });
testStorage({ name: 'sqlite :memory:', create: async () => createSqliteStorage(':memory:') });
