import { describe, expect, it } from 'vitest';
import { compileSelection } from '../../selection.js';
import type { FilterCondition } from '../../../types.js';
import { EVERYTHING, pairPlan, slicePlan } from './kinds.js';

const GOALS = [
  { siteId: 'ST-a', name: 'signup', type: 'event', value: 'signup', createdAt: '' },
  { siteId: 'ST-a', name: 'Visit /pricing', type: 'page', value: '/pricing', createdAt: '' },
  { siteId: 'ST-a', name: 'Visit /docs/*', type: 'page', value: '/docs/*', createdAt: '' },
] as const;
const plan = (filters: FilterCondition[]) => slicePlan(compileSelection(filters, [...GOALS]));
const pair = (filters: FilterCondition[]) => pairPlan(compileSelection(filters, [...GOALS]));

describe('slicePlan', () => {
  it('answers one condition, `is` one value, with its slice and what it selects', () => {
    expect(plan([])).toBe(EVERYTHING);
    expect(plan([['is', 'country', ['DE']]])).toEqual({ kind: 'countryCode', slice: 'DE', selects: 'all' });
    expect(plan([['is', 'utm_campaign', ['']]])).toEqual({ kind: 'utmCampaign', slice: '', selects: 'all' });
    expect(plan([['is', 'page', ['/pricing']]])).toEqual({ kind: 'page', slice: '/pricing', selects: 'page' });
    expect(plan([['is', 'event', ['signup']]])).toEqual({ kind: 'event', slice: 'signup', selects: 'event' });
    // Goals select every event of their sessions: an event goal's sessions are its event's slice, a page goal's its page's.
    expect(plan([['is', 'goal', ['signup']]])).toEqual({ kind: 'event', slice: 'signup', selects: 'all' });
    expect(plan([['is', 'goal', ['Visit /pricing']]])).toEqual({ kind: 'page', slice: '/pricing', selects: 'all' });
    expect(plan([['contains', 'goal', ['docs']]])).toEqual({ kind: 'goal', slice: '/docs/*', selects: 'all', goal: 'page\u0000/docs/*' });
  });

  it('has none for several values, another operator, a property, a negated or empty goal, or two conditions', () => {
    for (const filters of [
      [['is', 'country', ['DE', 'AT']]], [['is_not', 'country', ['DE']]], [['contains', 'page', ['/blog']]], [['is', 'prop:plan', ['pro']]],
      [['is_not', 'goal', ['signup']]], [['is', 'goal', ['no such goal']]], [['contains', 'goal', ['i']]], [['is', 'country', ['DE']], ['is', 'device_type', ['Mobile']]],
    ] as FilterCondition[][]) {
      expect(plan(filters)).toBeUndefined();
    }
  });
});

describe('pairPlan', () => {
  it("reads a slice's totals by an attribute's value: two conditions, one an attribute a breakdown has", () => {
    expect(pair([['is', 'country', ['DE']], ['is', 'page', ['/pricing']]])).toEqual({ kind: 'page', slice: '/pricing', selects: 'page', pair: { dimension: 'countryCode', value: 'DE' } });
    expect(pair([['is', 'browser', ['Chrome']], ['is', 'os', ['Windows']]])).toEqual({ kind: 'os', slice: 'Windows', selects: 'all', pair: { dimension: 'browser', value: 'Chrome' } });
    expect(pair([['is', 'goal', ['Visit /docs/*']], ['is', 'channel', ['Direct']]])).toMatchObject({ kind: 'goal', pair: { dimension: 'channel', value: 'Direct' } });
  });

  it('has none for a UTM field (the totals are by the triple), a page goal (its slice counts its path only), or three conditions', () => {
    expect(pair([['is', 'utm_source', ['google']], ['is', 'page', ['/']]])).toBeUndefined();
    expect(pair([['is', 'country', ['DE']], ['is', 'goal', ['Visit /pricing']]])).toBeUndefined();
    expect(pair([['is', 'country', ['DE']], ['is', 'page', ['/']], ['is', 'os', ['iOS']]])).toBeUndefined();
    expect(pair([['is', 'country', ['DE', 'AT']], ['is', 'page', ['/']]])).toBeUndefined();
  });
});
