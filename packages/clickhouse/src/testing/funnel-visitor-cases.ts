import type { GoalDefinition } from '@siteline/core';
/**
 * Hand-checked cases of saved funnels' step visitors counted per settled day
 * (rollups/funnel-visitors.ts; used only by tests), run on one server, two shards and chdb.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range } from './adapter-cases.js';
import type { ClickHouseStorage } from '../clickhouse-storage.js';
import { stepValue } from '../rollups/funnel-visitors.js';
import { DAYS_PER_QUERY } from '../schema/days.js';
import { countedRows, eventOf } from './count-cases.js';

const ev = eventOf('ST-fc');

/**
 * ST-fc, UTC, "now" 2026-03-10 12:00Z: 03-01 to 03-03 are settled once built. The saved funnel: / then /pricing then signup.
 * f1 v1 03-01 10:00 /, 10:01 /pricing, 10:02 signup (3 steps); f2 v2 03-01 11:00 / (1); f3 v1 03-01 12:00 / (v1 again);
 * f4 v3 03-02 09:00 /pricing, 09:01 / (1: /pricing came before /); f5 v4 03-02 23:50 /, 03-03 00:05 /pricing (2, on its
 * start day 03-02); f6 v2 03-03 08:00 signup (0).
 * Per day, steps 1/2/3: 03-01 2/1/1 (v1, v2 / v1 / v1); 03-02 2/1/0 (v3, v4 / v4); 03-03 0/0/0.
 */
const EVENTS = [
  ev('f1', 'v1', '2026-03-01T10:00:00Z', { path: '/' }), ev('f1', 'v1', '2026-03-01T10:01:00Z', { path: '/pricing' }),
  ev('f1', 'v1', '2026-03-01T10:02:00Z', { event: 'signup' }), ev('f2', 'v2', '2026-03-01T11:00:00Z', { path: '/' }),
  ev('f3', 'v1', '2026-03-01T12:00:00Z', { path: '/' }), ev('f4', 'v3', '2026-03-02T09:00:00Z', { path: '/pricing' }),
  ev('f4', 'v3', '2026-03-02T09:01:00Z', { path: '/' }), ev('f5', 'v4', '2026-03-02T23:50:00Z', { path: '/' }),
  ev('f5', 'v4', '2026-03-03T00:05:00Z', { path: '/pricing' }), ev('f6', 'v2', '2026-03-03T08:00:00Z', { event: 'signup' }),
];
const STEPS: GoalDefinition[] = [{ type: 'page', value: '/' }, { type: 'page', value: '/pricing' }, { type: 'event', value: 'signup' }];
const [S1, S2, S3] = STEPS.map((_, i) => stepValue(STEPS, i)) as [string, string, string];
const R = range('ST-fc', '2026-03-01', '2026-03-03');

const DATABASE = 'funnel_cases';
const NOW = Date.parse('2026-03-10T12:00:00Z');

