import { compileSelection, type FilterCondition, type GoalDefinition } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { range } from '../testing/adapter-cases.js';
import { createOneValueReads, oneKey, type SelectedReads } from './one-value.js';
import { createBackgroundCounts } from './day-counts.js';

const of = (...filters: FilterCondition[]) => oneKey(compileSelection(filters)!);

describe('oneKey: the selections the rollups answer per value or page', () => {
  it('takes one `is` condition with one value on country, device, browser, OS, channel or source', () => {
    expect(of(['is', 'country', ['DE']])).toEqual({ dimension: 'countryCode', value: 'DE' });
    expect(of(['is', 'device_type', ['Mobile']])).toEqual({ dimension: 'deviceType', value: 'Mobile' });
    expect(of(['is', 'browser', ['Firefox']])).toEqual({ dimension: 'browser', value: 'Firefox' });
    expect(of(['is', 'os', ['iOS']])).toEqual({ dimension: 'os', value: 'iOS' });
    expect(of(['is', 'channel', ['Direct']])).toEqual({ dimension: 'channel', value: 'Direct' });
    expect(of(['is', 'source', ['Google']])).toEqual({ dimension: 'referrerSource', value: 'Google' });
    expect(of(['is', 'country', ['']])).toEqual({ dimension: 'countryCode', value: '' });
  });

  it('takes one `is` condition with one path on the page, or one name on the event', () => {
    expect(of(['is', 'page', ['/pricing']])).toEqual({ dimension: 'page', value: '/pricing' });
    expect(of(['is', 'page', ['/']])).toEqual({ dimension: 'page', value: '/' });
    expect(of(['is', 'event', ['signup']])).toEqual({ dimension: 'event', value: 'signup' });
  });

  it('takes a goal condition converting on one event goal as its event name', () => {
    const goal = (name: string, type: 'event' | 'page', value: string) => ({ siteId: 'S', name, type, value, createdAt: '2026-01-01T00:00:00Z' });
    const goals = [goal('Sign up', 'event', 'signup'), goal('Visit /pricing', 'page', '/pricing'), goal('Visit /blog/*', 'page', '/blog/*')];
    const on = (filter: FilterCondition) => oneKey(compileSelection([filter], goals)!);
    expect(on(['is', 'goal', ['Sign up']])).toEqual({ dimension: 'event', value: 'signup' });
    expect(on(['is_not', 'goal', ['Sign up']])).toBeUndefined(); // sessions without the event: no key holds them
    expect(on(['is', 'goal', ['Sign up', 'Visit /pricing']])).toBeUndefined();
    // A page goal's sessions are the page's, but it selects all their pageviews, not the path's alone.
    expect(on(['is', 'goal', ['Visit /pricing']])).toBeUndefined();
    expect(on(['is', 'goal', ['Visit /blog/*']])).toBeUndefined();
  });

  it('leaves every other selection to the filtered reads', () => {
    expect(of(['is', 'country', ['DE', 'GB']])).toBeUndefined(); // a visitor may have sessions of both on one day
    expect(of(['is_not', 'country', ['DE']])).toBeUndefined();
    expect(of(['contains', 'country', ['D']])).toBeUndefined();
    expect(of(['is', 'entry_page', ['/']])).toBeUndefined(); // no visitor counts per entry page
    expect(of(['is', 'utm_source', ['news']])).toBeUndefined(); // kept as one triple
    expect(of(['is', 'country', ['DE']], ['is', 'browser', ['Firefox']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'page', ['/']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'event', ['signup']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'prop:plan', ['pro']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'goal', ['signup']])).toBeUndefined();
    expect(of(['is', 'page', ['/a', '/b']])).toBeUndefined();
    expect(of(['contains', 'page', ['/blog']])).toBeUndefined();
    expect(of(['is_not', 'page', ['/']])).toBeUndefined();
    expect(of(['is', 'page', ['/a']], ['is', 'page', ['/b']])).toBeUndefined();
    expect(of(['is', 'page', ['/']], ['is', 'event', ['signup']])).toBeUndefined();
    expect(of(['is', 'event', ['signup', 'download']])).toBeUndefined();
    expect(of(['contains', 'event', ['sign']])).toBeUndefined();
    expect(of(['is', 'prop:plan', ['pro']])).toBeUndefined();
  });
});

describe('one-value reads', () => {
  it("answer a saved funnel's read when its uncounted days cannot be counted because the site cannot be read then, and reject nothing in the background", async () => {
    const steps: GoalDefinition[] = [{ type: 'page', value: '/a' }, { type: 'page', value: '/b' }];
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    const commands: string[] = [];
    let zoneReads = 0;
    try {
      const reads = createOneValueReads({ rows: async () => [] as never[] }, { database: 'db' }, {
        visitorsBy: async () => new Map(),
        selected: { funnelVisitors: async () => [3, 1] } as unknown as SelectedReads,
        sources: async () => ({ built: [{ day: '2026-11-02', ver: 7 }], raw: [] }), // settled, with no counts: read raw, then counted
        timezoneOf: async () => {
          if (++zoneReads > 1) throw new Error('the sites table cannot be read'); // the read's own, then the count's
          return 'UTC';
        },
        savedSteps: async () => [steps],
        command: async (sql) => { commands.push(sql); },
      });
      expect(await reads.funnelVisitors(range('ST-x', '2026-11-02', '2026-11-02'), steps, compileSelection([['is', 'country', ['DE']]])!)).toEqual([3, 1]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await reads.idle();
      expect(unhandled).toEqual([]);
      expect(commands).toEqual([]); // nothing counted: the next read tries again
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe('background counts', () => {
  it('once stopped, run no statement that has not started: the one running ends, the rest of the queue is dropped', async () => {
    const ran: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counts = createBackgroundCounts(async (sql) => {
      ran.push(sql);
      if (sql === 'count 2026-11-01') await gate;
    });
    const days = ['2026-11-01', '2026-11-02', '2026-11-03'].map((day) => ({ day, ver: 1 }));
    counts.later('ST-x', days, (fresh) => fresh.map((d) => [d]), ([d]) => [`count ${d!.day}`, `markers ${d!.day}`]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual(['count 2026-11-01']); // running, held by the gate
    counts.stop();
    counts.later('ST-y', days, (fresh) => [fresh], () => ['count after stop']);
    release();
    await counts.idle();
    expect(ran).toEqual(['count 2026-11-01']); // its markers, the other days and the later call: none ran
  });
});
