import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

/** Tests run against the TypeScript sources, so `npm test` needs no build step. */
const alias = [
  { find: /^@siteline\/core\/testing$/, replacement: src('core', 'testing/index.ts') },
  { find: /^@siteline\/core$/, replacement: src('core') },
  { find: /^@siteline\/http\/testing$/, replacement: src('http', 'testing/index.ts') },
  { find: /^@siteline\/http$/, replacement: src('http') },
  { find: /^@siteline\/client$/, replacement: src('client') },
  { find: /^@siteline\/clickhouse$/, replacement: src('clickhouse') },
];

/**
 * Every test file runs in a forked process of its own, two at a time (vitest's default
 * on two cores is one: the files that wait on servers, browsers and child processes
 * left a core idle). Files that start ClickHouse servers or `siteline` processes take
 * free ports and directories of their own, so they run beside the others. Timeouts allow
 * for two files, their servers and browsers sharing two cores: they catch a hang, not a slow run.
 */
const projects = [
  ...['core', 'http', 'client'].map((name) => ({
    resolve: { alias },
    test: {
      name,
      root: `./packages/${name}`,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  })),
  {
    resolve: { alias },
    test: { name: 'examples', root: './examples', include: ['*.test.ts'], testTimeout: 60_000 },
  },
  {
    resolve: { alias },
    // The documentation a clone holds: its links resolve inside the repository, the API reference matches the server.
    test: { name: 'docs', root: './test/docs', include: ['*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
  },
  {
    resolve: { alias },
    test: {
      // The product as a user runs it: `siteline` commands and servers as real processes, on SQLite and on
      // real clickhouse-server processes.
      name: 'deployment',
      root: './test/deployment',
      include: ['*.test.ts'],
      testTimeout: 180_000,
      hookTimeout: 120_000,
    },
  },
  {
    resolve: { alias },
    test: {
      // Each test file starts its own clickhouse-server(s).
      name: 'clickhouse',
      root: './packages/clickhouse',
      include: ['src/**/*.test.ts'],
      exclude: ['src/**/*.chdb.test.ts'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  },
  {
    resolve: { alias },
    test: {
      // ClickHouse 26.x in-process (chdb): one data directory per process and no worker threads, so every
      // file gets a fresh forked process (vitest's default pool).
      name: 'clickhouse-chdb',
      root: './packages/clickhouse',
      include: ['src/**/*.chdb.test.ts'],
      testTimeout: 120_000,
      hookTimeout: 300_000,
    },
  },
];

export default defineConfig({
  test: { projects, pool: 'forks', maxWorkers: 2, minWorkers: 1 },
});
