import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import { parseQuery, type RawParams } from './parse.js';
import { failure } from './test-helpers.js';

const fails = failure;

describe('parseQuery', () => {
  it('applies defaults', () => {
    expect(parseQuery('pages', { site_id: 'ST-abc1' })).toEqual({
      siteId: 'ST-abc1', dates: { period: '30d' }, limit: 20, breakdown: 'device_type', name: undefined, property: undefined, filters: [], compare: undefined, interval: 'day', format: 'json', imported: 'include',
    });
  });

  it('reads every parameter', () => {
    const q = new URLSearchParams('site_id=ST-x&from=2026-01-01&to=2026-01-31&limit=100&breakdown=os&name=signup&period=7d&foo=bar');
    expect(parseQuery('pages', q)).toMatchObject({ dates: { from: '2026-01-01', to: '2026-01-31' }, limit: 100, breakdown: 'device_type' });
    expect(parseQuery('devices', q)).toMatchObject({ breakdown: 'os', limit: 20 });
    expect(parseQuery('events', q)).toMatchObject({ name: 'signup' });
    expect(parseQuery('stats', { site_id: 'ST-x', period: '1d' }).dates).toEqual({ period: '1d' });
  });

  it.each([
    [{}, MESSAGES.siteIdRequired],
    [{ site_id: '' }, MESSAGES.siteIdRequired],
    [{ site_id: 'abc' }, MESSAGES.siteIdFormat],
    [{ site_id: 'ST-' }, MESSAGES.siteIdFormat],
    [{ site_id: 'ST-ab_c' }, MESSAGES.siteIdFormat],
    [{ site_id: 'st-abc' }, MESSAGES.siteIdFormat],
    [{ site_id: `ST-${'a'.repeat(100)}` }, MESSAGES.siteIdFormat],
    [{ site_id: ['ST-a', 'ST-a'] }, MESSAGES.siteIdFormat],
    [{ site_id: 'ST-a', from: '2026-02-30', to: '2026-03-01' }, 'The from field must be a valid date in the format YYYY-MM-DD.'],
    [{ site_id: 'ST-a', from: '2026-2-3', to: '2026-03-01' }, 'The from field must be a valid date in the format YYYY-MM-DD.'],
    [{ site_id: 'ST-a', from: '', to: '2026-03-01' }, 'The from field must be a valid date in the format YYYY-MM-DD.'],
    [{ site_id: 'ST-a', from: '2026-03-01', to: 'tomorrow' }, 'The to field must be a valid date in the format YYYY-MM-DD.'],
    [{ site_id: 'ST-a', from: ['2026-03-01', '2026-03-02'], to: '2026-03-05' }, 'The from field must be a valid date in the format YYYY-MM-DD.'],
    [{ site_id: 'ST-a', from: '2026-03-01' }, 'The to field is required when from is present.'],
    [{ site_id: 'ST-a', to: '2026-03-01' }, 'The from field is required when to is present.'],
    [{ site_id: 'ST-a', from: '2026-03-02', to: '2026-03-01' }, 'The to field must be a date after or equal to from.'],
    [{ site_id: 'ST-a', from: '2016-01-01', to: '2026-01-08' }, 'The date range may not be longer than 3660 days.'],
    [{ site_id: 'ST-a', period: '2d' }, 'The selected period is invalid.'],
    [{ site_id: 'ST-a', period: ['7d', '1d'] }, 'The selected period is invalid.'],
  ])('stats %j -> %s', (params, message) => {
    expect(fails('stats', params as RawParams)).toBe(message);
  });

  it('reads format: json or csv, anything else (or given twice) is 422; /live ignores it', () => {
    expect(parseQuery('pages', { site_id: 'ST-a', format: 'csv' }).format).toBe('csv');
    expect(parseQuery('stats', { site_id: 'ST-a', format: 'json' }).format).toBe('json');
    expect(fails('pages', { site_id: 'ST-a', format: 'xml' })).toBe('The selected format is invalid. Use json or csv.');
    expect(fails('stats', { site_id: 'ST-a', format: 'CSV' })).toBe(MESSAGES.format);
    expect(fails('stats', { site_id: 'ST-a', format: ['csv', 'csv'] })).toBe(MESSAGES.format);
    expect(parseQuery('live', { site_id: 'ST-a', format: 'xml' }).format).toBe('json');
    // /properties and /goals too; format is checked last, after /properties' own name.
    expect(parseQuery('properties', { site_id: 'ST-a', name: 'Signup', format: 'csv' }).format).toBe('csv');
    expect(parseQuery('goals', { site_id: 'ST-a', format: 'csv' }).format).toBe('csv');
    expect(fails('properties', { site_id: 'ST-a', name: 'Signup', format: 'xml' })).toBe(MESSAGES.format);
    expect(fails('properties', { site_id: 'ST-a', format: 'xml' })).toBe('The name field is required.');
  });

  it('accepts exactly 3660 days', () => {
    expect(parseQuery('stats', { site_id: 'ST-a', from: '2016-01-01', to: '2026-01-07' }).dates).toEqual({ from: '2016-01-01', to: '2026-01-07' });
    expect(parseQuery('stats', { site_id: 'ST-a', from: '2026-01-07', to: '2026-01-07' }).dates).toEqual({ from: '2026-01-07', to: '2026-01-07' });
  });

  it('checks in order: site_id, from, to, period, endpoint parameters', () => {
    expect(fails('pages', { from: 'x', period: 'y', limit: 'z' })).toBe(MESSAGES.siteIdRequired);
    expect(fails('pages', { site_id: 'ST-a', from: 'x', to: 'y', period: 'y', limit: 'z' })).toBe(MESSAGES.dateFormat('from'));
    expect(fails('pages', { site_id: 'ST-a', from: '2026-01-01', to: 'y', period: 'y' })).toBe(MESSAGES.dateFormat('to'));
    expect(fails('pages', { site_id: 'ST-a', period: 'y', limit: 'z' })).toBe(MESSAGES.period);
    expect(fails('pages', { site_id: 'ST-a', from: '2026-01-01', to: '2026-01-02', period: 'y' })).toBe(MESSAGES.period);
  });

  it.each([
    ['abc', MESSAGES.limitInteger],
    ['1.5', MESSAGES.limitInteger],
    ['', MESSAGES.limitInteger],
    ['1e2', MESSAGES.limitInteger],
    ['0', MESSAGES.limitRange],
    ['101', MESSAGES.limitRange],
    ['-5', MESSAGES.limitRange],
    ['99999999999', MESSAGES.limitRange],
  ])('limit=%j -> %s', (limit, message) => {
    expect(fails('pages', { site_id: 'ST-a', limit })).toBe(message);
  });

  it('limit bounds 1 and 100 are accepted', () => {
    expect(parseQuery('pages', { site_id: 'ST-a', limit: '1' }).limit).toBe(1);
    expect(parseQuery('pages', { site_id: 'ST-a', limit: '100' }).limit).toBe(100);
  });

  it('breakdown and name', () => {
    expect(fails('devices', { site_id: 'ST-a', breakdown: 'country' })).toBe(MESSAGES.breakdown);
    expect(fails('devices', { site_id: 'ST-a', breakdown: ['os', 'os'] })).toBe(MESSAGES.breakdown);
    expect(fails('events', { site_id: 'ST-a', name: '' })).toBe(MESSAGES.name);
    expect(fails('events', { site_id: 'ST-a', name: 'x'.repeat(201) })).toBe(MESSAGES.name);
    expect(parseQuery('events', { site_id: 'ST-a', name: 'x'.repeat(200) }).name).toHaveLength(200);
  });

  it('ignores parameters that do not belong to the endpoint, and /live ignores dates', () => {
    expect(parseQuery('stats', { site_id: 'ST-a', limit: 'x', breakdown: 'y', name: '' }).limit).toBe(20);
    expect(parseQuery('live', { site_id: 'ST-a', from: 'garbage', to: '2026-13-45', period: 'x' })).toMatchObject({ siteId: 'ST-a' });
    expect(fails('live', { from: 'garbage' })).toBe(MESSAGES.siteIdRequired);
  });

  it('imported: include (default) or exclude, checked after interval and before the endpoint\'s own parameters; /live ignores it', () => {
    expect(parseQuery('stats', { site_id: 'ST-a', imported: 'exclude' }).imported).toBe('exclude');
    expect(parseQuery('stats', { site_id: 'ST-a', imported: 'include' }).imported).toBe('include');
    expect(fails('stats', { site_id: 'ST-a', imported: 'none' })).toBe('The selected imported is invalid.');
    expect(fails('stats', { site_id: 'ST-a', imported: ['exclude', 'exclude'] })).toBe('The selected imported is invalid.');
    expect(fails('timeseries', { site_id: 'ST-a', interval: 'minute', imported: 'none' })).toBe(MESSAGES.interval);
    expect(fails('pages', { site_id: 'ST-a', imported: 'none', limit: '0' })).toBe('The selected imported is invalid.');
    expect(parseQuery('live', { site_id: 'ST-a', imported: 'none' }).imported).toBe('include');
  });
});
