import { describe, expect, it } from 'vitest';
import type { FunnelStep } from '../types.js';
import { type FunnelEvent, stepGoal, stepName, stepsReached } from './funnel.js';

const view = (path: string, ts: number, seq = ts): FunnelEvent => ({ type: 'pageview', name: '', path, ts, seq });
const event = (name: string, ts: number, seq = ts, path = '/x'): FunnelEvent => ({ type: 'event', name, path, ts, seq });
const reached = (steps: FunnelStep[], events: FunnelEvent[]) => stepsReached(steps.map(stepGoal), events);

describe('funnel steps (funnels.md sections 1 and 2)', () => {
  it('a step is a goal definition, with the goal\'s display name', () => {
    expect(stepGoal({ page: '/pricing' })).toEqual({ type: 'page', value: '/pricing' });
    expect(stepGoal({ event: 'signup' })).toEqual({ type: 'event', value: 'signup' });
    expect([stepName({ page: '/docs*' }), stepName({ event: 'signup' })]).toEqual(['Visit /docs*', 'signup']);
  });

  it('reaches steps in order with other events between them, whatever order the events come in', () => {
    const steps = [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }];
    // /pricing, /blog, a download, /signup, signup: all three.
    const walk = [view('/pricing', 1), view('/blog', 2), event('download', 3), view('/signup', 4), event('signup', 5)];
    expect(reached(steps, walk)).toBe(3);
    expect(reached(steps, [...walk].reverse())).toBe(3);
    expect(reached(steps, [view('/pricing', 1), event('signup', 2)])).toBe(1);
    expect(reached(steps, [view('/signup', 1), event('signup', 2)])).toBe(0);
    expect(reached(steps, [])).toBe(0);
  });

  it('interleaved: two passes through the chain count once, as far as either gets', () => {
    const steps = [{ page: '/a' }, { page: '/b' }, { page: '/c' }];
    expect(reached(steps, [view('/a', 1), view('/a', 2), view('/b', 3), view('/b', 4), view('/c', 5)])).toBe(3);
    expect(reached(steps, [view('/a', 1), view('/c', 2), view('/b', 3)])).toBe(2);
  });

  it('a repeated step (/a, /b, /a) needs two /a events, one before /b and one after', () => {
    const steps = [{ page: '/a' }, { page: '/b' }, { page: '/a' }];
    expect(reached(steps, [view('/a', 1), view('/b', 2)])).toBe(2);
    expect(reached(steps, [view('/a', 1), view('/b', 2), view('/a', 3)])).toBe(3);
    // One /a event meets one step of the chain at most.
    expect(reached([{ page: '/a' }, { page: '/a' }], [view('/a', 1)])).toBe(1);
    expect(reached([{ page: '/a' }, { page: '/a' }], [view('/a', 1), view('/a', 2)])).toBe(2);
  });

  it('step 2 met before step 1 does not count; met again after it, it does', () => {
    const steps = [{ page: '/pricing' }, { event: 'signup' }];
    expect(reached(steps, [event('signup', 1), view('/pricing', 2)])).toBe(1);
    expect(reached(steps, [event('signup', 1), view('/pricing', 2), event('signup', 3)])).toBe(2);
  });

  it('equal timestamps are ordered by seq; the same ts and seq are never both in a chain', () => {
    const steps = [{ page: '/a' }, { page: '/b' }];
    expect(reached(steps, [view('/b', 10, 1), view('/a', 10, 2)])).toBe(1);
    expect(reached(steps, [view('/b', 10, 2), view('/a', 10, 1)])).toBe(2);
    expect(reached(steps, [view('/a', 10, 5), view('/b', 10, 5)])).toBe(1);
    expect(reached(steps, [view('/a', 10, 5), view('/b', 10, 5), view('/b', 11, 1)])).toBe(2);
  });

  it('meets as a goal does: page patterns on pageviews only, event names exactly', () => {
    expect(reached([{ page: '/docs*' }, { event: 'download' }], [view('/docs/a', 1), event('download', 2)])).toBe(2);
    // A custom event's URL path is not a pageview.
    expect(reached([{ page: '/docs*' }, { event: 'download' }], [event('click', 1, 1, '/docs'), event('download', 2)])).toBe(0);
    expect(reached([{ event: 'Signup' }, { event: 'signup' }], [event('signup', 1), event('Signup', 2)])).toBe(1);
  });
});
