import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { demoNdjson } from '../../demo/index.js';
import { importEvents } from '../../import/import.js';
import { parseQuery } from '../../query/parse.js';
import { REPORTS } from '../../reports/index.js';
import { createSite } from '../../sites/sites.js';
import { ALPHA, GAMMA_FIRST, GAMMA_SECOND, ndjson } from '../../testing/datasets.js';
import { PROPS, PROPS_GOALS } from '../../testing/datasets-properties.js';
import { addGoal } from '../../goals/goals.js';
import { addFunnel, listFunnels } from '../../funnels/funnels.js';
import type { EndpointName } from '../../types.js';
import type { Storage } from '../types.js';
import { MIGRATIONS } from './migrations.js';
import { createSqliteStore } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-05T15:00:00Z');
const SITES = [
  { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' },
  { id: 'ST-gamma', name: 'Gamma' },
  { id: 'ST-demo', name: 'Demo', timezone: 'Europe/Berlin', domain: 'demo.example' },
];
const ENDPOINTS: EndpointName[] = ['stats', 'timeseries', 'pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns', 'live'];

async function answers(storage: Storage): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { id } of SITES) {
    for (const endpoint of ENDPOINTS) {
      const query = parseQuery(endpoint, { site_id: id, from: '2026-10-30', to: '2026-11-05' });
      out.push(await REPORTS[endpoint](storage, query, { now: NOW }));
    }
    // Filtered and hourly: the column cache (sqlite-column-cache.ts), whose validity the last migration's table keys.
    for (const endpoint of ['stats', 'pages', 'events'] as const) {
      const query = parseQuery(endpoint, { site_id: id, from: '2026-10-30', to: '2026-11-05', filters: JSON.stringify([['is_not', 'page', ['/']]]) });
      out.push(await REPORTS[endpoint](storage, query, { now: NOW }));
    }
    out.push(await REPORTS.timeseries(storage, parseQuery('timeseries', { site_id: id, from: '2026-11-03', to: '2026-11-05', interval: 'hour' }), { now: NOW }));
  }
  return out;
}

/**
 * Takes back what migrations 16, 15, 14, 13, 12, 9 and 8 add, to hold an older file (10 only adds an
 * index if missing; 11's changes are to tables 8 and 9 made, and go with them).
 */
/** Undoes the slices' tables of issue 41 (migrations 16 and 15). */
const UNDO_SLICES = ['slice_funnels', 'slice_days', 'slice_totals', 'slice_pages', 'slice_events', 'slice_goals', 'slice_props'].map((t) => `DROP TABLE ${t};`).join(' ');
/** Undoes the saved funnels of issue 36 (migration 14). */
const UNDO_FUNNELS = `${UNDO_SLICES} DROP TABLE funnels;`;
const UNDO_13 = `${UNDO_FUNNELS} DROP TABLE shared_links; DROP TABLE report_subscriptions; DROP TABLE report_sends;`;
/** Undoes the imported-data tables of issue 39 (migration 12; its indexes go with its tables). */
const UNDO_IMPORTED = `${UNDO_13} DROP TABLE imported_datasets; DROP TABLE imported_rows;`;
const UNDO_9 = `${UNDO_IMPORTED} DROP TABLE totp_steps; DROP TABLE sign_ins;`;
const UNDO_8 = `${UNDO_9} DROP TABLE users; DROP TABLE user_links; DROP TABLE web_sessions;`;

