import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { addFunnel } from '../../../funnels/funnels.js';
import { addGoal } from '../../../goals/goals.js';
import { importEvents } from '../../../import/import.js';
import { parseQuery } from '../../../query/parse.js';
import { REPORTS } from '../../../reports/index.js';
import { createSite } from '../../../sites/sites.js';
import { ALPHA, ndjson } from '../../../testing/datasets.js';
import type { EndpointName, FilterCondition } from '../../../types.js';
import { createSqliteStore, type SqliteStore } from '../sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open: SqliteStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const NOW = Date.parse('2026-11-05T15:00:00Z');

/**
 * ALPHA (testing/datasets.ts, UTC) with three goals: the event `signup`, the page `/pricing` and
 * the pattern `/d*`. Its sessions: S1 v1 11-02 (`/`, `/pricing`, signup; 180 s), S2 v1 11-02
 * (`/`, bounce), S3 v2 11-02 (`/pricing`, `/docs`; DE; 30 s), S4 v3 11-02 23:50 to 11-03 00:10
 * (`/`, then `/docs` on 11-03; US; 1200 s), S5 v1 11-03 (`/pricing`, bounce), S6 v4 11-03
 * (`/docs`, download; 10 s).
 */
async function alpha(file = ':memory:', clock = { now: NOW }, options: Parameters<typeof createSqliteStore>[1] = {}): Promise<SqliteStore> {
  const s = createSqliteStore(file === ':memory:' ? file : join(dir, file), { now: () => clock.now, sliceMinSessions: 0, ...options });
  open.push(s);
  await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
  for (const goal of [{ type: 'event', value: 'signup' }, { type: 'page', value: '/pricing' }, { type: 'page', value: '/d*' }] as const) await addGoal(s, 'ST-alpha', goal);
  await importEvents(s, ndjson(ALPHA));
  return s;
}

const read = (s: SqliteStore, endpoint: EndpointName, filters: FilterCondition[], from = '2026-11-02', to = '2026-11-03', extra: Record<string, string> = {}) =>
  REPORTS[endpoint](s, parseQuery(endpoint, { site_id: 'ST-alpha', from, to, ...(filters.length > 0 ? { filters: JSON.stringify(filters) } : {}), ...extra }), { now: NOW });

