import { afterEach, describe, expect, it } from 'vitest';
import { importEvents } from '../../import/import.js';
import { createSite } from '../../sites/sites.js';
import { ALPHA, ndjson } from '../../testing/datasets.js';
import type { StoredEvent } from '../types.js';
import { collectRows, createChunkReader, type DayRows } from './sqlite-chunk-reader.js';
import { runSteps } from './sqlite-columns.js';
import { createSqliteStore } from './sqlite-storage.js';

const open: ReturnType<typeof createSqliteStore>[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** Runs a read through, counting its pauses; the rows it handed over, and what it returned (the text read). */
function paused(readDay: ReturnType<typeof createChunkReader>, day: string, maxText?: number): { rows: DayRows; text: number | undefined; pauses: number } {
  const { sink, rows } = collectRows(day);
  const steps = readDay('ST-alpha', day, 'UTC', sink, maxText);
  let pauses = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) pauses++;
  return { rows, text: step.value, pauses };
}

describe('readDay', () => {
  /**
   * ALPHA's 11-02 (UTC): sessions S1, S2 (v1), S3 (v2), S4 (v3) in visitor order; 7 events, two of them at
   * 10:00:00 exactly (v1's and v2's first views), so a batch may end between two events of one timestamp;
   * S4 runs into 11-03, its 00:10 view is outside the day. 11-03: S5, S6 and S4 as a foreign session.
   */
  it('reads the same rows in batches of 1, 2 and 3 (by key, across equal timestamps) as in one, pausing between batches', async () => {
    const s = createSqliteStore(':memory:');
    open.push(s);
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(s, ndjson(ALPHA));
    const whole = createChunkReader(s.db);
    const day2 = paused(whole, '2026-11-02').rows;
    expect([day2.own.map((r) => r[1]), day2.events.length, day2.foreign.length, day2.outside.map((o) => o[2])]).toEqual([['v1', 'v1', 'v2', 'v3'], 7, 0, ['/docs']]);
    const day3 = paused(whole, '2026-11-03').rows;
    expect([day3.own.length, day3.events.length, day3.foreign.map((r) => r[1]), day3.outside.map((o) => o[2])]).toEqual([2, 4, ['2026-11-02'], ['/']]);
    for (const batch of [1, 2, 3]) {
      const readDay = createChunkReader(s.db, { maxRows: batch, sliceMs: Infinity });
      for (const [day, rows] of [['2026-11-02', day2], ['2026-11-03', day3]] as const) {
        const read = paused(readDay, day);
        expect(read.rows).toEqual(rows);
        // A pause after each full batch (one more query follows it), after each kind, after each batch of foreign ids.
        const full = (n: number) => Math.floor(n / batch);
        expect(read.pauses).toBe(full(rows.own.length) + full(rows.events.length) + 2 + Math.ceil(rows.foreign.length / batch) + full(rows.outside.length));
      }
    }
    // Rows of about one character of text per query: after the first query (3 rows), one row at a time.
    const small = paused(createChunkReader(s.db, { maxRows: 3, stepText: 1, sliceMs: Infinity }), '2026-11-02');
    expect(small.rows).toEqual(day2);
    expect(small.pauses).toBe(/* own 3 + 1 */ 2 + /* events 3 + 1 + 1 + 1 + 1 */ 5 + /* after each kind */ 2);
  });

  it('gives a day up once its rows pass maxText characters', async () => {
    const s = createSqliteStore(':memory:');
    open.push(s);
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await importEvents(s, ndjson(ALPHA));
    const readDay = createChunkReader(s.db, { maxRows: 2, sliceMs: Infinity });
    const whole = paused(readDay, '2026-11-02');
    expect(whole.text).toBeGreaterThan(500);
    expect(paused(readDay, '2026-11-02', whole.text)).toEqual(whole);
    expect(paused(readDay, '2026-11-02', whole.text! - 1).text).toBeUndefined();
    // Given up at the first batch: no further query is made, no row handed over.
    expect(paused(readDay, '2026-11-02', 10)).toEqual({ rows: { day: '2026-11-02', own: [], events: [], foreign: [], outside: [] }, text: undefined, pauses: 0 });
  });

  it('returns every string exactly as stored, through JSON (quotes, backslashes, U+0000, control characters, U+2028, emoji, non-Latin)', async () => {
    const s = createSqliteStore(':memory:');
    open.push(s);
    await createSite(s, { id: 'ST-odd', name: 'Odd', timezone: 'UTC', domain: null });
    const odd = ['/a"b', '/back\\slash', '/nul\u0000x', '/ctl\u0001\u001f', '/line\u2028sep', '/😀', '/straße/日本', ''];
    const ts = Date.parse('2026-11-02T10:00:00Z');
    const events: StoredEvent[] = odd.map((text, i) => ({
      siteId: 'ST-odd', ts: ts + i * 1000, day: '2026-11-02', type: i % 2 === 0 ? 'pageview' : 'event', name: i % 2 === 0 ? '' : text, path: i % 2 === 0 ? text : '/',
      visitorId: `v"${i}\u0000`, sessionId: `s\\${i}😀`, seq: i, entryPath: text, referrerSource: text, channel: 'Direct', utmSource: text,
      utmMedium: '', utmCampaign: '', countryCode: 'DE', deviceType: 'Desktop', browser: text, os: 'Linux',
      ...(i % 2 === 1 ? { props: [[`k${text}`, text], ['"', '\\']] as [string, string][] } : {}),
    }));
    await s.writeEvents(events);
    const { sink, rows } = collectRows('2026-11-02');
    runSteps(createChunkReader(s.db)('ST-odd', '2026-11-02', 'UTC', sink));
    // Own rows: id, visitor, start, end, bounce, then ATTRIBUTES: entry page 5, referrer 6, browser 10, utm_source 12.
    expect(rows.events.map((e) => [e[0], e[1], e[3]]).sort()).toEqual(events.map((e) => [e.sessionId, e.visitorId, e.type === 'pageview' ? e.path : e.name]).sort());
    expect(rows.own.map((r) => [r[0], r[1], r[5], r[6], r[12], r[10]]).sort()).toEqual(events.map((e) => [e.sessionId, e.visitorId, e.entryPath, e.referrerSource, e.utmSource, e.browser]).sort());
    // Custom events' properties, through json() inside the JSON array; none on pageviews.
    expect(rows.events.map((e) => [e[0], e[7]]).sort()).toEqual(events.map((e) => [e.sessionId, e.props ?? null]).sort());
  });
});