describe('SQLite migrations', () => {
  it('a database of schema version 2 upgrades to the same answers', async () => {
    const current = createSqliteStore(join(dir, 'current.db'), { now: () => NOW });
    for (const site of SITES) await createSite(current, site);
    for (const data of [ALPHA, GAMMA_FIRST, GAMMA_SECOND]) await importEvents(current, ndjson(data));
    await importEvents(current, [...demoNdjson({ siteId: 'ST-demo', days: 5, pageviewsPerDay: 50, end: NOW, timezone: 'Europe/Berlin', domain: 'demo.example' })]);
    const expected = await answers(current);

    // The same rows in a file that stopped at version 2, as the store before rollups wrote them.
    const file = join(dir, 'v2.db');
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.pragma('user_version = 2');
    old.exec(`ATTACH '${join(dir, 'current.db')}' AS current`);
    old.exec(`INSERT INTO sites SELECT * FROM current.sites;
      INSERT INTO events (id, site_id, ts, day, type, name, path, visitor_id, session_id, seq, gap_ms)
        SELECT id, site_id, ts, day, type, name, path, visitor_id, session_id, seq, gap_ms FROM current.events;
      INSERT INTO sessions SELECT * FROM current.sessions;`);
    old.close();
    await current.close();

    const upgraded = createSqliteStore(file, { now: () => NOW });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(await answers(upgraded)).toEqual(expected);
    // Every day was marked dirty by the migration and rebuilt by the reads; past days are clean now.
    expect(upgraded.db.prepare("SELECT COUNT(*) FROM dirty_days WHERE day < '2026-11-05'").pluck().get()).toBe(0);
    // New writes continue the event ids, and version the day they write (none had a version before).
    expect(upgraded.db.prepare('SELECT COUNT(*) FROM day_versions').pluck().get()).toBe(0);
    await importEvents(upgraded, ndjson([{ site_id: 'ST-alpha', ts: '2026-11-05T14:00:00Z', type: 'pageview', url: '/after', visitor_id: 'z' }]));
    const ids = upgraded.db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS distinct_ids FROM events').get();
    expect(ids).toEqual({ n: expect.any(Number), distinct_ids: (ids as { n: number }).n });
    expect(upgraded.db.prepare('SELECT site_id, day, version FROM day_versions').all()).toEqual([{ site_id: 'ST-alpha', day: '2026-11-05', version: 1 }]);
    // The cached day reloads: one new bounce on /after.
    const after = parseQuery('stats', { site_id: 'ST-alpha', from: '2026-10-30', to: '2026-11-05', filters: JSON.stringify([['is', 'page', ['/after']]]) });
    expect(await REPORTS.stats(upgraded, after, { now: NOW })).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 });
    await upgraded.close();
  });
});

describe('SQLite migration 5: one spelling per browser and OS', () => {
  /**
   * Six visitors on one past day, each one session, names as an import line gives them:
   * v1 Android/Brave, v2 android/brave, v3 Windows/Chrome, v4 KAIOS/Firefox,
   * v5 FreeBSD/foo, v6 iOS/Mobile Safari. In one spelling each, by hand:
   * os Android 2, FreeBSD 1, iOS 1, KaiOS 1, Windows 1; browser Brave 2, Chrome 1,
   * Firefox 1, Foo 1, Safari 1.
   */
  const OLD_NAMES: [string, string, string][] = [
    ['v1', 'Android', 'Brave'],
    ['v2', 'android', 'brave'],
    ['v3', 'Windows', 'Chrome'],
    ['v4', 'KAIOS', 'Firefox'],
    ['v5', 'FreeBSD', 'foo'],
    ['v6', 'iOS', 'Mobile Safari'],
  ];
  const lines = OLD_NAMES.map(([visitor, os, browser], i) => ({
    site_id: 'ST-names', ts: `2026-11-02T1${i}:00:00Z`, type: 'pageview', url: '/', visitor_id: visitor,
    device_type: 'Mobile', os, browser,
  }));
  const devices = async (storage: Storage, breakdown: string) =>
    REPORTS.devices(storage, parseQuery('devices', { site_id: 'ST-names', from: '2026-11-01', to: '2026-11-03', breakdown }), { now: NOW });

  it('renames the stored names and rebuilds the rollups of the days it touched', async () => {
    const file = join(dir, 'names.db');
    const storage = createSqliteStore(file, { now: () => NOW });
    await createSite(storage, { id: 'ST-names', name: 'Names', timezone: 'UTC' });
    await importEvents(storage, ndjson(lines));
    // Write the names back as an earlier version stored them (the import now normalises
    // them), and let a read build clean rollup rows from those split names.
    for (const [visitor, os, browser] of OLD_NAMES) {
      storage.db.prepare('UPDATE sessions SET os = ?, browser = ? WHERE visitor_id = ?').run(os, browser, visitor);
    }
    storage.db.exec("INSERT INTO dirty_days SELECT site_id, day FROM rollup_days WHERE true ON CONFLICT DO NOTHING; DELETE FROM rollup_days; DELETE FROM rollup_sessions; DELETE FROM rollup_pages; DELETE FROM rollup_events;");
    expect((await devices(storage, 'os')).devices).toContainEqual({ name: 'android', visitors: 1 });
    expect(storage.db.prepare("SELECT COUNT(*) FROM rollup_sessions WHERE dimension = 'os' AND value = 'android'").pluck().get()).toBe(1);
    // Back to version 4, as the file was before migration 5 (and without what migrations 6, 7 and 8 add).
    storage.db.exec(`DROP TABLE day_versions; DROP TABLE goals; ALTER TABLE events DROP COLUMN props; ${UNDO_8}`);
    storage.db.pragma('user_version = 4');
    await storage.close();

    const upgraded = createSqliteStore(file, { now: () => NOW });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    // The migration left the day dirty: no rollup rows hold the old names.
    expect(upgraded.db.prepare("SELECT COUNT(*) FROM dirty_days WHERE site_id = 'ST-names'").pluck().get()).toBe(1);
    expect(upgraded.db.prepare("SELECT COUNT(*) FROM rollup_sessions WHERE site_id = 'ST-names'").pluck().get()).toBe(0);
    expect(await devices(upgraded, 'os')).toEqual({ breakdown: 'os', devices: [
      { name: 'Android', visitors: 2 },
      { name: 'FreeBSD', visitors: 1 },
      { name: 'KaiOS', visitors: 1 },
      { name: 'Windows', visitors: 1 },
      { name: 'iOS', visitors: 1 }, // ties in code-point order: capitals first
    ] });
    expect(await devices(upgraded, 'browser')).toEqual({ breakdown: 'browser', devices: [
      { name: 'Brave', visitors: 2 },
      { name: 'Chrome', visitors: 1 },
      { name: 'Firefox', visitors: 1 },
      { name: 'Foo', visitors: 1 },
      { name: 'Safari', visitors: 1 },
    ] });
    // The read rebuilt the day from the renamed rows: clean again, with the new names.
    expect(upgraded.db.prepare("SELECT COUNT(*) FROM dirty_days WHERE site_id = 'ST-names'").pluck().get()).toBe(0);
    expect(upgraded.db.prepare("SELECT value, visitors FROM rollup_sessions WHERE site_id = 'ST-names' AND dimension = 'os' AND value LIKE 'android'").all())
      .toEqual([{ value: 'Android', visitors: 2 }]);
    await upgraded.close();
  });
});

