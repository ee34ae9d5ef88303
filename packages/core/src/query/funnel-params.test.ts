import { describe, expect, it } from 'vitest';
import { MAX_FUNNEL_NAME_LENGTH, MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from '../funnels/funnel.js';
import { MAX_STEPS_LENGTH } from './funnel-params.js';
import { MESSAGES } from './messages.js';
import { parseQuery, type RawParams } from './parse.js';
import { failure } from './test-helpers.js';

const site = { site_id: 'ST-a' };
const steps = (value: unknown) => ({ ...site, steps: typeof value === 'string' ? value : JSON.stringify(value) });

describe('/funnels parameters (funnels.md section 3)', () => {
  it('reads a saved funnel\'s name or ad-hoc steps; other endpoints ignore both', () => {
    expect(parseQuery('funnels', { ...site, funnel: 'Pricing to signup' })).toMatchObject({ funnel: 'Pricing to signup', steps: undefined });
    expect(parseQuery('funnels', steps([{ page: '/pricing' }, { event: 'signup' }]))).toMatchObject({ funnel: undefined, steps: [{ page: '/pricing' }, { event: 'signup' }] });
    // The same step twice, the bounds exactly, text kept as sent (spaces, case, * and other characters).
    const long = [{ page: 'p'.repeat(500) }, { event: 'e'.repeat(200) }, { page: ' /A*b?' }, { page: ' /A*b?' }];
    expect(parseQuery('funnels', steps(long)).steps).toEqual(long);
    expect(parseQuery('funnels', { ...site, funnel: 'f'.repeat(MAX_FUNNEL_NAME_LENGTH) }).funnel).toHaveLength(120);
    expect(parseQuery('stats', { ...site, funnel: '', steps: 'x' })).toMatchObject({ funnel: undefined, steps: undefined });
    // Lone surrogates become U+FFFD, as every store keeps text.
    expect(parseQuery('funnels', steps('[{"page":"/a\\ud800"},{"event":"x"}]')).steps).toEqual([{ page: '/a\ufffd' }, { event: 'x' }]);
    expect([MIN_FUNNEL_STEPS, MAX_FUNNEL_STEPS]).toEqual([2, 8]); // the numbers of MESSAGES.steps
  });

  it.each([
    [{}, MESSAGES.funnelOrSteps],
    [{ funnel: 'A', steps: '[]' }, MESSAGES.funnelOrSteps],
    [{ funnel: '', steps: '' }, MESSAGES.funnelOrSteps],
    [{ funnel: '' }, MESSAGES.funnel],
    [{ funnel: 'f'.repeat(121) }, MESSAGES.funnel],
    [{ funnel: ['A', 'A'] }, MESSAGES.funnel],
    [{ steps: '' }, MESSAGES.steps],
    [{ steps: 'nope' }, MESSAGES.steps],
    [{ steps: '{"page":"/a"}' }, MESSAGES.steps],
    [{ steps: '[{"page":"/a"}]' }, MESSAGES.steps],
    [{ steps: JSON.stringify(Array(9).fill({ page: '/a' })) }, MESSAGES.steps],
    [{ steps: JSON.stringify(Array(9).fill(1)) }, MESSAGES.steps],
    [{ steps: ['[{"page":"/a"},{"page":"/b"}]', '[{"page":"/a"},{"page":"/b"}]'] }, MESSAGES.steps],
    [{ steps: ' '.repeat(MAX_STEPS_LENGTH + 1) }, MESSAGES.steps],
    [{ steps: '[{"page":"/a"},{"page":""}]' }, MESSAGES.step],
    [{ steps: JSON.stringify([{ page: '/a' }, { page: 'p'.repeat(501) }]) }, MESSAGES.step],
    [{ steps: JSON.stringify([{ page: '/a' }, { event: 'e'.repeat(201) }]) }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},{"event":""}]' }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},{"page":"/b","event":"x"}]' }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},{"goal":"x"}]' }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},{"page":3}]' }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},"/b"]' }, MESSAGES.step],
    [{ steps: '[{"page":"/a"},null]' }, MESSAGES.step],
  ])('%j -> %s', (params, message) => {
    expect(failure('funnels', { ...site, ...params } as RawParams)).toBe(message);
  });

  it('checks the common parameters, filters and compare first, then funnel and steps, then format', () => {
    expect(MESSAGES.funnelOrSteps).toBe('Either the funnel or the steps field is required.');
    expect(MESSAGES.funnel).toBe('The selected funnel is invalid.');
    expect(MESSAGES.steps).toBe('The steps field must be a JSON array of 2 to 8 steps.');
    expect(MESSAGES.step).toBe('Each step must be {"page": <pattern>} or {"event": <name>}.');
    expect(failure('funnels', { site_id: 'x' })).toBe(MESSAGES.siteIdFormat);
    expect(failure('funnels', { ...site, from: '2026-13-01' })).toBe(MESSAGES.dateFormat('from'));
    expect(failure('funnels', { ...site, filters: 'x' })).toBe(MESSAGES.filtersShape);
    expect(failure('funnels', { ...site, compare: 'x' })).toBe(MESSAGES.compare);
    expect(failure('funnels', { ...site, format: 'xml' })).toBe(MESSAGES.funnelOrSteps);
    expect(failure('funnels', { ...site, funnel: 'A', format: 'xml' })).toBe(MESSAGES.format);
    // interval is not a /funnels parameter: ignored.
    expect(parseQuery('funnels', { ...site, funnel: 'A', interval: 'minute', format: 'csv' })).toMatchObject({ interval: 'day', format: 'csv' });
  });
});
