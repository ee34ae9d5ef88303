import type { GoalDefinition } from '@siteline/core';
/**
 * Hand-checked cases of goal visitors counted per settled day (goal-visitors.ts; used only
 * by tests), run on one server, two shards and chdb.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range } from './adapter-cases.js';
import type { ClickHouseStorage } from '../clickhouse-storage.js';
import { DAYS_PER_QUERY } from '../schema/days.js';
import { countedRows, eventOf } from './count-cases.js';

const ev = eventOf('ST-g');

/**
 * ST-g, UTC, "now" 2026-03-10 12:00Z: 03-01 to 03-03 are settled once built.
 * s1 v1 03-01 10:00 /docs/a, 10:05 signup; s2 v2 03-01 11:00 /pricing; s3 v1 03-01 15:00 /docs/b;
 * s4 v1 03-02 09:00 /; s5 v3 03-02 12:00 /docs/x, 12:01 /pricing; s6 v4 03-02 23:50 /, 03-03 00:10 signup
 * (it starts on 03-02); s7 v2 03-03 08:00 /docs/ (`*` matches nothing too).
 */
const EVENTS = [
  ev('s1', 'v1', '2026-03-01T10:00:00Z', { path: '/docs/a' }), ev('s1', 'v1', '2026-03-01T10:05:00Z', { event: 'signup' }),
  ev('s2', 'v2', '2026-03-01T11:00:00Z', { path: '/pricing' }), ev('s3', 'v1', '2026-03-01T15:00:00Z', { path: '/docs/b' }),
  ev('s4', 'v1', '2026-03-02T09:00:00Z', { path: '/' }), ev('s5', 'v3', '2026-03-02T12:00:00Z', { path: '/docs/x' }),
  ev('s5', 'v3', '2026-03-02T12:01:00Z', { path: '/pricing' }), ev('s6', 'v4', '2026-03-02T23:50:00Z', { path: '/' }),
  ev('s6', 'v4', '2026-03-03T00:10:00Z', { event: 'signup' }), ev('s7', 'v2', '2026-03-03T08:00:00Z', { path: '/docs/' }),
];
const SIGNUP: GoalDefinition = { type: 'event', value: 'signup' };
const DOCS: GoalDefinition = { type: 'page', value: '/docs/*' };
const PRICING: GoalDefinition = { type: 'page', value: '/pricing' };
const HOME: GoalDefinition = { type: 'page', value: '/' };
const R = range('ST-g', '2026-03-01', '2026-03-03');

const DATABASE = 'goal_cases';
const NOW = Date.parse('2026-03-10T12:00:00Z');

