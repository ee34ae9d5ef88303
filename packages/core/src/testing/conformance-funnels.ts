import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { csvReport } from '../csv/csv-report.js';
import { FunnelError, SiteNotFoundError, ValidationError } from '../errors.js';
import { MAX_FUNNELS } from '../funnels/funnel.js';
import { addFunnel, deleteFunnel, FUNNEL_MESSAGES, listFunnels } from '../funnels/funnels.js';
import { addGoal, deleteGoal } from '../goals/goals.js';
import { importEvents } from '../import/import.js';
import { MESSAGES } from '../query/messages.js';
import { parseQuery } from '../query/parse.js';
import { getFunnel } from '../reports/funnels.js';
import { createSite } from '../sites/sites.js';
import type { Storage } from '../storage/types.js';
import type { FilterCondition, FunnelStep, FunnelStepRow } from '../types.js';
import type { TestStorageOptions } from './conformance.js';
import { ndjson } from './datasets.js';
import { DOCS_STEPS, FUNNEL, LATE_WRITES, LONG_FUNNEL, PRICING_STEPS, REPEAT_STEPS, SAVED_FUNNELS } from './datasets-funnels.js';

/** A step row from its numbers: visitors, drop-off, drop-off rate, conversion rate, rate from the step before. */
const row = (step: string, visitors: number, dropoff: number, dropoff_rate: number, conversion_rate: number, conversion_rate_step: number): FunnelStepRow =>
  ({ step, visitors, dropoff, dropoff_rate, conversion_rate, conversion_rate_step });
const PRICING_NAMES = ['Visit /pricing', 'Visit /signup', 'signup'] as const;
/** PRICING's rows for step visitors `v` (the rates follow; worked out for each case below). */
const pricing = (v: [number, number, number], rates: [number, number, number, number, number, number]) => [
  row(PRICING_NAMES[0], v[0], 0, 0, v[0] > 0 ? 100 : 0, v[0] > 0 ? 100 : 0),
  row(PRICING_NAMES[1], v[1], v[0] - v[1], rates[0], rates[1], rates[2]),
  row(PRICING_NAMES[2], v[2], v[1] - v[2], rates[3], rates[4], rates[5]),
];

/**
 * The funnel conformance cases (funnels.md) over the datasets of `datasets-funnels.ts`, every
 * number worked out by hand (the working is in the comments and on the dataset). Runs in its
 * own store; skipped by name for an adapter that does not declare `capabilities.funnels`
 * (and, for the filtered cases, `capabilities.selection` and `.properties`). `testStorage` runs it.
 *
 * @example
 * testStorageFunnels({ name: 'sqlite', create: async () => createSqliteStorage(':memory:') });
 */
