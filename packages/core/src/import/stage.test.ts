import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { demoNdjson } from '../demo/index.js';
import { DuplicateImportError, ImportError } from '../errors.js';
import { parseQuery } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { createSite } from '../sites/sites.js';
import { createSqliteStore } from '../storage/sqlite/sqlite-storage.js';
import type { Storage } from '../storage/types.js';
import { importEvents } from './import.js';

type Store = ReturnType<typeof createSqliteStore>;
const NOW = Date.parse('2026-11-05T15:00:00Z');
const SITES = [
  { id: 'ST-berlin', name: 'Berlin', timezone: 'Europe/Berlin', domain: 'berlin.example' },
  { id: 'ST-ny', name: 'New York', timezone: 'America/New_York', domain: 'ny.example' },
];

/**
 * Both sites' generated traffic (custom events with properties among it), lines out of time order,
 * and sessions the lines name: one paused for two hours (so a staged import forgets it and finds its
 * first event again), one whose first line comes last in the file.
 */
function lines(): string[] {
  const traffic = SITES.flatMap((site, i) => [...demoNdjson({ siteId: site.id, days: 4, pageviewsPerDay: 60, seed: 5 + i, end: NOW, timezone: site.timezone, domain: site.domain })]);
  const named = (ts: string, url: string, session: string, extra: object = {}) =>
    JSON.stringify({ site_id: 'ST-berlin', ts, type: 'pageview', url, visitor_id: 'named', session_id: session, ...extra });
  return [
    named('2026-11-03T08:00:00Z', '/paused', 'pause', { referrer: 'https://www.google.com/' }),
    ...traffic.filter((_, i) => i % 3 !== 1),
    named('2026-11-03T10:00:00Z', '/back', 'pause'),
    named('2026-11-03T12:05:00Z', '/late', 'late-first'),
    ...traffic.filter((_, i) => i % 3 === 1).reverse(),
    named('2026-11-03T12:00:00Z', '/first', 'late-first', { utm_source: 'news' }),
  ];
}

const open: Store[] = [];
async function store(): Promise<Store> {
  const s = createSqliteStore(':memory:', { now: () => NOW });
  open.push(s);
  for (const site of SITES) await createSite(s, site);
  return s;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** The stored rows, without what depends on when or in which order they were written (ids, seq). */
function rows(s: Store) {
  return {
    events: s.db.prepare('SELECT site_id, ts, day, type, name, path, visitor_id, session_id, gap_ms, props FROM events ORDER BY 1, 2, 8, 6').raw().all(),
    sessions: s.db.prepare(`SELECT site_id, session_id, visitor_id, day, start_ts, end_ts, pageviews, custom_events, entry_path, referrer_source, channel,
      utm_source, utm_medium, utm_campaign, country_code, device_type, browser, os FROM sessions ORDER BY 1, 2`).raw().all(),
    rollups: ['rollup_days', 'rollup_sessions', 'rollup_pages', 'rollup_events', 'live_days', 'dirty_days'].map((t) => s.db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2${t.endsWith('_days') ? '' : ', 3, 4'}`).raw().all()),
  };
}

async function answers(storage: Storage, siteId: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const endpoint of ['stats', 'timeseries', 'pages', 'referrers', 'campaigns', 'devices', 'events'] as const) {
    out.push(await REPORTS[endpoint](storage, parseQuery(endpoint, { site_id: siteId, period: '7d' }), { now: NOW }));
  }
  out.push(await REPORTS.stats(storage, parseQuery('stats', { site_id: siteId, period: '7d', filters: '[["is","country",["DE","US"]]]' }), { now: NOW }));
  return out;
}

const stageDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('siteline-import-')).sort();

describe('a staged import (past stageAfterEvents)', () => {
  it('stores exactly what the same lines imported at once store, in batches that split sessions, and deletes its file', async () => {
    const all = lines();
    const once = await store();
    const expected = await importEvents(once, all, { salt: () => 'fixed' });
    expect(expected).toMatchObject({ events: all.length, sites: ['ST-berlin', 'ST-ny'] });
    const before = stageDirs();
    for (const stageAfterEvents of [1, 7, 100]) {
      const staged = await store();
      expect(await importEvents(staged, all, { salt: () => 'fixed', stageAfterEvents })).toEqual(expected);
      expect(rows(staged)).toEqual(rows(once));
      for (const site of SITES) expect(await answers(staged, site.id)).toEqual(await answers(once, site.id));
    }
    expect(stageDirs()).toEqual(before);
    // The paused session kept its first event's referrer; the session whose first line came last, that line's page and campaign.
    expect(once.db.prepare("SELECT session_id, entry_path, referrer_source, utm_source, pageviews FROM sessions WHERE visitor_id = 'named' ORDER BY 1").raw().all())
      .toEqual([['late-first', '/first', 'Direct / None', 'news', 2], ['pause', '/paused', 'google.com', '', 2]]);
  });

  it('is all or nothing: a bad line stores nothing, the same lines again are refused, and a store without writeImport gets the same rows', async () => {
    const all = lines();
    const s = await store();
    const bad = [...all.slice(0, 50), '{"site_id": "ST-berlin"}', ...all.slice(50)];
    await expect(importEvents(s, bad, { stageAfterEvents: 10 })).rejects.toBeInstanceOf(ImportError);
    expect(s.db.prepare('SELECT COUNT(*) FROM events').pluck().get()).toBe(0);
    await importEvents(s, all, { salt: () => 'fixed', stageAfterEvents: 10 });
    await expect(importEvents(s, all, { stageAfterEvents: 10 })).rejects.toBeInstanceOf(DuplicateImportError);
    expect(s.db.prepare('SELECT COUNT(*) FROM events').pluck().get()).toBe(all.length);
    // A store without writeImport: the batches are collected into one writeEvents call.
    const plain = await store();
    const { writeImport: _, ...withoutBatches } = plain;
    await importEvents(withoutBatches as Storage, all, { salt: () => 'fixed', stageAfterEvents: 10 });
    expect(rows(plain)).toEqual(rows(s));
  });
});
