import type { PropEntry, PropertyTotals } from '@siteline/core';
/**
 * Hand-checked cases of property counts per settled day (rollups/property-counts.ts; used
 * only by tests), run on one server, two shards and chdb.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { range } from './adapter-cases.js';
import type { ClickHouseStorage } from '../clickhouse-storage.js';
import { DAYS_PER_QUERY } from '../schema/days.js';
import { countedRows, eventOf } from './count-cases.js';

const event = eventOf('ST-pc');
/** A custom event `name` with `props`, or a pageview of `/` when `name` is empty. */
const ev = (sessionId: string, visitorId: string, at: string, name: string, props: PropEntry[] = []) =>
  event(sessionId, visitorId, at, name === '' ? { path: '/' } : { event: name, props });

/**
 * ST-pc, UTC, "now" 2026-03-10 12:00Z: 03-01 to 03-03 are settled once built.
 * 03-01: p1 v1 cta_click {plan pro, place hero} 10:00 and {plan free} 10:05; p2 v2 cta_click {plan pro} 11:00, other {plan x} 11:01.
 * 03-02: p3 v1 cta_click {plan pro} 09:00; p4 v3 cta_click {place footer} 12:00. 03-03: p5 v4 a pageview only.
 * cta_click keys: plan 3 + 1 = 4 events, visitors 2 (v1, v2) + 1 (v1) = 3; place 1 + 1 events, visitors 1 + 1.
 * plan's values: pro 2 + 1 events, visitors 2 + 1; free 1 event, 1 visitor.
 */
const EVENTS = [
  ev('p1', 'v1', '2026-03-01T10:00:00Z', 'cta_click', [['plan', 'pro'], ['place', 'hero']]), ev('p1', 'v1', '2026-03-01T10:05:00Z', 'cta_click', [['plan', 'free']]),
  ev('p2', 'v2', '2026-03-01T11:00:00Z', 'cta_click', [['plan', 'pro']]), ev('p2', 'v2', '2026-03-01T11:01:00Z', 'other', [['plan', 'x']]),
  ev('p3', 'v1', '2026-03-02T09:00:00Z', 'cta_click', [['plan', 'pro']]), ev('p4', 'v3', '2026-03-02T12:00:00Z', 'cta_click', [['place', 'footer']]),
  ev('p5', 'v4', '2026-03-03T08:00:00Z', ''),
];
const R = range('ST-pc', '2026-03-01', '2026-03-03');
const byKey = (rows: PropertyTotals[]) => [...rows].sort((a, b) => (a.key < b.key ? -1 : 1));

const DATABASE = 'property_cases';
const NOW = Date.parse('2026-03-10T12:00:00Z');

