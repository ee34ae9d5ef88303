import { describe, expect, it } from 'vitest';
import { MAX_FILTERS_LENGTH, MESSAGES } from './messages.js';
import { parseQuery, type RawParams } from './parse.js';
import { failure } from './test-helpers.js';

const fails = failure;
const site = { site_id: 'ST-a' };
const filters = (value: unknown) => ({ ...site, filters: JSON.stringify(value) });

describe('/properties and /goals parameters (properties-goals.md section 2)', () => {
  it('reads name, property and limit; /goals takes none of them', () => {
    expect(parseQuery('properties', { ...site, name: 'Signup' })).toMatchObject({ name: 'Signup', property: undefined, limit: 20 });
    expect(parseQuery('properties', { ...site, name: 'Signup', property: 'plan', limit: '5' })).toMatchObject({ name: 'Signup', property: 'plan', limit: 5 });
    expect(parseQuery('properties', { ...site, name: 'x'.repeat(200), property: 'k'.repeat(300) })).toMatchObject({ property: 'k'.repeat(300) });
    expect(parseQuery('goals', { ...site, name: '', property: '', limit: 'x' })).toMatchObject({ name: undefined, property: undefined, limit: 20 });
    // Other endpoints ignore property.
    expect(parseQuery('events', { ...site, property: '' }).property).toBeUndefined();
  });

  it.each([
    [{}, MESSAGES.nameRequired],
    [{ name: '' }, MESSAGES.nameRequired],
    [{ name: ['a', 'b'] }, MESSAGES.nameRequired],
    [{ name: 'x'.repeat(201) }, MESSAGES.name],
    [{ name: 'Signup', property: '' }, MESSAGES.property],
    [{ name: 'Signup', property: 'k'.repeat(301) }, MESSAGES.property],
    [{ name: 'Signup', property: ['a', 'a'] }, MESSAGES.property],
    [{ name: 'Signup', limit: '0' }, MESSAGES.limitRange],
    [{ name: 'Signup', limit: 'many' }, MESSAGES.limitInteger],
  ])('/properties %j -> %s', (params, message) => {
    expect(fails('properties', { ...site, ...params } as RawParams)).toBe(message);
  });

  it('checks in order: filters and compare first, then name, property, limit', () => {
    expect(MESSAGES.nameRequired).toBe('The name field is required.');
    expect(MESSAGES.property).toBe('The property field must be between 1 and 300 characters.');
    const bad = { name: '', property: '', limit: 'x' };
    expect(fails('properties', { ...site, ...bad, filters: 'x' })).toBe(MESSAGES.filtersShape);
    expect(fails('properties', { ...site, ...bad, compare: 'x' })).toBe(MESSAGES.compare);
    expect(fails('properties', { ...site, ...bad })).toBe(MESSAGES.nameRequired);
    expect(fails('properties', { ...site, ...bad, name: 'x'.repeat(201) })).toBe(MESSAGES.name);
    expect(fails('properties', { ...site, ...bad, name: 'Signup' })).toBe(MESSAGES.property);
    expect(fails('properties', { ...site, ...bad, name: 'Signup', property: 'plan' })).toBe(MESSAGES.limitInteger);
    expect(fails('properties', { ...site, ...bad, period: 'x' })).toBe(MESSAGES.period);
  });
});

describe('filter dimensions prop:<key> and goal (properties-goals.md sections 3 and 4)', () => {
  it('accepts prop: with a key of 1 to 300 characters, any characters, and goal', () => {
    const key = `${'k'.repeat(298)}\n:`;
    expect(parseQuery('stats', filters([['is', `prop:${key}`, ['pro']], ['is_not', 'goal', ['Visit /thanks*']], ['is', 'prop:plan', ['']]])).filters).toEqual([
      ['is', `prop:${key}`, ['pro']],
      ['is_not', 'goal', ['Visit /thanks*']],
      ['is', 'prop:plan', ['']],
    ]);
  });

  it.each([['prop:'], ['prop'], [`prop:${'k'.repeat(301)}`], ['Prop:plan'], ['props:plan'], ['Goal'], ['goals']])('dimension %j is invalid', (dimension) => {
    expect(fails('stats', filters([['is', dimension, ['x']]]))).toBe(MESSAGES.filterDimension);
  });

  it('keeps the order of the rules: operator before dimension, values after', () => {
    expect(fails('stats', filters([['nope', 'prop:', ['x']]]))).toBe(MESSAGES.filterOperator);
    expect(fails('stats', filters([['is', 'prop:plan', []]]))).toBe(MESSAGES.filterValues);
  });

  it('the filters text bound leaves room for ten conditions on the longest key, every character escaped', () => {
    const key = '\u0001'.repeat(300);
    const value = '\u0001'.repeat(500);
    const longest = JSON.stringify(Array.from({ length: 10 }, () => ['contains_not', `prop:${key}`, Array.from({ length: 20 }, () => value)]))
      .replaceAll('prop:', '\\u0070\\u0072\\u006f\\u0070\\u003a');
    expect(longest.length).toBeLessThanOrEqual(MAX_FILTERS_LENGTH);
    expect(parseQuery('stats', { ...site, filters: longest }).filters[9]![1]).toBe(`prop:${key}`);
  });
});