describe('SQLite migration 7: event properties and goals', () => {
  it('a version-6 database with events keeps them and their answers, then stores properties and goals', async () => {
    const file = join(dir, 'v6.db');
    const old = new Database(file);
    for (const sql of MIGRATIONS.slice(0, 6)) old.exec(sql);
    old.pragma('user_version = 6');
    old.close();
    const before = createSqliteStore(file, { now: () => NOW });
    // Opened by this version: migrated at once. Undo the last step to hold a real version-6 file with data.
    before.db.exec(`DROP TABLE goals; ALTER TABLE events DROP COLUMN props; ${UNDO_8} PRAGMA user_version = 6`);
    await before.close();
    const v6 = new Database(file);
    v6.exec(`INSERT INTO sites VALUES ('ST-props', 'Properties', 'UTC', NULL, NULL, '2026-11-01T00:00:00Z')`);
    v6.close();
    const reopened = createSqliteStore(file, { now: () => NOW });
    expect(reopened.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    await importEvents(reopened, ndjson(PROPS));
    for (const goal of PROPS_GOALS) await addGoal(reopened, 'ST-props', goal);
    const range = { site_id: 'ST-props', from: '2026-11-10', to: '2026-11-11' };
    // As testing/conformance-properties.ts works them out.
    expect(await REPORTS.properties(reopened, parseQuery('properties', { ...range, name: 'Signup', property: 'plan' }))).toEqual({
      name: 'Signup', property: 'plan',
      values: [{ value: 'pro', count: 3, visitors: 3 }, { value: 'Pro', count: 1, visitors: 1 }, { value: 'free', count: 1, visitors: 1 }],
    });
    expect((await REPORTS.goals(reopened, parseQuery('goals', range))).goals[0]).toEqual({ goal: 'Signup', visitors: 5, conversions: 6, conversion_rate: 83.3 });
    // Stored exactly: a JSON array of [key, value] strings on custom events only.
    expect(reopened.db.prepare("SELECT props FROM events WHERE session_id = 'Q1' AND type = 1").pluck().get()).toBe('[["plan","pro"],["seats","3"]]');
    expect(reopened.db.prepare("SELECT COUNT(*) FROM events WHERE type = 0 AND props IS NOT NULL").pluck().get()).toBe(0);
    await reopened.close();
  });
});

describe('SQLite migration 8: users, one-time links, web sessions', () => {
  it('a version-7 database keeps its accounts and keys and gains the people tables, empty', async () => {
    const file = join(dir, 'v7.db');
    const old = new Database(file);
    for (const sql of MIGRATIONS.slice(0, 7)) old.exec(sql);
    old.pragma('user_version = 7');
    old.exec(`INSERT INTO accounts VALUES ('acct_kept00000000000', 'Kept', '2026-11-01T00:00:00Z')`);
    old.close();
    const upgraded = createSqliteStore(file, { now: () => NOW });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(upgraded.db.prepare('SELECT name FROM accounts').pluck().all()).toEqual(['Kept']);
    const count = (table: string) => upgraded.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
    expect([count('users'), count('user_links'), count('web_sessions')]).toEqual([0, 0, 0]);
    await upgraded.close();
  });
});

describe('SQLite migration 9: two-factor steps and sign-in attempts', () => {
  it('a version-8 database keeps its users, sessions and links and gains the two tables, empty', async () => {
    const file = join(dir, 'v8.db');
    const old = new Database(file);
    for (const sql of MIGRATIONS.slice(0, 8)) old.exec(sql);
    old.pragma('user_version = 8');
    old.exec(`INSERT INTO users VALUES ('usr_kept000000000000', '', 'kept@example.com', 'owner', '', '', '[]', 0, '2026-11-01T00:00:00Z', 0);
      INSERT INTO web_sessions VALUES ('hash', 'usr_kept000000000000', '', '', 'csrf', 1, 2, 0);
      INSERT INTO user_links VALUES ('link', 'usr_kept000000000000', 3, NULL);`);
    old.close();
    const upgraded = createSqliteStore(file, { now: () => NOW });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const count = (table: string) => upgraded.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
    expect([count('users'), count('web_sessions'), count('user_links'), count('totp_steps'), count('sign_ins')]).toEqual([1, 1, 1, 0, 0]);
    await upgraded.close();
  });
});

/** Issue 36's entry, by its number in the landing order (after issue 37's 13). */
const FUNNELS_VERSION = 14;

describe(`SQLite migration ${FUNNELS_VERSION}: saved funnels`, () => {
  it('is the entry that creates the funnels table', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(FUNNELS_VERSION);
    expect(MIGRATIONS[FUNNELS_VERSION - 1]).toContain('CREATE TABLE IF NOT EXISTS funnels');
  });

  it(`a version-${FUNNELS_VERSION - 1} database keeps its sites and goals and gains the funnels table, empty, then saves funnels`, async () => {
    const file = join(dir, `v${FUNNELS_VERSION - 1}.db`);
    const old = new Database(file);
    for (const sql of MIGRATIONS.slice(0, FUNNELS_VERSION - 1)) old.exec(sql);
    old.pragma(`user_version = ${FUNNELS_VERSION - 1}`);
    old.exec(`INSERT INTO sites VALUES ('ST-kept', 'Kept', 'UTC', NULL, NULL, '2026-11-01T00:00:00Z')`);
    expect(old.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'funnels'").pluck().get()).toBe(0);
    old.close();
    const upgraded = createSqliteStore(file, { now: () => NOW });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    await addGoal(upgraded, 'ST-kept', { type: 'event', value: 'signup' });
    expect(await listFunnels(upgraded, 'ST-kept')).toEqual([]);
    await addFunnel(upgraded, 'ST-kept', { name: 'Pricing to signup', steps: [{ page: '/pricing' }, { event: 'signup' }] });
    expect((await listFunnels(upgraded, 'ST-kept')).map((f) => [f.name, f.steps])).toEqual([['Pricing to signup', [{ page: '/pricing' }, { event: 'signup' }]]]);
    expect(upgraded.db.prepare('SELECT steps FROM funnels').pluck().all()).toEqual(['[{"page":"/pricing"},{"event":"signup"}]']);
    await upgraded.close();
  });
});

/** Issue 41's entry, by its number in the landing order (after issue 36's 14). */
const SLICES_VERSION = 15;

describe(`SQLite migration ${SLICES_VERSION}: slices`, () => {
  it('is the entry that creates the slice tables', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(SLICES_VERSION);
    expect(MIGRATIONS[SLICES_VERSION - 1]).toContain('CREATE TABLE slice_days');
  });

  it('a database without them answers one-condition filters as before, then has them for the days a read found without', async () => {
    const file = join(dir, `v${SLICES_VERSION - 1}.db`);
    const before = createSqliteStore(file, { now: () => NOW, slices: false });
    await createSite(before, SITES[0]!);
    await importEvents(before, ndjson(ALPHA));
    const filter = parseQuery('stats', { site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03', filters: JSON.stringify([['is', 'page', ['/pricing']]]) });
    const expected = await REPORTS.stats(before, filter, { now: NOW });
    before.db.exec(`${UNDO_SLICES} PRAGMA user_version = ${SLICES_VERSION - 1}`);
    await before.close();
    const upgraded = createSqliteStore(file, { now: () => NOW, sliceMinSessions: 0 });
    expect(upgraded.db.prepare('SELECT COUNT(*) FROM slice_days').pluck().get()).toBe(0);
    // S1, S3 and S5 (testing/datasets.ts): the /pricing views, from the raw rows this time.
    expect(await REPORTS.stats(upgraded, filter, { now: NOW })).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 33.3, avg_duration: 70 });
    expect(expected).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 33.3, avg_duration: 70 });
    await upgraded.slicesComputed();
    expect(upgraded.db.prepare('SELECT day FROM slice_days ORDER BY day').pluck().all()).toEqual(['2026-11-02', '2026-11-03']);
    expect(await REPORTS.stats(upgraded, filter, { now: NOW })).toEqual(expected);
    expect(upgraded.sliceStats()).toEqual({ sliced: 2, rest: 2 });
    await upgraded.close();
  });
});

