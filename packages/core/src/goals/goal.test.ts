import { describe, expect, it } from 'vitest';
import { goalName, goalPatternMatches, meetsGoal } from './goal.js';

describe('goals (properties-goals.md section 4)', () => {
  it.each([
    ['/blog/*', '/blog/', true],
    ['/blog/*', '/blog/a/b', true],
    ['/blog/*', '/blog', false],
    ['/thanks', '/thanks', true],
    ['/thanks', '/thanks/', false],
    ['/thanks', '/Thanks', false],
    ['*', '/', true],
    ['*', '', true],
    ['/a*b*c', '/abc', true],
    ['/a*b*c', '/a-c-b-c', true],
    ['/a*b*c', '/a-c-b', false],
    ['/a*a', '/a', false],
    ['/a*a', '/aa', true],
    ['*/x/*', '/docs/x/y', true],
    ['/p?q=1', '/p?q=1', true],
    ['/p?q', '/pxq', false],
    ['/[a]', '/[a]', true],
    ['/.*', '/x', false],
  ])('%j matches %j: %s', (pattern, path, expected) => {
    expect(goalPatternMatches(pattern, path)).toBe(expected);
  });

  it('display names and which events meet a goal', () => {
    expect(goalName({ type: 'event', value: 'Signup' })).toBe('Signup');
    expect(goalName({ type: 'page', value: '/thanks*' })).toBe('Visit /thanks*');
    expect(meetsGoal({ type: 'event', value: 'Signup' }, 'event', 'Signup', '/x')).toBe(true);
    expect(meetsGoal({ type: 'event', value: 'Signup' }, 'event', 'signup', '/x')).toBe(false);
    expect(meetsGoal({ type: 'event', value: 'Signup' }, 'pageview', '', 'Signup')).toBe(false);
    expect(meetsGoal({ type: 'page', value: '/thanks*' }, 'pageview', '', '/thanks/a')).toBe(true);
    // A custom event's URL path does not make it a pageview.
    expect(meetsGoal({ type: 'page', value: '/thanks*' }, 'event', 'Signup', '/thanks')).toBe(false);
  });
});
