import { describe, expect, it } from 'vitest';
import { parseProps, PROPS_MESSAGES } from './props.js';

describe('parseProps (properties-goals.md section 1)', () => {
  it('stores strings exactly, numbers and booleans as String() writes them, drops null and empty values', () => {
    expect(parseProps({ plan: 'pro', seats: 3, ratio: 1.5, trial: true, off: false, big: 1e21, coupon: null, note: '', ' Plan ': ' Pro ' })).toEqual({
      ok: true,
      props: [['plan', 'pro'], ['seats', '3'], ['ratio', '1.5'], ['trial', 'true'], ['off', 'false'], ['big', '1e+21'], [' Plan ', ' Pro ']],
    });
    expect(parseProps(undefined)).toEqual({ ok: true, props: [] });
    expect(parseProps(null)).toEqual({ ok: true, props: [] });
    expect(parseProps({})).toEqual({ ok: true, props: [] });
  });

  it('takes 30 entries as sent (dropped ones counted), keys of 1 to 300 and values of up to 2000 characters', () => {
    const thirty = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i < 29 ? 'v' : null]));
    expect(parseProps(thirty)).toMatchObject({ ok: true });
    expect((parseProps(thirty) as { props: unknown[] }).props).toHaveLength(29);
    expect(parseProps({ ...thirty, k30: null })).toEqual({ ok: false, reason: PROPS_MESSAGES.shape });
    expect(parseProps({ ['k'.repeat(300)]: 'v'.repeat(2000) })).toEqual({ ok: true, props: [['k'.repeat(300), 'v'.repeat(2000)]] });
  });

  it.each([
    ['an array', ['a'], PROPS_MESSAGES.shape],
    ['a string', 'plan=pro', PROPS_MESSAGES.shape],
    ['a number', 3, PROPS_MESSAGES.shape],
    ['31 entries', Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 'v'])), PROPS_MESSAGES.shape],
    ['an empty key', { '': 'v' }, PROPS_MESSAGES.entry],
    ['an empty key with a null value', { '': null }, PROPS_MESSAGES.entry],
    ['a key of 301 characters', { ['k'.repeat(301)]: 'v' }, PROPS_MESSAGES.entry],
    ['a value of 2001 characters', { k: 'v'.repeat(2001) }, PROPS_MESSAGES.entry],
    ['an object value', { k: { a: 1 } }, PROPS_MESSAGES.entry],
    ['an array value', { k: ['a'] }, PROPS_MESSAGES.entry],
    ['a non-finite number', { k: Number.NaN }, PROPS_MESSAGES.entry],
  ])('%s is an error', (_, value, reason) => {
    expect(parseProps(value)).toEqual({ ok: false, reason });
  });

  it('the messages are the spec\'s', () => {
    expect(PROPS_MESSAGES.shape).toBe('The props field must be an object of at most 30 properties.');
    expect(PROPS_MESSAGES.entry).toBe('Each property needs a name of 1 to 300 characters and a string, number or boolean value of at most 2000 characters.');
  });

  it('a lone surrogate becomes U+FFFD, as every stored text', () => {
    expect(parseProps(JSON.parse('{"k\\ud800":"a\\udc00b"}'))).toEqual({ ok: true, props: [['k\uFFFD', 'a\uFFFDb']] });
  });
});