/** The cases over a storage of database `funnel_cases` whose clock is `now` (made by `open`). */
export function funnelVisitorCases(open: (database: string, now: () => number) => ClickHouseStorage): void {
  describe('saved funnels counted per settled day', () => {
    let storage: ClickHouseStorage;
    /** The funnel rows counted so far: [day, value, visitors], markers (0) included. */
    const { counted, countedWith } = countedRows<{ d: string; value: string; visitors: string }>(() => storage,
      `SELECT toString(day) AS d, value, visitors FROM ${DATABASE}.visitor_rollups WHERE dimension = 'funnel' ORDER BY d, value, visitors`,
      (r) => [r.d, r.value, Number(r.visitors)]);

    beforeAll(async () => {
      storage = open(DATABASE, () => NOW);
      await storage.migrate();
      await storage.insertSite({ id: 'ST-fc', name: 'F', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      await storage.insertFunnel!({ siteId: 'ST-fc', name: 'Signup', steps: [{ page: '/' }, { page: '/pricing' }, { event: 'signup' }], createdAt: '2026-01-01T00:00:00Z' });
      await storage.writeEvents(EVENTS, { hash: 'f1', events: EVENTS.length, importedAt: '2026-03-10T00:00:00Z' });
    });
    afterAll(async () => {
      await storage?.close();
    });

    it('the import counts the saved funnel per day it settles, before any read; steps asked ad hoc are read raw and never counted', async () => {
      // Per day and step, before any read (the import's counts): the count (a row for each step of a day where someone
      // reached step 1) and a marker (0).
      const imported = [
        ['2026-03-01', S1, 0], ['2026-03-01', S1, 2], ['2026-03-01', S2, 0], ['2026-03-01', S2, 1], ['2026-03-01', S3, 0], ['2026-03-01', S3, 1],
        ['2026-03-02', S1, 0], ['2026-03-02', S1, 2], ['2026-03-02', S2, 0], ['2026-03-02', S2, 1], ['2026-03-02', S3, 0], ['2026-03-02', S3, 0],
        ['2026-03-03', S1, 0], ['2026-03-03', S2, 0], ['2026-03-03', S3, 0],
      ];
      expect(await countedWith(['2026-03-03', S3, 0]).then(() => countedWith(['2026-03-02', S1, 2]))).toEqual(imported);
      // / then signup: v1 and v2 on 03-01, v3 and v4 on 03-02 see /; only f1 (v1) signs up after it.
      expect(await storage.funnelVisitors!(R, [STEPS[0]!, STEPS[2]!])).toEqual([4, 1]);
      expect(await storage.funnelVisitors!(R, STEPS)).toEqual([4, 2, 1]);
      expect(await counted()).toEqual(imported);
      // Under a filter the funnel is read raw: country GB is every session.
      expect(await storage.funnelVisitors!(R, STEPS, { session: [{ attribute: 'countryCode', operator: 'is', values: ['GB'] }], page: [], event: [], prop: [], goal: [] })).toEqual([4, 2, 1]);
    });

    it(`a range of more days than one query takes (${DAYS_PER_QUERY}) is counted in parts, by the import and by a read, with the same visitors`, async () => {
      // On each of the 40 days 01-20 to 02-28 a visitor of its own takes all three steps (sessions d0..d39).
      const days = Array.from({ length: 40 }, (_, i) => Date.parse('2026-01-20T10:00:00Z') + i * 86_400_000);
      const more = days.flatMap((t, i) => [
        ev(`d${i}`, `vd${i}`, new Date(t).toISOString(), { path: '/' }), ev(`d${i}`, `vd${i}`, new Date(t + 60_000).toISOString(), { path: '/pricing' }),
        ev(`d${i}`, `vd${i}`, new Date(t + 120_000).toISOString(), { event: 'signup' }),
      ]);
      // Imported (a record): the 40 days are built as the write ends and the saved funnel counted on them, in two parts:
      // 01-20 to 02-19, then 02-20 to 02-28.
      await storage.writeEvents(more, { hash: 'f2', events: more.length, importedAt: '2026-03-10T00:00:00Z' });
      const rows = await countedWith(['2026-02-28', S3, 0]); // the second part's markers, written last
      expect(rows.filter(([day, value, n]) => (day as string) < '2026-03-01' && value === S3 && n === 1)).toHaveLength(40);
      expect(rows.filter(([day]) => (day as string) < '2026-03-01')).toHaveLength(40 * 6);
      const long = range('ST-fc', '2026-01-20', '2026-03-03');
      expect(await storage.funnelVisitors!(long, STEPS)).toEqual([44, 42, 41]);
      // A funnel saved after the import (/pricing then signup) has no counts: the read takes the 43 days raw, in parts, and
      // counts them. /pricing: the 40, v1 (f1) on 03-01, v3 (f4) and v4 (f5) on 03-02; signup after it: the 40 and f1.
      const later: GoalDefinition[] = [STEPS[1]!, STEPS[2]!];
      const L2 = stepValue(later, 1);
      await storage.insertFunnel!({ siteId: 'ST-fc', name: 'Pricing', steps: [{ page: '/pricing' }, { event: 'signup' }], createdAt: '2026-03-10T00:00:00Z' });
      expect((await counted()).filter(([, value]) => value === L2)).toEqual([]);
      expect(await storage.funnelVisitors!(long, later)).toEqual([43, 41]);
      const laterRows = (await countedWith(['2026-02-28', L2, 0])).filter(([, value]) => value === L2);
      expect(laterRows.filter(([day, , n]) => (day as string) < '2026-03-01' && n === 1)).toHaveLength(40);
      expect(await storage.funnelVisitors!(long, later)).toEqual([43, 41]);
    });

    it('the counts are what the read takes, and a later write to a session of a counted day reads that day raw until it is counted again', async () => {
      // A wrong count planted under 03-01's build shows (the largest row of a day wins).
      await storage.client.command({
        query: `INSERT INTO ${DATABASE}.visitor_rollups SELECT site_id, dimension, day, ver, value, 9 FROM ${DATABASE}.visitor_rollups
          WHERE dimension = 'funnel' AND day = '2026-03-01' AND value = '${S1}' AND visitors = 2`,
        clickhouse_settings: { insert_distributed_sync: 1 },
      });
      expect(await storage.funnelVisitors!(R, STEPS)).toEqual([11, 2, 1]);
      // f5 (v4, started 03-02) signs up at 03-03 00:30, in a write touching only 03-03's events: 03-02 now has 2/1/1.
      // 03-02 is read raw (and built and counted again); 03-01 still from its (planted) count.
      await storage.writeEvents([ev('f5', 'v4', '2026-03-03T00:30:00Z', { event: 'signup' })]);
      expect(await storage.funnelVisitors!(R, STEPS)).toEqual([11, 2, 2]);
      await countedWith(['2026-03-02', S3, 1]);
      expect(await storage.funnelVisitors!(R, STEPS)).toEqual([11, 2, 2]);
    });
  });
}
