import { describe, expect, it } from 'vitest';
import { compileSelection, conditionHolds, eventPasses, goalConditionHolds, propValue } from './selection.js';

describe('conditionHolds: the reference predicate', () => {
  it('is / is_not: exact, case-sensitive, one of the values', () => {
    expect(conditionHolds({ operator: 'is', values: ['DE', 'AT'] }, 'AT')).toBe(true);
    expect(conditionHolds({ operator: 'is', values: ['DE', 'AT'] }, 'de')).toBe(false);
    expect(conditionHolds({ operator: 'is', values: ['/pricing'] }, '/pricing/')).toBe(false);
    expect(conditionHolds({ operator: 'is_not', values: ['DE', 'AT'] }, 'FR')).toBe(true);
    expect(conditionHolds({ operator: 'is_not', values: ['DE', 'AT'] }, 'DE')).toBe(false);
    expect(conditionHolds({ operator: 'is', values: [''] }, '')).toBe(true); // an unset UTM field
  });

  it('contains / contains_not: substring of one of the values, no normalisation', () => {
    expect(conditionHolds({ operator: 'contains', values: ['/blog/', '/docs'] }, '/docs/intro')).toBe(true);
    expect(conditionHolds({ operator: 'contains', values: ['Blog'] }, '/blog/x')).toBe(false);
    expect(conditionHolds({ operator: 'contains', values: ['é'] }, 'caf\u0065\u0301')).toBe(false); // e + combining accent is not é
    expect(conditionHolds({ operator: 'contains_not', values: ['/admin'] }, '/admin/users')).toBe(false);
    expect(conditionHolds({ operator: 'contains_not', values: ['/admin'] }, '/')).toBe(true);
    expect(conditionHolds({ operator: 'contains', values: [''] }, 'anything')).toBe(true);
  });

  it('compiles filters by the stored attribute they read; no filters is no selection', () => {
    expect(compileSelection([])).toBeUndefined();
    expect(compileSelection([['is', 'source', ['Direct / None']], ['is_not', 'page', ['/']], ['contains', 'event', ['sign']], ['is', 'utm_campaign', ['']]])).toEqual({
      session: [
        { attribute: 'referrerSource', operator: 'is', values: ['Direct / None'] },
        { attribute: 'utmCampaign', operator: 'is', values: [''] },
      ],
      page: [{ operator: 'is_not', values: ['/'] }],
      event: [{ operator: 'contains', values: ['sign'] }],
      prop: [],
      goal: [],
    });
  });
});

describe('prop: and goal conditions', () => {
  const goals = [
    { siteId: 'ST-a', name: 'Signup', type: 'event' as const, value: 'Signup', createdAt: '' },
    { siteId: 'ST-a', name: 'Visit /thanks*', type: 'page' as const, value: '/thanks*', createdAt: '' },
  ];

  it('compiles prop: by key and goal by the site\'s goals (is/contains: converts on one; is_not/contains_not: on none)', () => {
    expect(compileSelection([['is', 'prop:plan', ['pro']], ['contains', 'goal', ['Visit']], ['is_not', 'goal', ['Signup', 'Nope']], ['is', 'goal', ['Nope']]], goals)).toEqual({
      session: [], page: [], event: [],
      prop: [{ key: 'plan', operator: 'is', values: ['pro'] }],
      goal: [
        { converts: true, goals: [{ type: 'page', value: '/thanks*' }] },
        { converts: false, goals: [{ type: 'event', value: 'Signup' }] },
        { converts: true, goals: [] },
      ],
    });
    expect(compileSelection([['contains_not', 'goal', ['i']]], goals)!.goal).toEqual([{ converts: false, goals: [{ type: 'event', value: 'Signup' }, { type: 'page', value: '/thanks*' }] }]);
  });

  it('an event passes when every event and prop: condition holds; a missing property reads as the empty string', () => {
    const selection = compileSelection([['is', 'event', ['Signup']], ['is_not', 'prop:plan', ['free']]])!;
    expect(propValue([['plan', 'pro']], 'plan')).toBe('pro');
    expect(propValue([['plan', 'pro']], 'seats')).toBe('');
    expect(propValue(undefined, 'plan')).toBe('');
    expect(eventPasses(selection, 'Signup', [['plan', 'pro']])).toBe(true);
    expect(eventPasses(selection, 'Signup', [])).toBe(true);
    expect(eventPasses(selection, 'Signup', [['plan', 'free']])).toBe(false);
    expect(eventPasses(selection, 'Download', [['plan', 'pro']])).toBe(false);
    const empty = compileSelection([['is', 'prop:plan', ['']]])!;
    expect(eventPasses(empty, 'Download', [['file', 'a.pdf']])).toBe(true);
    expect(eventPasses(empty, 'Signup', [['plan', 'pro']])).toBe(false);
  });

  it('a goal condition reads all of the session\'s events', () => {
    const events = [{ type: 'pageview' as const, name: '', path: '/pricing' }, { type: 'event' as const, name: 'Signup', path: '/thanks' }];
    expect(goalConditionHolds({ converts: true, goals: [{ type: 'event', value: 'Signup' }] }, events)).toBe(true);
    expect(goalConditionHolds({ converts: true, goals: [{ type: 'page', value: '/thanks*' }] }, events)).toBe(false);
    expect(goalConditionHolds({ converts: false, goals: [{ type: 'page', value: '/thanks*' }] }, events)).toBe(true);
    expect(goalConditionHolds({ converts: false, goals: [] }, events)).toBe(true);
    expect(goalConditionHolds({ converts: true, goals: [] }, events)).toBe(false);
  });
});