/** The funnels' slices of issue 41, by their number in the landing order (after its slices' 15). */
const SLICE_FUNNELS_VERSION = 16;

describe(`SQLite migration ${SLICE_FUNNELS_VERSION}: funnels in slices`, () => {
  it('is the entry that creates the slice_funnels table', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(SLICE_FUNNELS_VERSION);
    expect(MIGRATIONS[SLICE_FUNNELS_VERSION - 1]).toContain('CREATE TABLE slice_funnels');
  });

  it('a database whose days were computed before it answers a saved funnel as before, then from slices once its days are computed again', async () => {
    const file = join(dir, `v${SLICE_FUNNELS_VERSION - 1}.db`);
    const before = createSqliteStore(file, { now: () => NOW, sliceMinSessions: 0 });
    await createSite(before, SITES[0]!);
    await addFunnel(before, 'ST-alpha', { name: 'Home to docs', steps: [{ page: '/' }, { page: '/docs' }] });
    await importEvents(before, ndjson(ALPHA));
    // What a version-15 file holds: the days' slices without funnels, their states listing the goals alone (none here).
    before.db.exec(`DROP TABLE slice_funnels; UPDATE slice_days SET goals = '[]'; PRAGMA user_version = ${SLICE_FUNNELS_VERSION - 1}`);
    await before.close();
    const upgraded = createSqliteStore(file, { now: () => NOW, sliceMinSessions: 0 });
    expect(upgraded.db.prepare('SELECT COUNT(*) FROM slice_funnels').pluck().get()).toBe(0);
    const query = parseQuery('funnels', { site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03', funnel: 'Home to docs' });
    const steps = async () => ((await REPORTS.funnels(upgraded, query, { now: NOW })) as { steps: { visitors: number }[] }).steps.map((s) => s.visitors);
    // S1 and S2 (v1) and S4 (v3) reach /; S4 then /docs (testing/datasets.ts).
    expect(await steps()).toEqual([2, 1]);
    expect(upgraded.sliceStats()).toEqual({ sliced: 0, rest: 2 });
    await upgraded.slicesComputed();
    expect(await steps()).toEqual([2, 1]);
    expect(upgraded.sliceStats()).toEqual({ sliced: 2, rest: 2 });
    await upgraded.close();
  });
});