/** The cases over a storage of database `property_cases` whose clock is `now` (made by `open`). */
export function propertyCountCases(open: (database: string, now: () => number) => ClickHouseStorage): void {
  describe('property counts of settled days', () => {
    let storage: ClickHouseStorage;
    /** The rows counted so far: [day, level, key, marker, value, events, visitors]. */
    const { counted, countedWith, countedWhen } = countedRows<Record<string, string | number>>(() => storage,
      `SELECT toString(day) AS d, level, key, marker, value, events, visitors FROM ${DATABASE}.property_counts ORDER BY d, level, key, marker, value, events`,
      (r) => [r.d, Number(r.level), r.key, Number(r.marker), r.value, Number(r.events), Number(r.visitors)]);
    const keys = async (r = R) => byKey(await storage.properties!(r, 'cta_click', undefined));

    beforeAll(async () => {
      storage = open(DATABASE, () => NOW);
      await storage.migrate();
      await storage.insertSite({ id: 'ST-pc', name: 'P', timezone: 'UTC', domain: null, accountId: null, createdAt: '2026-01-01T00:00:00Z' });
      await storage.writeEvents(EVENTS, { hash: 'p1', events: EVENTS.length, importedAt: '2026-03-10T00:00:00Z' });
    });
    afterAll(async () => {
      await storage?.close();
    });

    it('an event name\'s keys are read raw first, counted per day in the background, and read from the counts after', async () => {
      const expected = [{ key: 'place', count: 2, visitors: 2 }, { key: 'plan', count: 4, visitors: 3 }];
      expect(await keys()).toEqual(expected);
      // Per day: a row per key and a marker; 03-03 has no cta_click but is counted.
      expect(await countedWith(['2026-03-03', 0, '', 1, '', 0, 0])).toEqual([
        ['2026-03-01', 0, '', 1, '', 0, 0], ['2026-03-01', 0, 'place', 0, '', 1, 1], ['2026-03-01', 0, 'plan', 0, '', 3, 2],
        ['2026-03-02', 0, '', 1, '', 0, 0], ['2026-03-02', 0, 'place', 0, '', 1, 1], ['2026-03-02', 0, 'plan', 0, '', 1, 1],
        ['2026-03-03', 0, '', 1, '', 0, 0],
      ]);
      expect(await keys()).toEqual(expected);
      // Under a filter the properties are read raw: country GB is every session.
      const gb = { session: [{ attribute: 'countryCode' as const, operator: 'is' as const, values: ['GB'] }], page: [], event: [], prop: [], goal: [] };
      expect(byKey(await storage.properties!(R, 'cta_click', undefined, gb))).toEqual(expected);
    });

    it('a key\'s values are counted on their own, beside the keys', async () => {
      const expected = [{ key: 'free', count: 1, visitors: 1 }, { key: 'pro', count: 3, visitors: 3 }];
      expect(byKey(await storage.properties!(R, 'cta_click', 'plan'))).toEqual(expected);
      const rows = await countedWith(['2026-03-03', 1, 'plan', 1, '', 0, 0]);
      expect(rows.filter((r) => r[1] === 1)).toEqual([
        ['2026-03-01', 1, 'plan', 0, 'free', 1, 1], ['2026-03-01', 1, 'plan', 0, 'pro', 2, 2], ['2026-03-01', 1, 'plan', 1, '', 0, 0],
        ['2026-03-02', 1, 'plan', 0, 'pro', 1, 1], ['2026-03-02', 1, 'plan', 1, '', 0, 0],
        ['2026-03-03', 1, 'plan', 1, '', 0, 0],
      ]);
      expect(byKey(await storage.properties!(R, 'cta_click', 'plan'))).toEqual(expected);
      // Another name's counts are its own: `other` is read raw and counted apart.
      expect(await storage.properties!(R, 'other', undefined)).toEqual([{ key: 'plan', count: 1, visitors: 1 }]);
      await countedWith(['2026-03-01', 0, 'plan', 0, '', 1, 1]); // other's (cta_click's plan on 03-01 is 3, 2)
    });

    it('a name or a key the range does not have is read raw and never counted', async () => {
      const before = await counted();
      expect(await storage.properties!(R, 'nobody_sends_this', undefined)).toEqual([]);
      expect(await storage.properties!(R, 'cta_click', 'no_such_key')).toEqual([]);
      // A name that is counted, read after them: its count runs after theirs would have (one statement at a time).
      expect(await storage.properties!(R, 'other', 'plan')).toEqual([{ key: 'x', count: 1, visitors: 1 }]);
      // Its value x on 03-01 and its three markers: nothing for the name and the key the range lacks (three markers each).
      expect((await countedWhen((rows) => rows.length - before.length >= 4)).length - before.length).toBe(4);
    });

    it('the counts are what the read takes, and a write to a counted day reads it raw until it is counted again', async () => {
      // A wrong count planted under 03-01's build shows (the largest row of a day and key wins).
      await storage.client.command({
        query: `INSERT INTO ${DATABASE}.property_counts SELECT site_id, day, ver, name, level, key, marker, value, 9, visitors FROM ${DATABASE}.property_counts
          WHERE name = 'cta_click' AND level = 0 AND key = 'plan' AND marker = 0 AND day = '2026-03-01'`,
        clickhouse_settings: { insert_distributed_sync: 1 },
      });
      expect((await keys())[1]).toEqual({ key: 'plan', count: 10, visitors: 3 });
      // v5 clicks on 03-02: 03-02 is read raw (then built and counted again), 03-01 still from its (planted) count.
      await storage.writeEvents([ev('p6', 'v5', '2026-03-02T15:00:00Z', 'cta_click', [['plan', 'pro']])]);
      expect((await keys())[1]).toEqual({ key: 'plan', count: 11, visitors: 4 });
      await countedWith(['2026-03-02', 0, 'plan', 0, '', 2, 2]);
      expect((await keys())[1]).toEqual({ key: 'plan', count: 11, visitors: 4 });
    });

    it(`a range of more days than one query takes (${DAYS_PER_QUERY}) is read raw and counted in parts, with the same counts`, async () => {
      // A click {plan pro} on each of the 40 days 01-20 to 02-28 by a visitor of its own, imported (the days are built as the write ends).
      const more = Array.from({ length: 40 }, (_, i) =>
        ev(`d${i}`, `vd${i}`, new Date(Date.parse('2026-01-20T10:00:00Z') + i * 86_400_000).toISOString(), 'cta_click', [['plan', 'pro']]));
      await storage.writeEvents(more, { hash: 'p2', events: more.length, importedAt: '2026-03-10T00:00:00Z' });
      const long = range('ST-pc', '2026-01-20', '2026-03-03');
      expect((await keys(long))[1]).toEqual({ key: 'plan', count: 51, visitors: 44 });
      const rows = await countedWith(['2026-01-20', 0, 'plan', 0, '', 1, 1]).then(() => countedWith(['2026-02-28', 0, 'plan', 0, '', 1, 1]));
      expect(rows.filter(([day, level, key]) => (day as string) < '2026-03-01' && level === 0 && key === 'plan')).toHaveLength(40);
      expect((await keys(long))[1]).toEqual({ key: 'plan', count: 51, visitors: 44 });
    });
  });
}
