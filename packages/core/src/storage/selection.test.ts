import { describe, expect, it } from 'vitest';
import { compileSelection, conditionHolds } from './selection.js';

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
    });
  });
});
