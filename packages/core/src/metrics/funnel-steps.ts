import type { FunnelStepRow } from '../types.js';
import { percentage } from './metrics.js';

/**
 * The rows of `/funnels` (funnels.md section 3) from each step's display name and visitors, in
 * funnel order: `dropoff` from the step before, `dropoff_rate` over the step before's visitors,
 * `conversion_rate` over step 1's, `conversion_rate_step` over the step before's (for step 1:
 * 100 when it has visitors). Rates have one decimal place, halves away from zero; a rate over
 * no visitors is 0.
 *
 * @example
 * funnelSteps(['Visit /pricing', 'signup'], [8, 3]);
 * // [{ step: 'Visit /pricing', visitors: 8, dropoff: 0, dropoff_rate: 0, conversion_rate: 100, conversion_rate_step: 100 },
 * //  { step: 'signup', visitors: 3, dropoff: 5, dropoff_rate: 62.5, conversion_rate: 37.5, conversion_rate_step: 37.5 }]
 */
export function funnelSteps(names: readonly string[], visitors: readonly number[]): FunnelStepRow[] {
  const first = visitors[0] ?? 0;
  return names.map((step, i) => {
    const v = visitors[i] ?? 0;
    if (i === 0) return { step, visitors: v, dropoff: 0, dropoff_rate: 0, conversion_rate: percentage(v, first), conversion_rate_step: v > 0 ? 100 : 0 };
    const previous = visitors[i - 1] ?? 0;
    const dropoff = previous - v;
    return { step, visitors: v, dropoff, dropoff_rate: percentage(dropoff, previous), conversion_rate: percentage(v, first), conversion_rate_step: percentage(v, previous) };
  });
}
