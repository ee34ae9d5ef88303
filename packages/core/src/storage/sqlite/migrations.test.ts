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
  }
  return out;
}

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
    // New writes continue the event ids.
    await importEvents(upgraded, ndjson([{ site_id: 'ST-alpha', ts: '2026-11-05T14:00:00Z', type: 'pageview', url: '/after', visitor_id: 'z' }]));
    const ids = upgraded.db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS distinct_ids FROM events').get();
    expect(ids).toEqual({ n: expect.any(Number), distinct_ids: (ids as { n: number }).n });
    await upgraded.close();
  });
});