describe('SQLite slices: one condition over past days is a sum of rows', () => {
  it('give the hand-computed totals of a page, an attribute, an event, a page goal, a pattern goal and a pair, from slices alone', async () => {
    const s = await alpha();
    // The import computed both past days (11-04 has no data, 11-05 is today).
    expect(s.db.prepare("SELECT day FROM slice_days WHERE site_id = 'ST-alpha' ORDER BY day").pluck().all()).toEqual(['2026-11-02', '2026-11-03']);
    // page is /pricing: S1, S3, S5. Visitors {v1, v2} + {v1}; bounce S5; 180 + 30 + 0 s; the /pricing views only.
    expect(await read(s, 'stats', [['is', 'page', ['/pricing']]])).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 33.3, avg_duration: 70 });
    expect(await read(s, 'pages', [['is', 'page', ['/pricing']]])).toMatchObject({ pages: [{ url: '/pricing', pageviews: 3, visitors: 3 }] });
    // country is DE: S3, both its pageviews.
    expect(await read(s, 'stats', [['is', 'country', ['DE']]])).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 30 });
    // event is signup: S1, every pageview of it, and of its custom events the signups.
    expect(await read(s, 'stats', [['is', 'event', ['signup']]])).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 180 });
    expect(await read(s, 'events', [['is', 'event', ['signup']]])).toEqual({ events: [{ name: 'signup', count: 1 }] });
    // goal is Visit /pricing: the same sessions as the page filter, but all of their pageviews (S1's 2, S3's 2, S5's 1).
    expect(await read(s, 'stats', [['is', 'goal', ['Visit /pricing']]])).toEqual({ visitors: 3, pageviews: 5, sessions: 3, bounce_rate: 33.3, avg_duration: 70 });
    // goal is Visit /d*: S3, S4, S6 (no bounce: S6 has its event); 30 + 1200 + 10 s; S3's 2, S4's 2, S6's 1 pageviews.
    expect(await read(s, 'stats', [['is', 'goal', ['Visit /d*']]])).toEqual({ visitors: 3, pageviews: 5, sessions: 3, bounce_rate: 0, avg_duration: 413.3 });
    // Its sessions by channel: S3 Referral, S4 and S6 Direct (different visitors).
    expect(await read(s, 'channels', [['is', 'goal', ['Visit /d*']]])).toMatchObject({ channels: [{ channel: 'Direct', visitors: 2 }, { channel: 'Referral', visitors: 1 }] });
    // A pair, country is US and page is /docs: S4, its /docs view on 11-03. On 11-03 alone no such session starts, the view counts there.
    expect(await read(s, 'stats', [['is', 'country', ['US']], ['is', 'page', ['/docs']]])).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 1200 });
    expect(await read(s, 'timeseries', [['is', 'country', ['US']], ['is', 'page', ['/docs']]], '2026-11-03', '2026-11-03')).toEqual({
      timeseries: [{ date: '2026-11-03', visitors: 0, pageviews: 1, sessions: 0 }],
    });
    // Unfiltered goals: signup v1 (11-02); /pricing S1, S3, S5; /d* S3, S4, S6; of 3 + 2 daily visitors.
    expect(await read(s, 'goals', [])).toEqual({
      goals: [
        { goal: 'Visit /d*', visitors: 3, conversions: 3, conversion_rate: 60 },
        { goal: 'Visit /pricing', visitors: 3, conversions: 3, conversion_rate: 60 },
        { goal: 'signup', visitors: 1, conversions: 1, conversion_rate: 20 },
      ],
    });
    // Every day of every read above came from slices: ten reads of two days (/goals' unfiltered visitors are the
    // rollups'), one of 11-03 alone.
    expect(s.sliceStats()).toEqual({ sliced: 10 * 2 + 1, rest: 0 });
    expect(s.columnCacheStats().loads).toBe(0);
  });

  it('read a day written since as before, then compute it again: a late view in S4 on 11-02 changes what 11-03 holds', async () => {
    const s = await alpha('late.db');
    const pricing = (): Promise<unknown> => read(s, 'stats', [['is', 'goal', ['Visit /pricing']]], '2026-11-03', '2026-11-03');
    // On 11-03 the sessions converting on /pricing are S5 (which starts there, a bounce) and none other.
    expect(await pricing()).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 100, avg_duration: 0 });
    // A collector's beacon of v3 in S4 viewing /pricing at 23:55 on 11-02: S4 converts now, and its 11-03 view of
    // /docs counts on 11-03 (S4 started on 11-02). A small write: nothing is computed with it.
    const s4 = s.db.prepare("SELECT session_id FROM sessions WHERE visitor_id = 'v3'").pluck().get() as string;
    await s.writeEvents([{
      siteId: 'ST-alpha', ts: Date.parse('2026-11-02T23:55:00Z'), day: '2026-11-02', type: 'pageview', name: '', path: '/pricing', visitorId: 'v3', sessionId: s4, seq: 1,
      entryPath: '/', referrerSource: 'Direct / None', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '', countryCode: 'US', deviceType: 'Mobile', browser: 'Safari', os: 'iOS',
    }]);
    expect(await pricing()).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 100, avg_duration: 0 });
    expect(s.sliceStats()).toEqual({ sliced: 1, rest: 1 });
    // The read computed 11-03 after its answer, its chunk loaded and its slices computed a step per turn of the event
    // loop (other work runs between): the next read sums its rows again.
    let ticks = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      ticks++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await s.slicesComputed();
    done = true;
    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(await pricing()).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 100, avg_duration: 0 });
    expect(s.sliceStats()).toEqual({ sliced: 2, rest: 1 });
  });

  it('are computed again after an import for the days it wrote and the days depending on them', async () => {
    const s = await alpha('import.db');
    // A bounce of v8 on 11-02 in DE: 11-02 changes, and 11-03 depends on 11-02 (S4 crosses midnight).
    await importEvents(s, ndjson([{ site_id: 'ST-alpha', ts: '2026-11-02T15:00:00Z', type: 'pageview', visitor_id: 'v8', url: '/pricing', country_code: 'DE' }]));
    expect(await read(s, 'stats', [['is', 'country', ['DE']]])).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 15 });
    expect(s.sliceStats()).toEqual({ sliced: 2, rest: 0 });
  });

  it('leave today to the column cache and compute a day once it has cooled down', async () => {
    const clock = { now: NOW };
    const s = await alpha('today.db', clock);
    await importEvents(s, ndjson([{ site_id: 'ST-alpha', ts: '2026-11-05T10:00:00Z', type: 'pageview', visitor_id: 'v7', url: '/pricing', country_code: 'DE' }]));
    const de = () => read(s, 'stats', [['is', 'country', ['DE']]], '2026-11-02', '2026-11-05');
    // S3 and v7's bounce today.
    expect(await de()).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 15 });
    await s.slicesComputed();
    expect(s.db.prepare("SELECT day FROM slice_days WHERE day = '2026-11-05'").pluck().all()).toEqual([]);
    // The next day after 06:00: 11-05 is computed after the read that finds it without slices.
    clock.now = Date.parse('2026-11-06T07:00:00Z');
    expect(await de()).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 15 });
    await s.slicesComputed();
    const { sliced } = s.sliceStats();
    expect(await de()).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 15 });
    expect(s.sliceStats().sliced).toBe(sliced + 3); // 11-02, 11-03 and 11-05 (11-04 has no data)
  });

  it('read a goal added after a day was computed as before on that day, until the day is computed with it', async () => {
    const s = await alpha('goal.db');
    await addGoal(s, 'ST-alpha', { type: 'event', value: 'download' });
    const rows = async () => ((await read(s, 'goals', [])) as { goals: { goal: string; visitors: number }[] }).goals.find((g) => g.goal === 'download');
    // S6 (v4, 11-03).
    expect(await rows()).toMatchObject({ visitors: 1, conversions: 1 });
    expect(s.sliceStats()).toMatchObject({ rest: 2 });
    await s.slicesComputed();
    expect(await rows()).toMatchObject({ visitors: 1, conversions: 1 });
    expect(s.sliceStats()).toMatchObject({ sliced: 2, rest: 2 });
  });

  it('are not computed by a read-only store, which reads the days without them as before', async () => {
    const s = await alpha('readonly.db', { now: NOW });
    await importEvents(s, ndjson([{ site_id: 'ST-alpha', ts: '2026-11-02T15:00:00Z', type: 'pageview', visitor_id: 'v8', url: '/pricing', country_code: 'DE' }]));
    s.db.exec("DELETE FROM slice_days WHERE day = '2026-11-02'");
    const reader = createSqliteStore(join(dir, 'readonly.db'), { now: () => NOW, readonly: true });
    open.push(reader);
    expect(await read(reader, 'stats', [['is', 'country', ['DE']]])).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 50, avg_duration: 15 });
    await reader.slicesComputed();
    expect(reader.sliceStats()).toEqual({ sliced: 1, rest: 1 });
    expect(s.db.prepare("SELECT day FROM slice_days WHERE day = '2026-11-02'").pluck().all()).toEqual([]);
  });

  it('leave days of few sessions to the column cache, and do not compute them again while they hold', async () => {
    // At least three sessions a day: 11-02 has four, 11-03 two (S5, S6).
    const s = await alpha('small.db', { now: NOW }, { sliceMinSessions: 3 });
    expect(s.db.prepare("SELECT day, goals FROM slice_days WHERE site_id = 'ST-alpha' ORDER BY day").raw().all()).toEqual([
      ['2026-11-02', expect.stringContaining('signup')], ['2026-11-03', 'null'],
    ]);
    expect(await read(s, 'stats', [['is', 'page', ['/pricing']]])).toEqual({ visitors: 3, pageviews: 3, sessions: 3, bounce_rate: 33.3, avg_duration: 70 });
    await s.slicesComputed();
    expect(s.sliceStats()).toEqual({ sliced: 1, rest: 1 });
    expect(s.db.prepare("SELECT goals FROM slice_days WHERE day = '2026-11-03'").pluck().get()).toBe('null');
  });
});

