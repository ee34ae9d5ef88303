/**
 * A planned write cut short at every point and applied again (used only by tests: one server,
 * chdb). The crash is made by an io that refuses the inserts of the tables a crash at that
 * point would have left out; the plan is then applied with `resume`, twice, and everything
 * must be stored once: the raw rows counted, the reports equal to the SQLite store's given the
 * same events, and the figures worked out by hand below.
 */
import { createSite, createSqliteStorage, parseQuery, REPORTS, type Storage, type StoredEvent } from '@siteline/core';
import { expect, it } from 'vitest';
import type { ClickHouseStorage } from '../clickhouse-storage.js';
import { createRepeatableWrites } from '../write/repeatable.js';
import { createWriter, type WriterIO } from '../write/writer.js';
import type { SchemaTarget } from '../schema/schema.js';

type Table = 'events' | 'sessions' | 'pageview_gaps' | 'stale_sessions' | 'day_marks';
const TABLES: Table[] = ['events', 'sessions', 'pageview_gaps', 'stale_sessions', 'day_marks'];

/** The tables whose insert had landed when the write was cut short, at each point worth a case. */
export const CRASH_POINTS: [string, Table[]][] = [
  ['before any insert', []],
  ['after the events only', ['events']],
  ['after events and sessions, before time on page', ['events', 'sessions']],
  ['after events and time on page, before sessions', ['events', 'pageview_gaps']],
  ['after everything but the events', ['sessions', 'pageview_gaps', 'stale_sessions']],
  ['after every row, before the day marks', ['events', 'sessions', 'pageview_gaps', 'stale_sessions']],
  ['after the whole write, before the spool knew', TABLES],
];

let seq = 5_000;
const at = (time: string) => Date.parse(`2026-11-02T${time}Z`);
function event(siteId: string, session: string, time: string, path: string, more: Partial<StoredEvent> = {}): StoredEvent {
  const entry: Record<string, string> = { A: '/a', B: '/x', C: '/z' };
  return {
    siteId, sessionId: session, visitorId: `v-${session}`, ts: at(time), day: '2026-11-02', type: 'pageview', name: '', path, seq: ++seq,
    entryPath: entry[session]!, referrerSource: '', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
    countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux', ...more,
  };
}

/**
 * Two writes. The first: A 10:00 `/a`, 10:02 `/b`; B 11:00 `/x`, 11:10 `/y`. The second (the
 * one cut short): A 10:05 `/c` and 10:06 `signup` (after its end: `/b` gets 180 s), B 11:05
 * `click` (inside its span: `/x` goes from 600 s to 300 s), C 12:00 `/z`, 12:01 `/a` (new).
 * So: 7 pageviews, 3 sessions (none a bounce), durations 360 + 600 + 60 s (average 340);
 * time on page `/a` 120 s (A; C's is its last), `/b` 180, `/c` 60, `/x` 300, `/z` 60.
 */
function writes(siteId: string): [StoredEvent[], StoredEvent[]] {
  return [
    [event(siteId, 'A', '10:00:00', '/a'), event(siteId, 'A', '10:02:00', '/b'), event(siteId, 'B', '11:00:00', '/x'), event(siteId, 'B', '11:10:00', '/y')],
    [
      event(siteId, 'A', '10:05:00', '/c'), event(siteId, 'A', '10:06:00', '/c', { type: 'event', name: 'signup' }),
      event(siteId, 'B', '11:05:00', '/x', { type: 'event', name: 'click' }),
      event(siteId, 'C', '12:00:00', '/z'), event(siteId, 'C', '12:01:00', '/a'),
    ],
  ];
}

/** `io` with the inserts of every table but `landed` refused, as if the process had died before them; each settles before the apply reports. */
function cutShort(io: WriterIO, landed: readonly Table[]): WriterIO {
  const refuse = (table: string) => {
    if (!landed.includes(table as Table)) throw new Error(`crash before the insert into ${table}`);
  };
  return {
    rows: (query, settings) => io.rows(query, settings),
    async insert(table, values) {
      refuse(table);
      await io.insert(table, values);
    },
    async insertLines(table, columns, body) {
      refuse(table);
      await io.insertLines(table, columns, body);
    },
  };
}

const day = { from: '2026-11-02', to: '2026-11-02' };
const ask = (store: Storage, endpoint: 'stats' | 'pages' | 'events', siteId: string) => REPORTS[endpoint](store, parseQuery(endpoint, { site_id: siteId, ...day }));

/**
 * Registers the cases. `open()` gives the migrated store of the file, the io its own writes go
 * through, and its schema target.
 */
export function repeatableWriteCases(open: () => { storage: ClickHouseStorage; io: WriterIO; target: SchemaTarget }): void {
  it.each(CRASH_POINTS)('a planned write cut short %s, applied again twice with resume: every row stored once', async (_point, landed) => {
    const { storage, io, target } = open();
    const siteId = `ST-cut${CRASH_POINTS.findIndex(([, l]) => l === landed)}`;
    await createSite(storage, { id: siteId, name: 'Cut short', timezone: 'UTC' });
    const [first, second] = writes(siteId);
    await storage.writeEvents(first);

    const plan = await storage.planWrite!(second);
    const cut = createRepeatableWrites(cutShort(io, landed), target, createWriter(io, target).changes);
    if (landed.length < TABLES.length) await expect(cut.apply(plan, { resume: false })).rejects.toThrow(/crash before the insert/);
    else await cut.apply(plan, { resume: false });
    await storage.applyWrite!(plan, { resume: true });
    await storage.applyWrite!(plan, { resume: true }); // a crash after the resume, before the spool knew: once more

    const count = async (sql: string) => Number((await io.rows<{ n: string }>(sql.replace('$site', `'${siteId}'`)))[0]!.n);
    const db = target.database;
    expect({
      events: await count(`SELECT count() AS n FROM ${db}.events WHERE site_id = $site`),
      sessions: await count(`SELECT sum(sign) AS n FROM ${db}.sessions WHERE site_id = $site`),
      timed: await count(`SELECT sum(timed) AS n FROM ${db}.pageview_gaps WHERE site_id = $site`),
      onPage: await count(`SELECT sum(gap_ms) AS n FROM ${db}.pageview_gaps WHERE site_id = $site`),
    }).toEqual({ events: 9, sessions: 3, timed: 5, onPage: (120 + 180 + 60 + 300 + 60) * 1000 });

    const sqlite = createSqliteStorage(':memory:');
    await createSite(sqlite, { id: siteId, name: 'Cut short', timezone: 'UTC' });
    for (const batch of writes(siteId)) await sqlite.writeEvents(batch);
    for (const endpoint of ['stats', 'pages', 'events'] as const) expect(await ask(storage, endpoint, siteId)).toEqual(await ask(sqlite, endpoint, siteId));
    await sqlite.close();
    expect(await ask(storage, 'stats', siteId)).toEqual({ visitors: 3, pageviews: 7, sessions: 3, bounce_rate: 0, avg_duration: 340 });
  });

  it('refuses a plan made by another store', async () => {
    const { storage } = open();
    await expect(storage.applyWrite!({ format: 'sqlite-write/1' }, { resume: true })).rejects.toThrow('Not a plan of this store: sqlite-write/1');
  });
}
