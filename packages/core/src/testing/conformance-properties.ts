import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { GoalError, SiteNotFoundError } from '../errors.js';
import { addGoal, deleteGoal, GOAL_MESSAGES, listGoals, MAX_GOALS } from '../goals/goals.js';
import { importEvents } from '../import/import.js';
import { parseQuery, type RawParams } from '../query/parse.js';
import { REPORTS } from '../reports/index.js';
import { resolveQuery } from '../reports/resolve.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { EndpointName, FilterCondition } from '../types.js';
import { ndjson } from './datasets.js';
import { PROPS, PROPS_GOALS } from './datasets-properties.js';
import type { TestStorageOptions } from './conformance.js';

/**
 * The properties-and-goals conformance cases (properties-goals.md) over the dataset of
 * `datasets-properties.ts`, every number worked out by hand (the working is in the
 * comments). Runs in its own store. Cases that need an optional part of the contract
 * (`capabilities.properties`, `capabilities.goals`, `capabilities.selection` for filters)
 * are skipped by name for an adapter that does not declare it. `testStorage` runs it.
 *
 * @example
 * testStorageProperties({ name: 'sqlite', create: async () => createSqliteStorage(':memory:') });
 */
export function testStorageProperties({ name, create }: TestStorageOptions): void {
  describe(`storage conformance: ${name}, properties and goals`, () => {
    let storage: Storage;
    const report = <E extends EndpointName>(endpoint: E, params: RawParams) => REPORTS[endpoint](storage, parseQuery(endpoint, params), {});
    const range = (params: Record<string, string> = {}) => ({ site_id: 'ST-props', from: '2026-11-10', to: '2026-11-11', ...params });
    const filtered = (filters: FilterCondition[], params: Record<string, string> = {}) => range({ filters: JSON.stringify(filters), ...params });
    const needs = (ctx: TestContext, ...capabilities: ('properties' | 'goals' | 'selection')[]) => {
      for (const c of capabilities) if (storage.capabilities?.[c] !== true) ctx.skip(`the ${storage.kind} storage does not declare capabilities.${c}`);
    };

    beforeAll(async () => {
      storage = await create();
      await createSite(storage, { id: 'ST-props', name: 'Properties', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-many', name: 'Many goals', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-bare', name: 'No goals', timezone: 'UTC' });
      await importEvents(storage, ndjson(PROPS));
      if (storage.capabilities?.goals === true) for (const goal of PROPS_GOALS) await addGoal(storage, 'ST-props', goal);
    });
    afterAll(() => storage?.close());

    it('/properties: the keys of an event, by count, visitors, then key (null and pageview props not stored)', async (ctx) => {
      needs(ctx, 'properties');
      // Signup in 11-10..11-11: Q1 {plan, seats}, Q2 {plan}, Q3 {plan, coupon}, Q4 {plan} (trial: null dropped), Q5 {}, Q7 {plan}.
      // plan: 5 events; visitors 11-10 {a, b} + 11-11 {c, a} = 4. coupon (Q3, c) and seats (Q1, a): 1 and 1, byte order.
      expect(await report('properties', range({ name: 'Signup' }))).toEqual({
        name: 'Signup',
        properties: [
          { property: 'plan', count: 5, visitors: 4 },
          { property: 'coupon', count: 1, visitors: 1 },
          { property: 'seats', count: 1, visitors: 1 },
        ],
      });
      expect(await report('properties', range({ name: 'Signup', limit: '1' }))).toEqual({ name: 'Signup', properties: [{ property: 'plan', count: 5, visitors: 4 }] });
      // Download: Q4 {file: a.pdf} (a), Q6 {file: b.pdf, size: large} (e); Q6's pageview props are ignored.
      expect(await report('properties', range({ name: 'Download' }))).toEqual({
        name: 'Download',
        properties: [
          { property: 'file', count: 2, visitors: 2 },
          { property: 'size', count: 1, visitors: 1 },
        ],
      });
      expect(await report('properties', range({ name: 'Nope' }))).toEqual({ name: 'Nope', properties: [] });
      // Events by their own day: on 11-11 Q3's Signup (its session began 11-10), Q4, Q7 carry plan: visitors {c, a}.
      expect(await report('properties', range({ name: 'Signup', from: '2026-11-11' }))).toEqual({
        name: 'Signup',
        properties: [
          { property: 'plan', count: 3, visitors: 2 },
          { property: 'coupon', count: 1, visitors: 1 },
        ],
      });
    });

    it('/properties with property: the values of one key, exact and case-sensitive', async (ctx) => {
      needs(ctx, 'properties');
      // pro: Q1 (a, 11-10), Q3 (c, 11-11), Q4 (a, 11-11): 3 events, visitors 1 + 2. Pro (Q7) and free (Q2): byte order puts P first.
      expect(await report('properties', range({ name: 'Signup', property: 'plan' }))).toEqual({
        name: 'Signup',
        property: 'plan',
        values: [
          { value: 'pro', count: 3, visitors: 3 },
          { value: 'Pro', count: 1, visitors: 1 },
          { value: 'free', count: 1, visitors: 1 },
        ],
      });
      // Numbers are stored as String() writes them.
      expect(await report('properties', range({ name: 'Signup', property: 'seats' }))).toEqual({ name: 'Signup', property: 'seats', values: [{ value: '3', count: 1, visitors: 1 }] });
      expect(await report('properties', range({ name: 'Signup', property: 'nokey' }))).toEqual({ name: 'Signup', property: 'nokey', values: [] });
    });

    it('/properties with compare: each row\'s numbers in the previous period (P1: Signup {plan: free})', async (ctx) => {
      needs(ctx, 'properties');
      expect(await report('properties', range({ name: 'Signup', compare: 'previous_period' }))).toEqual({
        name: 'Signup',
        properties: [
          { property: 'plan', count: 5, visitors: 4, comparison: { count: 1, visitors: 1 } },
          { property: 'coupon', count: 1, visitors: 1, comparison: { count: 0, visitors: 0 } },
          { property: 'seats', count: 1, visitors: 1, comparison: { count: 0, visitors: 0 } },
        ],
      });
      expect(await report('properties', range({ name: 'Signup', property: 'plan', compare: 'previous_period' }))).toEqual({
        name: 'Signup',
        property: 'plan',
        values: [
          { value: 'pro', count: 3, visitors: 3, comparison: { count: 0, visitors: 0 } },
          { value: 'Pro', count: 1, visitors: 1, comparison: { count: 0, visitors: 0 } },
          { value: 'free', count: 1, visitors: 1, comparison: { count: 1, visitors: 1 } },
        ],
      });
    });

    it('the prop: filter: a session matches when one of its custom events passes; only passing events are selected', async (ctx) => {
      needs(ctx, 'properties', 'selection');
      // plan is pro: Q1, Q3, Q4 match (Q4 through its Signup). Visitors 11-10 {a, c} + 11-11 {a} = 3; pageviews 2 + 2 + 1;
      // no bounce (each has a custom event); durations 120 + 1260 + 120 = 1500 / 3.
      const pro: FilterCondition[] = [['is', 'prop:plan', ['pro']]];
      expect(await report('stats', filtered(pro))).toEqual({ visitors: 3, pageviews: 5, sessions: 3, bounce_rate: 0, avg_duration: 500 });
      // Q4's Download lacks plan (reads ''): it does not pass, so it is not selected.
      expect(await report('events', filtered(pro))).toEqual({ events: [{ name: 'Signup', count: 3 }] });
      expect(await report('properties', filtered(pro, { name: 'Download' }))).toEqual({ name: 'Download', properties: [] });
      expect(await report('properties', filtered([['contains', 'prop:plan', ['pro']]], { name: 'Signup' }))).toEqual({
        name: 'Signup',
        properties: [
          { property: 'plan', count: 3, visitors: 3 },
          { property: 'coupon', count: 1, visitors: 1 },
          { property: 'seats', count: 1, visitors: 1 },
        ],
      });
      // is_not pro: events without plan pass (''), so Q4 and Q6 (Download), Q5 (Signup, no props), Q2 (free), Q7 (Pro).
      expect(await report('events', filtered([['is_not', 'prop:plan', ['pro']]]))).toEqual({ events: [{ name: 'Signup', count: 3 }, { name: 'Download', count: 2 }] });
      // is '': the events without the key.
      expect(await report('events', filtered([['is', 'prop:plan', ['']]]))).toEqual({ events: [{ name: 'Download', count: 2 }, { name: 'Signup', count: 1 }] });
      // With an event condition, one event must satisfy both: a Signup without plan is Q5's only (d, 11-11, 60 s).
      expect(await report('stats', filtered([['is', 'event', ['Signup']], ['is', 'prop:plan', ['']]]))).toEqual({
        visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 60,
      });
    });

    it('/goals: every goal with visitors, conversions and conversion rate over /stats visitors', async (ctx) => {
      needs(ctx, 'goals');
      // /stats visitors: 11-10 {a, b, c} + 11-11 {a, d, e} = 6.
      // Signup: sessions Q1, Q2, Q3 (11-10: a, b, c) and Q4, Q5, Q7 (11-11: a, d): 5 visitors; 6 Signup events: 83.3 %.
      // Visit /thanks*: Q1 /thanks, Q3 /thanks/ (both sessions start 11-10: a, c). Visit /blog/*: Q3 /blog/a, Q6 /blog/ (not Q5's /blog).
      expect(await report('goals', range())).toEqual({
        goals: [
          { goal: 'Signup', visitors: 5, conversions: 6, conversion_rate: 83.3 },
          { goal: 'Visit /blog/*', visitors: 2, conversions: 2, conversion_rate: 33.3 },
          { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 33.3 },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0 },
        ],
      });
      // 11-11 alone (visitors {a, d, e}): Q3 began 11-10, so its /thanks/ and Signup of 11-11 count as conversions, not visitors.
      expect(await report('goals', range({ from: '2026-11-11' }))).toEqual({
        goals: [
          { goal: 'Signup', visitors: 2, conversions: 4, conversion_rate: 66.7 },
          { goal: 'Visit /blog/*', visitors: 1, conversions: 1, conversion_rate: 33.3 },
          { goal: 'Visit /thanks*', visitors: 0, conversions: 1, conversion_rate: 0 },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0 },
        ],
      });
      // Previous period: visitors {f} (11-09) + {g} (11-08) = 2; P1 Signup, P2 /thanks.
      expect(await report('goals', range({ compare: 'previous_period' }))).toEqual({
        goals: [
          { goal: 'Signup', visitors: 5, conversions: 6, conversion_rate: 83.3, comparison: { visitors: 1, conversions: 1, conversion_rate: 50 } },
          { goal: 'Visit /blog/*', visitors: 2, conversions: 2, conversion_rate: 33.3, comparison: { visitors: 0, conversions: 0, conversion_rate: 0 } },
          { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 33.3, comparison: { visitors: 1, conversions: 1, conversion_rate: 50 } },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0, comparison: { visitors: 0, conversions: 0, conversion_rate: 0 } },
        ],
      });
      // A site without goals: an empty list, with and without compare.
      expect(await report('goals', { site_id: 'ST-bare', from: '2026-11-10', to: '2026-11-11' })).toEqual({ goals: [] });
      expect(await report('goals', { site_id: 'ST-bare', from: '2026-11-10', to: '2026-11-11', compare: 'year_over_year' })).toEqual({ goals: [] });
    });

    it('/goals under filters: matching sessions only, the rate over the filtered /stats visitors', async (ctx) => {
      needs(ctx, 'goals', 'selection');
      // DE: Q1 (a, 11-10), Q4, Q5, Q7 (11-11: a, d): 3 visitors. Signup: all four, 3 visitors, 4 events. /thanks: Q1.
      expect(await report('goals', filtered([['is', 'country', ['DE']]]))).toEqual({
        goals: [
          { goal: 'Signup', visitors: 3, conversions: 4, conversion_rate: 100 },
          { goal: 'Visit /thanks*', visitors: 1, conversions: 1, conversion_rate: 33.3 },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0 },
          { goal: 'Visit /blog/*', visitors: 0, conversions: 0, conversion_rate: 0 },
        ],
      });
      // prop:plan is pro: Q1, Q3, Q4 (3 visitors). Conversions are every event meeting the goal in them, selected or not.
      expect(await report('goals', filtered([['is', 'prop:plan', ['pro']]]))).toEqual({
        goals: [
          { goal: 'Signup', visitors: 3, conversions: 3, conversion_rate: 100 },
          { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 66.7 },
          { goal: 'Visit /blog/*', visitors: 1, conversions: 1, conversion_rate: 33.3 },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0 },
        ],
      });
    });

    it('the visitors of summary under four selections, and summaryVisitors equal to them where a store has it', async (ctx) => {
      needs(ctx, 'goals', 'selection');
      const cases: [FilterCondition[], number][] = [
        // As worked out for /goals above: 11-10 {a, b, c} + 11-11 {a, d, e}; DE and prop:plan is pro 3 each; the Signup
        // sessions Q1, Q2, Q3 (a, b, c) and Q4, Q5, Q7 (a, d).
        [[], 6],
        [[['is', 'country', ['DE']]], 3],
        [[['is', 'prop:plan', ['pro']]], 3],
        [[['is', 'goal', ['Signup']]], 5],
      ];
      for (const [filters, visitors] of cases) {
        const { range: days, selection } = await resolveQuery(storage, parseQuery('stats', filters.length ? filtered(filters) : range()));
        const only = filters.length ? selection : undefined;
        expect([filters, (await storage.summary(days, only)).visitors]).toEqual([filters, visitors]);
        if (storage.summaryVisitors) expect([filters, await storage.summaryVisitors(days, only)]).toEqual([filters, visitors]);
      }
    });

    it('the goal filter: sessions converting on the named goals, judged on all of their events', async (ctx) => {
      needs(ctx, 'goals', 'selection');
      const thanks: FilterCondition[] = [['is', 'goal', ['Visit /thanks*']]];
      // Q1 (a) and Q3 (c), both starting 11-10: pageviews 2 + 2, durations 120 + 1260.
      expect(await report('stats', filtered(thanks))).toEqual({ visitors: 2, pageviews: 4, sessions: 2, bounce_rate: 0, avg_duration: 690 });
      // 11-10 alone: Q3 converts through its /thanks/ of 11-11, outside the range; its 11-10 pageview counts.
      expect(await report('stats', filtered(thanks, { to: '2026-11-10' }))).toEqual({ visitors: 2, pageviews: 3, sessions: 2, bounce_rate: 0, avg_duration: 690 });
      // Not Signup: Q6 only.
      expect(await report('stats', filtered([['is_not', 'goal', ['Signup']]]))).toEqual({ visitors: 1, pageviews: 1, sessions: 1, bounce_rate: 0, avg_duration: 60 });
      // Any goal whose name contains Visit: Q1, Q3, Q6. Visitors 2 + 1; pageviews 2 + 2 + 1; durations 120 + 1260 + 60.
      expect(await report('stats', filtered([['contains', 'goal', ['Visit']]]))).toEqual({ visitors: 3, pageviews: 5, sessions: 3, bounce_rate: 0, avg_duration: 480 });
      // A name that is no goal: no conversion. Unfiltered: 7 sessions, 9 pageviews, durations 1740 / 7.
      expect(await report('stats', filtered([['is', 'goal', ['Nope']]]))).toEqual({ visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0 });
      expect(await report('stats', filtered([['is_not', 'goal', ['Nope']]]))).toEqual({ visitors: 6, pageviews: 9, sessions: 7, bounce_rate: 0, avg_duration: 248.6 });
      expect(await report('stats', filtered([['is', 'goal', ['Signup']], ['is', 'country', ['US']]]))).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 1260 });
      // /goals under the goal filter: Q1, Q3 (2 visitors).
      expect(await report('goals', filtered(thanks))).toEqual({
        goals: [
          { goal: 'Signup', visitors: 2, conversions: 2, conversion_rate: 100 },
          { goal: 'Visit /thanks*', visitors: 2, conversions: 2, conversion_rate: 100 },
          { goal: 'Visit /blog/*', visitors: 1, conversions: 1, conversion_rate: 50 },
          { goal: 'Purchase', visitors: 0, conversions: 0, conversion_rate: 0 },
        ],
      });
      // /properties under a goal filter: Visit /blog/* is Q3 and Q6; their Signup is Q3's {plan: pro, coupon: X} (c, 11-11).
      expect(await report('properties', filtered([['is', 'goal', ['Visit /blog/*']]], { name: 'Signup' }))).toEqual({
        name: 'Signup',
        properties: [
          { property: 'coupon', count: 1, visitors: 1 },
          { property: 'plan', count: 1, visitors: 1 },
        ],
      });
    });

    it('goals are managed in the library: listed by name, unique display names, at most 100, deleted by name', async (ctx) => {
      needs(ctx, 'goals');
      expect((await listGoals(storage, 'ST-props')).map((g) => [g.name, g.type, g.value])).toEqual([
        ['Purchase', 'event', 'Purchase'],
        ['Signup', 'event', 'Signup'],
        ['Visit /blog/*', 'page', '/blog/*'],
        ['Visit /thanks*', 'page', '/thanks*'],
      ]);
      await expect(addGoal(storage, 'ST-props', { type: 'event', value: 'Signup' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.taken('Signup')));
      // An event named like a page goal's display name takes that name too.
      await expect(addGoal(storage, 'ST-props', { type: 'event', value: 'Visit /thanks*' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.taken('Visit /thanks*')));
      await expect(addGoal(storage, 'ST-props', { type: 'event', value: '' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.event));
      await expect(addGoal(storage, 'ST-props', { type: 'event', value: 'x'.repeat(201) })).rejects.toThrow(new GoalError(GOAL_MESSAGES.event));
      await expect(addGoal(storage, 'ST-props', { type: 'page', value: '/'.repeat(501) })).rejects.toThrow(new GoalError(GOAL_MESSAGES.page));
      // A path always starts with /: a pattern without it (a typo for /thanks) could never match.
      await expect(addGoal(storage, 'ST-props', { type: 'page', value: 'thanks' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.pageSlash));
      await expect(addGoal(storage, 'ST-props', { type: 'page', value: '*thanks' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.pageSlash));
      await expect(addGoal(storage, 'ST-nope', { type: 'event', value: 'Signup' })).rejects.toBeInstanceOf(SiteNotFoundError);
      await expect(listGoals(storage, 'ST-nope')).rejects.toBeInstanceOf(SiteNotFoundError);

      for (let i = 0; i < MAX_GOALS; i++) await addGoal(storage, 'ST-many', { type: 'page', value: `/step/${String(i).padStart(3, '0')}` });
      await expect(addGoal(storage, 'ST-many', { type: 'event', value: 'One more' })).rejects.toThrow(new GoalError(GOAL_MESSAGES.tooMany));
      expect(await listGoals(storage, 'ST-many')).toHaveLength(MAX_GOALS);
      await deleteGoal(storage, 'ST-many', 'Visit /step/042');
      await expect(deleteGoal(storage, 'ST-many', 'Visit /step/042')).rejects.toThrow(new GoalError(GOAL_MESSAGES.missing('Visit /step/042')));
      const added = await addGoal(storage, 'ST-many', { type: 'event', value: 'One more' });
      expect(added).toMatchObject({ siteId: 'ST-many', name: 'One more', type: 'event', value: 'One more' });
      const names = (await listGoals(storage, 'ST-many')).map((g) => g.name);
      expect(names).toHaveLength(MAX_GOALS);
      expect(names).not.toContain('Visit /step/042');
      expect(names[0]).toBe('One more');
      // Deleted and added again: listed once; another site's goals are its own.
      await deleteGoal(storage, 'ST-many', 'One more');
      await addGoal(storage, 'ST-many', { type: 'event', value: 'One more' });
      expect((await listGoals(storage, 'ST-many')).filter((g) => g.name === 'One more')).toHaveLength(1);
      expect(await listGoals(storage, 'ST-props')).toHaveLength(4);
      // /goals lists every goal, zeros included, and has no limit.
      expect(((await report('goals', { site_id: 'ST-many', from: '2026-11-10', to: '2026-11-11' })) as { goals: unknown[] }).goals).toHaveLength(MAX_GOALS);
    });
  });
}
