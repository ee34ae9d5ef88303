import { compileSelection, type FilterCondition } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { oneValue } from './one-value.js';

const of = (...filters: FilterCondition[]) => oneValue(compileSelection(filters)!);

describe('oneValue: the selections the rollups answer per value', () => {
  it('takes one `is` condition with one value on country, device, browser, OS, channel or source', () => {
    expect(of(['is', 'country', ['DE']])).toEqual({ dimension: 'countryCode', value: 'DE' });
    expect(of(['is', 'device_type', ['Mobile']])).toEqual({ dimension: 'deviceType', value: 'Mobile' });
    expect(of(['is', 'browser', ['Firefox']])).toEqual({ dimension: 'browser', value: 'Firefox' });
    expect(of(['is', 'os', ['iOS']])).toEqual({ dimension: 'os', value: 'iOS' });
    expect(of(['is', 'channel', ['Direct']])).toEqual({ dimension: 'channel', value: 'Direct' });
    expect(of(['is', 'source', ['Google']])).toEqual({ dimension: 'referrerSource', value: 'Google' });
    expect(of(['is', 'country', ['']])).toEqual({ dimension: 'countryCode', value: '' });
  });

  it('leaves every other selection to the filtered reads', () => {
    expect(of(['is', 'country', ['DE', 'GB']])).toBeUndefined(); // a visitor may have sessions of both on one day
    expect(of(['is_not', 'country', ['DE']])).toBeUndefined();
    expect(of(['contains', 'country', ['D']])).toBeUndefined();
    expect(of(['is', 'entry_page', ['/']])).toBeUndefined(); // no visitor counts per entry page
    expect(of(['is', 'utm_source', ['news']])).toBeUndefined(); // kept as one triple
    expect(of(['is', 'country', ['DE']], ['is', 'browser', ['Firefox']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'page', ['/']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'event', ['signup']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'prop:plan', ['pro']])).toBeUndefined();
    expect(of(['is', 'country', ['DE']], ['is', 'goal', ['signup']])).toBeUndefined();
    expect(of(['is', 'page', ['/']])).toBeUndefined();
  });
});