export function testStorageFunnels({ name, create }: TestStorageOptions): void {
  describe(`storage conformance: ${name}, funnels`, () => {
    let storage: Storage;
    const funnel = (params: Record<string, string>) => getFunnel(storage, parseQuery('funnels', { site_id: 'ST-funnel', from: '2026-11-10', to: '2026-11-11', ...params }));
    const steps = (list: readonly FunnelStep[], params: Record<string, string> = {}) => funnel({ steps: JSON.stringify(list), ...params });
    const filtered = (filters: FilterCondition[], params: Record<string, string> = {}) => ({ filters: JSON.stringify(filters), ...params });
    const needs = (ctx: TestContext, ...capabilities: ('funnels' | 'selection' | 'properties')[]) => {
      for (const c of capabilities) if (storage.capabilities?.[c] !== true) ctx.skip(`the ${storage.kind} storage does not declare capabilities.${c}`);
    };

    beforeAll(async () => {
      storage = await create();
      await createSite(storage, { id: 'ST-funnel', name: 'Funnels', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-flate', name: 'Late funnel writes', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-fmany', name: 'Many funnels', timezone: 'UTC' });
      await createSite(storage, { id: 'ST-flong', name: 'Long funnel ranges', timezone: 'UTC' });
      await importEvents(storage, ndjson(FUNNEL));
      await importEvents(storage, ndjson(LONG_FUNNEL));
      for (const write of LATE_WRITES) await storage.writeEvents(write);
      if (storage.capabilities?.funnels === true) for (const saved of SAVED_FUNNELS) await addFunnel(storage, 'ST-funnel', saved);
    });
    afterAll(() => storage?.close());

    it('a saved funnel: visitors reaching each step in order, drop-off and conversion rates', async (ctx) => {
      needs(ctx, 'funnels');
      // /stats visitors: 11-10 {a, b, c, d, e, f} + 11-11 {g, h, i, j, a, k} = 12 (P1 starts 11-09).
      // Step 1: 11-10 {a (F1, F7), b, c, d} + 11-11 {g, h, i, a} = 8; step 2: {a, b, d} + {h, i, a} = 6; step 3: {a, b} + {h, i} = 4.
      // 8 -> 6: 2 lost, 25 %, 75 % of step 1; 6 -> 4: 2 lost, 33.3 %, 50 % of step 1, 66.7 % of step 2.
      expect(await funnel({ funnel: 'Pricing to signup' })).toEqual({ funnel: 'Pricing to signup', visitors: 12, steps: pricing([8, 6, 4], [25, 75, 75, 33.3, 50, 66.7]) });
      // The same steps given ad hoc: the same numbers, no name.
      expect(await steps(PRICING_STEPS)).toEqual({ funnel: null, visitors: 12, steps: pricing([8, 6, 4], [25, 75, 75, 33.3, 50, 66.7]) });
      // Docs to download: F11 (j) only.
      expect(await funnel({ funnel: 'Docs to download' })).toEqual({
        funnel: 'Docs to download', visitors: 12, steps: [row('Visit /docs*', 1, 0, 0, 100, 100), row('download', 1, 0, 0, 100, 100)],
      });
    });

    it('a repeated step (/a, /b, /a) needs a second /a after /b; steps are listed in order, zeros included', async (ctx) => {
      needs(ctx, 'funnels');
      // F4 (d) 3, F5 (e) 2, F6 (f) 2, all 11-10: 3, 3, 1.
      expect(await steps(REPEAT_STEPS)).toEqual({
        funnel: null, visitors: 12, steps: [row('Visit /a', 3, 0, 0, 100, 100), row('Visit /b', 3, 0, 0, 100, 100), row('Visit /a', 1, 2, 66.7, 33.3, 33.3)],
      });
      // Nothing meets the first step: every step 0.
      expect(await steps([{ event: 'nope' }, { page: '/pricing' }])).toEqual({ funnel: null, visitors: 12, steps: [row('nope', 0, 0, 0, 0, 0), row('Visit /pricing', 0, 0, 0, 0, 0)] });
    });

    it('sessions count by their start day: one crossing midnight and the range\'s end counts what it reaches after it', async (ctx) => {
      needs(ctx, 'funnels');
      // 11-10: {a, b, c, d}, {a, b, d}, {a, b} of 6 visitors; P1's /signup of 11-10 belongs to a session of 11-09.
      expect(await funnel({ funnel: 'Pricing to signup', to: '2026-11-10' })).toEqual({ funnel: 'Pricing to signup', visitors: 6, steps: pricing([4, 3, 2], [25, 75, 75, 33.3, 50, 66.7]) });
      // 11-11: {g, h, i, a}, {h, i, a}, {h, i}: F10 (i) starts 23:50 and reaches /signup and signup on 11-12.
      expect(await funnel({ funnel: 'Pricing to signup', from: '2026-11-11' })).toEqual({ funnel: 'Pricing to signup', visitors: 6, steps: pricing([4, 3, 2], [25, 75, 75, 33.3, 50, 66.7]) });
      // 11-12: no session starts there (F10's events of 11-12 are a session of 11-11).
      expect(await funnel({ funnel: 'Pricing to signup', from: '2026-11-12', to: '2026-11-12' })).toEqual({ funnel: 'Pricing to signup', visitors: 0, steps: pricing([0, 0, 0], [0, 0, 0, 0, 0, 0]) });
      // 11-09: P1 (m) reaches /signup on 11-10.
      expect(await funnel({ funnel: 'Pricing to signup', from: '2026-11-09', to: '2026-11-09' })).toEqual({ funnel: 'Pricing to signup', visitors: 1, steps: pricing([1, 1, 0], [0, 100, 100, 100, 0, 0]) });
    });

    it('a range of months: every session once, by its start day, one crossing midnight on the day a part of the range ends', async (ctx) => {
      needs(ctx, 'funnels', 'selection');
      const long = (params: Record<string, string>) => getFunnel(storage, parseQuery('funnels', { site_id: 'ST-flong', steps: JSON.stringify(PRICING_STEPS), ...params }));
      // Visitors by day: 01-05 {p}, 02-04 {q}, 03-20 {p, r}: 4. /pricing: G1, G2, G3; /signup after it: G1, G2; signup: G2.
      expect(await long({ from: '2026-01-01', to: '2026-03-31' })).toEqual({ funnel: null, visitors: 4, steps: pricing([3, 2, 1], [33.3, 66.7, 66.7, 50, 33.3, 50]) });
      // In DE: r's day leaves; p of 03-20 stays.
      expect(await long({ from: '2026-01-01', to: '2026-03-31', ...filtered([['is', 'country', ['DE']]]) })).toEqual({ funnel: null, visitors: 3, steps: pricing([3, 2, 1], [33.3, 66.7, 66.7, 50, 33.3, 50]) });
      // From 02-05: G2 started the day before; G3 (p) and G4 (r) only.
      expect(await long({ from: '2026-02-05', to: '2026-12-31' })).toEqual({ funnel: null, visitors: 2, steps: pricing([1, 0, 0], [100, 0, 0, 0, 0, 0]) });
    });

    it('compare: the previous period\'s visitors and each step\'s numbers there', async (ctx) => {
      needs(ctx, 'funnels');
      // 11-08 .. 11-09: P2 (n, 11-08) reaches step 1 (its signup has no /signup page before it), P1 (m, 11-09) step 2. Visitors 2.
      const comparison = [
        { visitors: 2, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
        { visitors: 1, dropoff: 1, dropoff_rate: 50, conversion_rate: 50, conversion_rate_step: 50 },
        { visitors: 0, dropoff: 1, dropoff_rate: 100, conversion_rate: 0, conversion_rate_step: 0 },
      ];
      expect(await funnel({ funnel: 'Pricing to signup', compare: 'previous_period' })).toEqual({
        funnel: 'Pricing to signup',
        visitors: 12,
        steps: pricing([8, 6, 4], [25, 75, 75, 33.3, 50, 66.7]).map((r, i) => ({ ...r, comparison: comparison[i] })),
        comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 2 },
      });
      // As CSV: one row per step, the comparison_ columns after.
      const csv = await csvReport(storage, 'funnels', parseQuery('funnels', { site_id: 'ST-funnel', from: '2026-11-10', to: '2026-11-11', funnel: 'Pricing to signup', compare: 'previous_period', format: 'csv' }));
      expect(csv).toEqual({
        filename: 'ST-funnel-funnels-2026-11-10-2026-11-11.csv',
        text:
          'step,visitors,dropoff,dropoff_rate,conversion_rate,conversion_rate_step,comparison_visitors,comparison_dropoff,comparison_dropoff_rate,comparison_conversion_rate,comparison_conversion_rate_step\r\n' +
          'Visit /pricing,8,0,0,100,100,2,0,0,100,100\r\nVisit /signup,6,2,25,75,75,1,1,50,50,50\r\nsignup,4,2,33.3,50,66.7,0,1,100,0,0\r\n',
      });
    });

    it('filters choose the sessions (by page, by property, by country); steps are judged on all of their events', async (ctx) => {
      needs(ctx, 'funnels', 'selection', 'properties');
      // A /blog pageview: F1 (a, 11-10, reaches all three through pages the filter does not select) and F13 (k, 11-11, none).
      expect(await funnel(filtered([['is', 'page', ['/blog']]], { funnel: 'Pricing to signup' }))).toEqual({
        funnel: 'Pricing to signup', visitors: 2, steps: pricing([1, 1, 1], [0, 100, 100, 0, 100, 100]),
      });
      // plan is pro: F1 (a, 11-10) and F10 (i, 11-11), whose Signup {plan: pro} is on 11-12, outside the range.
      expect(await funnel(filtered([['is', 'prop:plan', ['pro']]], { funnel: 'Pricing to signup' }))).toEqual({
        funnel: 'Pricing to signup', visitors: 2, steps: pricing([2, 2, 2], [0, 100, 100, 0, 100, 100]),
      });
      // DE: 11-10 F1 (a, 3), F4 (d, 2), F7 (a, 1); 11-11 F12 (a, 2), F11 (j, 0). Visitors {a, d} + {j, a} = 4; steps 3, 3, 1.
      // In the previous period DE is P1 (m, 11-09): 1, 1, 0 of 1 visitor.
      expect(await funnel(filtered([['is', 'country', ['DE']]], { funnel: 'Pricing to signup', compare: 'previous_period' }))).toEqual({
        funnel: 'Pricing to signup',
        visitors: 4,
        steps: [
          { ...row('Visit /pricing', 3, 0, 0, 100, 100), comparison: { visitors: 1, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 } },
          { ...row('Visit /signup', 3, 0, 0, 100, 100), comparison: { visitors: 1, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 } },
          { ...row('signup', 1, 2, 66.7, 33.3, 33.3), comparison: { visitors: 0, dropoff: 1, dropoff_rate: 100, conversion_rate: 0, conversion_rate_step: 0 } },
        ],
        comparison: { from: '2026-11-08', to: '2026-11-09', visitors: 1 },
      });
      // A download: F11 (j) alone.
      expect(await steps(DOCS_STEPS, filtered([['is', 'event', ['download']]]))).toEqual({
        funnel: null, visitors: 1, steps: [row('Visit /docs*', 1, 0, 0, 100, 100), row('download', 1, 0, 0, 100, 100)],
      });
    });

    it('equal timestamps by seq, and writes that arrive late, out of order and with equal times out of seq order', async (ctx) => {
      needs(ctx, 'funnels');
      // ST-funnel 11-11: F8 `/signup` then `/pricing` at 08:00:00 reaches step 1 only; F9 `/pricing` then `/signup` reaches all.
      // Shown above: 11-11's step 1 {g, h, i, a}, step 3 {h, i}.
      const flate = (list: readonly FunnelStep[], day: string) => getFunnel(storage, parseQuery('funnels', { site_id: 'ST-flate', from: day, to: day, steps: JSON.stringify(list) }));
      // 11-20 starts L1 and L3 (L2 moved to 11-19). L1 in record order: /x, /a, /b, signup: 3; L3: /a (12:00:00, seq 60), /b (12:01): 2.
      expect(await flate([{ page: '/a' }, { page: '/b' }, { event: 'signup' }], '2026-11-20')).toEqual({
        funnel: null, visitors: 2, steps: [row('Visit /a', 2, 0, 0, 100, 100), row('Visit /b', 2, 0, 0, 100, 100), row('signup', 1, 1, 50, 50, 50)],
      });
      // /b then /a: L1's /a (seq 20) comes before its /b (seq 30), though written after it; L3's /b and /a share ts and seq: one chain takes one of them.
      expect(await flate([{ page: '/b' }, { page: '/a' }], '2026-11-20')).toEqual({ funnel: null, visitors: 2, steps: [row('Visit /b', 2, 0, 0, 100, 100), row('Visit /a', 0, 2, 100, 0, 0)] });
      // L2 starts 11-19 at its late first event /a, and reaches /pricing on 11-20.
      expect(await flate([{ page: '/a' }, { page: '/pricing' }], '2026-11-19')).toEqual({ funnel: null, visitors: 1, steps: [row('Visit /a', 1, 0, 0, 100, 100), row('Visit /pricing', 1, 0, 0, 100, 100)] });
      expect(await flate([{ page: '/a' }, { page: '/pricing' }], '2026-11-20')).toEqual({ funnel: null, visitors: 2, steps: [row('Visit /a', 2, 0, 0, 100, 100), row('Visit /pricing', 0, 2, 100, 0, 0)] });
    });

    it('a name that is not a funnel of the site is refused once the site is found; an unknown site is not found', async (ctx) => {
      needs(ctx, 'funnels');
      await expect(funnel({ funnel: 'Nope' })).rejects.toThrow(new ValidationError(MESSAGES.funnel));
      await expect(funnel({ funnel: 'pricing to signup' })).rejects.toThrow(new ValidationError(MESSAGES.funnel));
      await expect(funnel({ site_id: 'ST-nope', funnel: 'Nope' })).rejects.toBeInstanceOf(SiteNotFoundError);
      await expect(funnel({ site_id: 'ST-flate', funnel: 'Pricing to signup' })).rejects.toThrow(new ValidationError(MESSAGES.funnel));
    });

    it('funnels are managed in the library: listed by name, unique names, 2 to 8 steps, at most 20, deleted by name', async (ctx) => {
      needs(ctx, 'funnels');
      expect((await listFunnels(storage, 'ST-funnel')).map((f) => [f.siteId, f.name, f.steps])).toEqual([
        ['ST-funnel', 'Docs to download', DOCS_STEPS],
        ['ST-funnel', 'Pricing to signup', PRICING_STEPS],
      ]);
      const refused = (error: string) => new FunnelError(error);
      await expect(addFunnel(storage, 'ST-funnel', { name: 'Pricing to signup', steps: REPEAT_STEPS })).rejects.toThrow(refused(FUNNEL_MESSAGES.taken('Pricing to signup')));
      await expect(addFunnel(storage, 'ST-funnel', { name: '  ', steps: REPEAT_STEPS })).rejects.toThrow(refused(FUNNEL_MESSAGES.name));
      await expect(addFunnel(storage, 'ST-funnel', { name: 'x'.repeat(121), steps: REPEAT_STEPS })).rejects.toThrow(refused(FUNNEL_MESSAGES.name));
      await expect(addFunnel(storage, 'ST-funnel', { name: 'One', steps: [{ page: '/a' }] })).rejects.toThrow(refused(FUNNEL_MESSAGES.steps));
      await expect(addFunnel(storage, 'ST-funnel', { name: 'Nine', steps: Array(9).fill({ page: '/a' }) })).rejects.toThrow(refused(FUNNEL_MESSAGES.steps));
      await expect(addFunnel(storage, 'ST-funnel', { name: 'Bad', steps: [{ page: '/a' }, { page: '' }] })).rejects.toThrow(refused(FUNNEL_MESSAGES.step));
      await expect(addFunnel(storage, 'ST-funnel', { name: 'Bad', steps: [{ page: '/a' }, { event: 'e'.repeat(201) }] })).rejects.toThrow(refused(FUNNEL_MESSAGES.step));
      await expect(addFunnel(storage, 'ST-nope', { name: 'Any', steps: REPEAT_STEPS })).rejects.toBeInstanceOf(SiteNotFoundError);
      await expect(listFunnels(storage, 'ST-nope')).rejects.toBeInstanceOf(SiteNotFoundError);
      await expect(deleteFunnel(storage, 'ST-funnel', 'Nope')).rejects.toThrow(refused(FUNNEL_MESSAGES.missing('Nope')));

      // Names keep their text but not the spaces around it; a funnel holds its own steps, whatever happens to goals.
      const added = await addFunnel(storage, 'ST-fmany', { name: '  Repeat  ', steps: REPEAT_STEPS });
      expect(added).toMatchObject({ siteId: 'ST-fmany', name: 'Repeat', steps: REPEAT_STEPS });
      if (storage.capabilities?.goals === true) {
        await addGoal(storage, 'ST-funnel', { type: 'event', value: 'signup' });
        await deleteGoal(storage, 'ST-funnel', 'signup');
      }
      expect((await funnel({ funnel: 'Pricing to signup' })).steps.map((s) => s.visitors)).toEqual([8, 6, 4]);
      for (let i = 1; i < MAX_FUNNELS; i++) await addFunnel(storage, 'ST-fmany', { name: `Funnel ${String(i).padStart(2, '0')}`, steps: [{ page: `/${i}` }, { event: 'x' }] });
      await expect(addFunnel(storage, 'ST-fmany', { name: 'One more', steps: REPEAT_STEPS })).rejects.toThrow(refused(FUNNEL_MESSAGES.tooMany));
      expect(await listFunnels(storage, 'ST-fmany')).toHaveLength(MAX_FUNNELS);
      await deleteFunnel(storage, 'ST-fmany', 'Repeat');
      await expect(funnel({ site_id: 'ST-fmany', funnel: 'Repeat' })).rejects.toThrow(new ValidationError(MESSAGES.funnel));
      await addFunnel(storage, 'ST-fmany', { name: 'Repeat', steps: PRICING_STEPS });
      const names = (await listFunnels(storage, 'ST-fmany')).map((f) => f.name);
      expect([names.length, names[0], names.at(-1), names.filter((n) => n === 'Repeat').length]).toEqual([MAX_FUNNELS, 'Funnel 01', 'Repeat', 1]);
      // Added again under the same name with other steps: the new steps.
      expect((await listFunnels(storage, 'ST-fmany')).find((f) => f.name === 'Repeat')!.steps).toEqual(PRICING_STEPS);
      expect(await listFunnels(storage, 'ST-funnel')).toHaveLength(2);
    });
  });
}
