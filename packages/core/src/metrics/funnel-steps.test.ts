import { describe, expect, it } from 'vitest';
import { funnelSteps } from './funnel-steps.js';

describe('funnel step rows (funnels.md section 3)', () => {
  it('drop-off and conversion rates from the step before and from step 1, one decimal place', () => {
    // 6 -> 4 -> 1: drop-offs 2 and 3; 2/6 = 33.3 %, 3/4 = 75 %; 4/6 = 66.7 %, 1/6 = 16.7 %; 1/4 = 25 %.
    expect(funnelSteps(['Visit /a', 'Visit /b', 'signup'], [6, 4, 1])).toEqual([
      { step: 'Visit /a', visitors: 6, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
      { step: 'Visit /b', visitors: 4, dropoff: 2, dropoff_rate: 33.3, conversion_rate: 66.7, conversion_rate_step: 66.7 },
      { step: 'signup', visitors: 1, dropoff: 3, dropoff_rate: 75, conversion_rate: 16.7, conversion_rate_step: 25 },
    ]);
  });

  it('halves round away from zero: 1/8 = 12.5 %, 1/16 = 6.25 % -> 6.3 %', () => {
    expect(funnelSteps(['a', 'b', 'c'], [16, 2, 1]).map((r) => [r.conversion_rate, r.dropoff_rate])).toEqual([[100, 0], [12.5, 87.5], [6.3, 50]]);
  });

  it('zeros: no visitors at step 1 give 0 everywhere; a step after an empty one has rates of 0', () => {
    expect(funnelSteps(['a', 'b'], [0, 0])).toEqual([
      { step: 'a', visitors: 0, dropoff: 0, dropoff_rate: 0, conversion_rate: 0, conversion_rate_step: 0 },
      { step: 'b', visitors: 0, dropoff: 0, dropoff_rate: 0, conversion_rate: 0, conversion_rate_step: 0 },
    ]);
    expect(funnelSteps(['a', 'b', 'c'], [3, 0, 0])[2]).toEqual({ step: 'c', visitors: 0, dropoff: 0, dropoff_rate: 0, conversion_rate: 0, conversion_rate_step: 0 });
  });
});