describe('SQLite slices: saved funnels', () => {
  const home = { name: 'Home to docs', steps: [{ page: '/' }, { page: '/docs' }] };
  const signup = { name: 'Pricing to signup', steps: [{ page: '/pricing' }, { event: 'signup' }] };
  /** ALPHA with the funnel / then /docs saved before the import (its days are computed with it). */
  async function withFunnel(file: string): Promise<SqliteStore> {
    const s = createSqliteStore(join(dir, file), { now: () => NOW, sliceMinSessions: 0 });
    open.push(s);
    await createSite(s, { id: 'ST-alpha', name: 'Alpha', timezone: 'UTC', domain: 'alpha.example' });
    await addFunnel(s, 'ST-alpha', home);
    // The same steps under a second name: computed once.
    await addFunnel(s, 'ST-alpha', { ...home, name: 'Home to docs again' });
    await importEvents(s, ndjson(ALPHA));
    return s;
  }
  // Of the sessions starting on 11-02 and 11-03 (5 daily visitors): / then /docs reached by S1 and S2 (v1, step 1) and
  // S4 (v3, both steps, its /docs on 11-03); /pricing then signup by S1 (v1, both), S3 (v2) and S5 (v1 on 11-03).
  const HOME = {
    funnel: 'Home to docs', visitors: 5, steps: [
      { step: 'Visit /', visitors: 2, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
      { step: 'Visit /docs', visitors: 1, dropoff: 1, dropoff_rate: 50, conversion_rate: 50, conversion_rate_step: 50 },
    ],
  };

  it('sum the rows of a saved funnel, unfiltered and under one condition, without reading a raw row', async () => {
    const s = await withFunnel('funnel.db');
    expect(await read(s, 'funnels', [], '2026-11-02', '2026-11-03', { funnel: 'Home to docs' })).toEqual(HOME);
    // Asked by its steps, or by the other name of the same steps: the same sums.
    expect(await read(s, 'funnels', [], '2026-11-02', '2026-11-03', { steps: JSON.stringify(home.steps) })).toEqual({ ...HOME, funnel: null });
    expect(await read(s, 'funnels', [], '2026-11-02', '2026-11-03', { funnel: 'Home to docs again' })).toEqual({ ...HOME, funnel: 'Home to docs again' });
    // In the US: S4 (v3) alone, both steps.
    expect(await read(s, 'funnels', [['is', 'country', ['US']]], '2026-11-02', '2026-11-03', { funnel: 'Home to docs' })).toMatchObject({
      visitors: 1, steps: [{ visitors: 1 }, { visitors: 1, dropoff: 0, conversion_rate: 100 }],
    });
    // Three funnel reads unfiltered, one filtered with its /stats visitors: five of two days each.
    expect(s.sliceStats()).toEqual({ sliced: 5 * 2, rest: 0 });
    expect(s.db.prepare("SELECT COUNT(DISTINCT funnel) FROM slice_funnels").pluck().get()).toBe(1);
    expect(s.columnCacheStats().loads).toBe(0);
  });

  it('scan steps that are no saved funnel, and compute the days again for a funnel saved after them', async () => {
    const s = await withFunnel('funnel-later.db');
    const pricing = async () => ((await read(s, 'funnels', [], '2026-11-02', '2026-11-03', { steps: JSON.stringify(signup.steps) })) as { steps: { visitors: number }[] }).steps.map((x) => x.visitors);
    // Not saved: the column cache answers (3 visitors at the first step, v1 and v2 on 11-02 and v1 on 11-03; 1 at the second), and no day is computed for it.
    expect(await pricing()).toEqual([3, 1]);
    await s.slicesComputed();
    expect(s.sliceStats()).toEqual({ sliced: 0, rest: 0 });
    // Saved now: the days computed without it are read as before once, computed after the answer, then summed.
    await addFunnel(s, 'ST-alpha', signup);
    expect(await pricing()).toEqual([3, 1]);
    expect(s.sliceStats()).toEqual({ sliced: 0, rest: 2 });
    await s.slicesComputed();
    expect(await pricing()).toEqual([3, 1]);
    expect(s.sliceStats()).toEqual({ sliced: 2, rest: 2 });
    expect(s.db.prepare("SELECT step, SUM(visitors) FROM slice_funnels WHERE kind = 'all' AND funnel LIKE '%signup%' GROUP BY step").raw().all()).toEqual([[1, 3], [2, 1]]);
  });
});