/** The cases over a storage of database `goal_cases` whose clock is `now` (made by `open`). */
export function goalVisitorCases(open: (database: string, now: () => number) => ClickHouseStorage): void {
  describe('goal visitors of settled days', () => {
    let storage: ClickHouseStorage;
    /** The goal rows counted so far: [day, goal key, visitors], markers (0) included. */
    const { countedWith } = countedRows<{ d: string; value: string; visitors: string }>(() => storage,
      `SELECT toString(day) AS d, value, visitors FROM ${DATABASE}.visitor_rollups WHERE dimension = 'goal' ORDER BY d, value, visitors`,
      (r) => [r.d, r.value, Number(r.visitors)]);

    beforeAll(async () => {
      storage = open(DATABASE, () => NOW);
      await storage.migrate();
      await storage.insertSite({ id: 'ST-g', name: 'G', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      await storage.writeEvents(EVENTS, { hash: 'g1', events: EVENTS.length, importedAt: '2026-03-10T00:00:00Z' });
    });
    afterAll(async () => {
      await storage?.close();
    });

    it('are read raw first, counted per day in the background, and read from the counts after', async () => {
      // signup: s1 (03-01, v1), s6 (03-02, v4). /docs/*: v1 on 03-01 (s1, s3), v3 on 03-02, v2 on 03-03. /pricing: v2 on 03-01, v3 on 03-02.
      // Conversions: signups 2; /docs/a, /docs/b, /docs/x, /docs/ 4; /pricing 2.
      const expected = [{ visitors: 2, conversions: 2 }, { visitors: 3, conversions: 4 }, { visitors: 2, conversions: 2 }];
      expect(await storage.goalTotals!(R, [SIGNUP, DOCS, PRICING])).toEqual(expected);
      // Per day and goal: the count and a marker (0); 03-03 has no signup visitor (s6 started on 03-02) but is counted.
      expect(await countedWith(['2026-03-03', 'page:/pricing', 0]).then(() => countedWith(['2026-03-01', 'event:signup', 1]))).toEqual([
        ['2026-03-01', 'event:signup', 0], ['2026-03-01', 'event:signup', 1], ['2026-03-01', 'page:/docs/*', 0], ['2026-03-01', 'page:/docs/*', 1],
        ['2026-03-01', 'page:/pricing', 0], ['2026-03-01', 'page:/pricing', 1],
        ['2026-03-02', 'event:signup', 0], ['2026-03-02', 'event:signup', 1], ['2026-03-02', 'page:/docs/*', 0], ['2026-03-02', 'page:/docs/*', 1],
        ['2026-03-02', 'page:/pricing', 0], ['2026-03-02', 'page:/pricing', 1],
        ['2026-03-03', 'event:signup', 0], ['2026-03-03', 'page:/docs/*', 0], ['2026-03-03', 'page:/docs/*', 1], ['2026-03-03', 'page:/pricing', 0],
      ]);
      expect(await storage.goalTotals!(R, [SIGNUP, DOCS, PRICING])).toEqual(expected);
    });

    it('a goal added later is read raw on days counted without it, then counted too', async () => {
      // Visit /: s4 (v1) and s6 (v4), both starting on 03-02; two pageviews of /.
      expect(await storage.goalTotals!(R, [SIGNUP, HOME])).toEqual([{ visitors: 2, conversions: 2 }, { visitors: 2, conversions: 2 }]);
      const rows = await countedWith(['2026-03-02', 'page:/', 2]).then(() => countedWith(['2026-03-03', 'page:/', 0]));
      expect(rows.filter(([, key]) => key === 'page:/')).toEqual([['2026-03-01', 'page:/', 0], ['2026-03-02', 'page:/', 0], ['2026-03-02', 'page:/', 2], ['2026-03-03', 'page:/', 0]]);
      expect(await storage.goalTotals!(R, [HOME])).toEqual([{ visitors: 2, conversions: 2 }]);
    });

    it('a write to a counted day is read raw until the day is built and counted again', async () => {
      // The counts are what the read takes: a wrong count planted under 03-01's build shows (the largest row of a day wins).
      await storage.client.command({
        query: `INSERT INTO ${DATABASE}.visitor_rollups SELECT site_id, dimension, day, ver, value, 7 FROM ${DATABASE}.visitor_rollups
          WHERE dimension = 'goal' AND day = '2026-03-01' AND value = 'event:signup' AND visitors = 1`,
        clickhouse_settings: { insert_distributed_sync: 1 },
      });
      expect((await storage.goalTotals!(R, [SIGNUP]))[0]).toEqual({ visitors: 8, conversions: 2 });
      // v5 signs up on 03-01 in a session of its own: 03-01 is built anew, its old counts (the planted one too) no longer read.
      await storage.writeEvents([ev('s8', 'v5', '2026-03-01T18:00:00Z', { event: 'signup' })]);
      expect(await storage.goalTotals!(R, [SIGNUP, DOCS])).toEqual([{ visitors: 3, conversions: 3 }, { visitors: 3, conversions: 4 }]);
      expect(await countedWith(['2026-03-01', 'event:signup', 2])).toContainEqual(['2026-03-01', 'event:signup', 2]);
      expect(await storage.goalTotals!(R, [SIGNUP, DOCS])).toEqual([{ visitors: 3, conversions: 3 }, { visitors: 3, conversions: 4 }]);
    });

    it(`a range of more days than one query takes (${DAYS_PER_QUERY}) is read raw and counted in parts, with the same visitors`, async () => {
      // A signup on each of the 40 days 01-20 to 02-28 by a visitor of its own (sessions d0..d39); d5 (01-25) sees /docs/z first.
      const days = Array.from({ length: 40 }, (_, i) => new Date(Date.parse('2026-01-20T10:00:00Z') + i * 86_400_000).toISOString());
      // Imported (a record): the 40 days are built as the write ends, so the read finds 40 settled days without counts.
      const more = [ev('d5', 'vd5', '2026-01-25T09:59:00Z', { path: '/docs/z' }), ...days.map((at, i) => ev(`d${i}`, `vd${i}`, at, { event: 'signup' }))];
      await storage.writeEvents(more, { hash: 'g2', events: more.length, importedAt: '2026-03-10T00:00:00Z' });
      const long = range('ST-g', '2026-01-20', '2026-03-03');
      // Signup: the 40, v1 and v5 (03-01), v4 (03-02); conversions the 40, s1, s6, s8. /docs/*: vd5, v1, v3, v2; 5 pageviews.
      const expected = [{ visitors: 43, conversions: 43 }, { visitors: 4, conversions: 5 }];
      expect(await storage.goalTotals!(long, [SIGNUP, DOCS])).toEqual(expected);
      // 40 days to count: 01-20 to 02-19 in the first part, 02-20 to 02-28 in the second.
      const rows = await countedWith(['2026-02-28', 'page:/docs/*', 0]); // the second part's markers, written last
      expect(rows.filter(([day]) => ['2026-01-20', '2026-01-25', '2026-02-28'].includes(day as string))).toEqual([
        ['2026-01-20', 'event:signup', 0], ['2026-01-20', 'event:signup', 1], ['2026-01-20', 'page:/docs/*', 0],
        ['2026-01-25', 'event:signup', 0], ['2026-01-25', 'event:signup', 1], ['2026-01-25', 'page:/docs/*', 0], ['2026-01-25', 'page:/docs/*', 1],
        ['2026-02-28', 'event:signup', 0], ['2026-02-28', 'event:signup', 1], ['2026-02-28', 'page:/docs/*', 0],
      ]);
      // Every one of the 40 days counted with its signup visitor.
      expect(rows.filter(([day, key, n]) => (day as string) < '2026-03-01' && key === 'event:signup' && n === 1)).toHaveLength(40);
      expect(await storage.goalTotals!(long, [SIGNUP, DOCS])).toEqual(expected);
    });

    it('a later write to a session that started on a counted day counts that day again (the session is the start day\'s)', async () => {
      // /pricing: v2 (s2) on 03-01, v3 (s5) on 03-02; conversions s2, s5.
      expect(await storage.goalTotals!(R, [PRICING])).toEqual([{ visitors: 2, conversions: 2 }]);
      await countedWith(['2026-03-01', 'page:/pricing', 1]);
      // s6 (v4, started 03-02 23:50) views /pricing at 03-03 00:20, in a write of its own that touches only 03-03's events:
      // 03-02's count changes too (v3 and v4 there now), so that write makes 03-02 unsettled.
      await storage.writeEvents([ev('s6', 'v4', '2026-03-03T00:20:00Z', { path: '/pricing' })]);
      expect(await storage.goalTotals!(R, [PRICING])).toEqual([{ visitors: 3, conversions: 3 }]);
      await countedWith(['2026-03-02', 'page:/pricing', 2]);
      expect(await storage.goalTotals!(R, [PRICING])).toEqual([{ visitors: 3, conversions: 3 }]);
    });

    it('an import counts the site\'s saved goals on the days it settles, before any read of them', async () => {
      // ST-gi saves signup and Visit /pricing, then imports: i1 v1 03-01 signup; i2 v2 03-01 /pricing; i3 v3 03-02 signup, 03-02 /docs/.
      const evi = eventOf('ST-gi');
      await storage.insertSite({ id: 'ST-gi', name: 'GI', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      for (const goal of [SIGNUP, PRICING]) await storage.insertGoal!({ siteId: 'ST-gi', name: goal.type === 'event' ? goal.value : `Visit ${goal.value}`, ...goal, createdAt: '2026-01-01T00:00:00Z' });
      const imported = [
        evi('i1', 'v1', '2026-03-01T10:00:00Z', { event: 'signup' }), evi('i2', 'v2', '2026-03-01T11:00:00Z', { path: '/pricing' }),
        evi('i3', 'v3', '2026-03-02T09:00:00Z', { event: 'signup' }), evi('i3', 'v3', '2026-03-02T09:01:00Z', { path: '/docs/' }),
      ];
      await storage.writeEvents(imported, { hash: 'gi', events: imported.length, importedAt: '2026-03-10T00:00:00Z' });
      const { countedWith: importCounted } = countedRows<{ d: string; value: string; visitors: string }>(() => storage,
        `SELECT toString(day) AS d, value, visitors FROM ${DATABASE}.visitor_rollups WHERE dimension = 'goal' AND site_id = 'ST-gi' ORDER BY d, value, visitors`,
        (r) => [r.d, r.value, Number(r.visitors)]);
      // Nothing has read ST-gi: these rows are the import's. A count and a marker per day and saved goal (none for /docs/*).
      expect(await importCounted(['2026-03-01', 'event:signup', 1]).then(() => importCounted(['2026-03-02', 'page:/pricing', 0]))).toEqual([
        ['2026-03-01', 'event:signup', 0], ['2026-03-01', 'event:signup', 1], ['2026-03-01', 'page:/pricing', 0], ['2026-03-01', 'page:/pricing', 1],
        ['2026-03-02', 'event:signup', 0], ['2026-03-02', 'event:signup', 1], ['2026-03-02', 'page:/pricing', 0],
      ]);
      expect(await storage.goalTotals!(range('ST-gi', '2026-03-01', '2026-03-02'), [SIGNUP, PRICING])).toEqual([{ visitors: 2, conversions: 2 }, { visitors: 1, conversions: 1 }]);
    });
  });
}
