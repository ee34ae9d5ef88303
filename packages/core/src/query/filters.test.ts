import { describe, expect, it } from 'vitest';
import { MAX_FILTERS_LENGTH, MESSAGES } from './messages.js';
import { parseQuery, type RawParams } from './parse.js';
import { failure } from './test-helpers.js';

const fails = failure;
const filters = (value: unknown) => ({ site_id: 'ST-a', filters: typeof value === 'string' ? value : JSON.stringify(value) });
const value = (n: number) => 'v'.repeat(n);

describe('filters, compare and interval (query-extensions.md section 4)', () => {
  it('reads filters, compare and interval; an empty filter array is no filter', () => {
    const q = parseQuery('timeseries', { ...filters([['is', 'country', ['DE', 'AT']], ['contains_not', 'page', ['/admin']]]), compare: 'year_over_year', interval: 'week' });
    expect(q).toMatchObject({ filters: [['is', 'country', ['DE', 'AT']], ['contains_not', 'page', ['/admin']]], compare: 'year_over_year', interval: 'week' });
    expect(parseQuery('stats', filters([])).filters).toEqual([]);
    expect(parseQuery('stats', { site_id: 'ST-a' })).toMatchObject({ filters: [], compare: undefined, interval: 'day' });
    // The empty string matches an unset UTM field; 20 values of 500 characters and 10 conditions are the limits.
    const most = Array.from({ length: 10 }, () => ['is', 'utm_source', [...Array.from({ length: 19 }, () => value(500)), '']]);
    expect(parseQuery('events', filters(most)).filters).toHaveLength(10);
  });

  it.each([
    ['', MESSAGES.filtersShape],
    ['not json', MESSAGES.filtersShape],
    ['{"is":"country"}', MESSAGES.filtersShape],
    ['"[]"', MESSAGES.filtersShape],
    [[['is', 'country']], MESSAGES.filtersShape],
    [[['is', 'country', ['DE'], 'extra']], MESSAGES.filtersShape],
    [[['is', 'country', 'DE']], MESSAGES.filtersShape],
    [[[1, 'country', ['DE']]], MESSAGES.filtersShape],
    [[{ op: 'is' }], MESSAGES.filtersShape],
    [[['equals', 'country', ['DE']]], MESSAGES.filterOperator],
    [[['IS', 'country', ['DE']]], MESSAGES.filterOperator],
    [[['is', 'Country', ['DE']]], MESSAGES.filterDimension],
    [[['is', 'hostname', ['DE']]], MESSAGES.filterDimension],
    [[['is', 'country', []]], MESSAGES.filterValues],
    [[['is', 'country', [1]]], MESSAGES.filterValues],
    [[['is', 'country', [null]]], MESSAGES.filterValues],
    [[['is', 'country', Array.from({ length: 21 }, () => 'DE')]], MESSAGES.filterValues],
    [[['is', 'page', [value(501)]]], MESSAGES.filterValues],
    [Array.from({ length: 11 }, () => ['is', 'country', ['DE']]), MESSAGES.filtersCount],
  ])('filters=%j -> %s', (input, message) => {
    expect(fails('stats', filters(input))).toBe(message);
  });

  it('checks the conditions in order, each by its rules top to bottom, then their number', () => {
    // The first condition fails the dimension rule, the second the operator rule: the first failing condition wins.
    expect(fails('stats', filters([['is', 'nope', ['x']], ['nope', 'country', ['x']]]))).toBe(MESSAGES.filterDimension);
    // Operator and dimension both wrong in one condition: the operator rule comes first.
    expect(fails('stats', filters([['nope', 'nope', []]]))).toBe(MESSAGES.filterOperator);
    // A malformed condition after a wrong operator: the wrong operator comes first.
    expect(fails('stats', filters([['nope', 'country', ['x']], ['is']]))).toBe(MESSAGES.filterOperator);
    // Eleven conditions, the eleventh with an unknown dimension: the condition rules come before the count.
    expect(fails('stats', filters([...Array.from({ length: 10 }, () => ['is', 'country', ['DE']]), ['is', 'x', ['y']]]))).toBe(MESSAGES.filterDimension);
  });

  it('bounds the filters text: longer than any compact valid filter fails the first rule before parsing', () => {
    const longest = JSON.stringify(Array.from({ length: 10 }, () => ['contains_not', 'utm_campaign', Array.from({ length: 20 }, () => '\\u0000'.repeat(500))]))
      .replaceAll('\\\\u0000', '\\u0000');
    expect(longest.length).toBeLessThanOrEqual(MAX_FILTERS_LENGTH);
    expect(parseQuery('stats', filters(longest)).filters[0]![2][0]).toBe('\u0000'.repeat(500));
    expect(fails('stats', filters(`${' '.repeat(MAX_FILTERS_LENGTH)}[]`))).toBe(MESSAGES.filtersShape);
  });

  it('compare and interval values; each given twice fails its own rule', () => {
    expect(fails('stats', { site_id: 'ST-a', compare: 'last_year' })).toBe(MESSAGES.compare);
    expect(fails('stats', { site_id: 'ST-a', compare: '' })).toBe(MESSAGES.compare);
    expect(fails('stats', { site_id: 'ST-a', compare: ['previous_period', 'previous_period'] })).toBe(MESSAGES.compare);
    expect(fails('stats', { site_id: 'ST-a', filters: ['[]', '[]'] })).toBe(MESSAGES.filtersShape);
    expect(fails('timeseries', { site_id: 'ST-a', interval: 'minute' })).toBe(MESSAGES.interval);
    expect(fails('timeseries', { site_id: 'ST-a', interval: ['day', 'day'] })).toBe(MESSAGES.interval);
    for (const interval of ['day', 'week', 'month'] as const) expect(parseQuery('timeseries', { site_id: 'ST-a', interval }).interval).toBe(interval);
  });

  it('interval=hour takes ranges of at most 7 days (the default 30 days is too long)', () => {
    expect(parseQuery('timeseries', { site_id: 'ST-a', interval: 'hour', from: '2026-11-01', to: '2026-11-07' }).interval).toBe('hour');
    expect(parseQuery('timeseries', { site_id: 'ST-a', interval: 'hour', period: '7d' }).interval).toBe('hour');
    expect(parseQuery('timeseries', { site_id: 'ST-a', interval: 'hour', period: '1d' }).interval).toBe('hour');
    expect(fails('timeseries', { site_id: 'ST-a', interval: 'hour', from: '2026-11-01', to: '2026-11-08' })).toBe(MESSAGES.hourRange);
    expect(fails('timeseries', { site_id: 'ST-a', interval: 'hour' })).toBe(MESSAGES.hourRange);
    expect(fails('timeseries', { site_id: 'ST-a', interval: 'hour', period: '30d' })).toBe(MESSAGES.hourRange);
  });

  it('order: after period, filters, compare, interval, before the endpoint parameters', () => {
    const all = { site_id: 'ST-a', period: '7d', filters: 'x', compare: 'x', interval: 'x', limit: 'x' };
    expect(fails('pages', { ...all, period: 'x' })).toBe(MESSAGES.period);
    expect(fails('pages', all)).toBe(MESSAGES.filtersShape);
    expect(fails('pages', { ...all, filters: '[]' })).toBe(MESSAGES.compare);
    expect(fails('timeseries', { ...all, filters: '[]', compare: 'previous_period' })).toBe(MESSAGES.interval);
    expect(fails('pages', { ...all, filters: '[]', compare: 'previous_period' })).toBe(MESSAGES.limitInteger);
    expect(fails('timeseries', { site_id: 'ST-a', from: 'x', to: 'y', filters: 'x' })).toBe(MESSAGES.dateFormat('from'));
  });

  it('ignores interval outside /stats/timeseries and all three on /live', () => {
    expect(parseQuery('stats', { site_id: 'ST-a', interval: 'x' }).interval).toBe('day');
    expect(parseQuery('pages', { site_id: 'ST-a', interval: 'hour' }).interval).toBe('day');
    expect(parseQuery('live', { site_id: 'ST-a', filters: 'x', compare: 'x', interval: 'x' })).toMatchObject({ filters: [], compare: undefined, interval: 'day' });
  });
});
