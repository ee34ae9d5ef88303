import { UnsupportedQueryError, ValidationError } from '../errors.js';
import { stepGoal, stepName } from '../funnels/funnel.js';
import { findFunnel } from '../funnels/funnels.js';
import { funnelSteps } from '../metrics/funnel-steps.js';
import { MESSAGES } from '../query/messages.js';
import type { Query } from '../query/parse.js';
import type { Storage } from '../storage/types.js';
import type { ComparedFunnelsResponse, FunnelStep, FunnelsResponse } from '../types.js';
import { importedPlan, readBoth, type ReportOptions, requireCapability, resolveQuery, statsVisitors, withNote } from './resolve.js';

/** Why a funnel leaves imported days out (the body's `imported.reason`). */
export const IMPORTED_REASON = "Funnels follow each session's events in order; imported data has daily totals, no sessions.";

/**
 * `/funnels` (funnels.md section 3): for the saved funnel `query.funnel` or the ad-hoc
 * `query.steps`, each step's visitors (daily distinct visitors of the matching sessions starting
 * in the range that reach it), drop-off and conversion rates, in funnel order, zeros included;
 * `visitors` is the `/stats` visitors of the same query. With `compare`, the compared range's
 * visitors and each step's numbers there (paired by position: a step may appear twice).
 * A name that is not a funnel of the site is a `ValidationError`, checked once the site is found.
 * Imported daily totals never count (they hold no session's events in order): on a site with
 * imported days in the range the body says so in `imported`, as `/goals` does.
 *
 * @example
 * const { steps } = await getFunnel(storage, parseQuery('funnels', { site_id: 'ST-demo', steps: '[{"page":"/pricing"},{"event":"signup"}]' }));
 * // [{ step: 'Visit /pricing', visitors: 120, ... }, { step: 'signup', visitors: 14, dropoff: 106, ... }]
 */
export async function getFunnel(storage: Storage, query: Query, options?: ReportOptions): Promise<FunnelsResponse | ComparedFunnelsResponse> {
  const resolved = await resolveQuery(storage, query, options);
  requireCapability(storage, 'funnels', 'funnels');
  const read = storage.funnelVisitors?.bind(storage);
  if (!read) throw new UnsupportedQueryError(`The ${storage.kind} storage declares funnels but has no funnelVisitors read.`);
  let steps: readonly FunnelStep[];
  if (query.funnel !== undefined) {
    const saved = await findFunnel(storage, resolved.site.id, query.funnel);
    if (!saved) throw new ValidationError(MESSAGES.funnel);
    steps = saved.steps;
  } else {
    steps = query.steps ?? [];
  }
  const plan = await importedPlan(storage, resolved, { kind: 'never', reason: IMPORTED_REASON });
  const goals = steps.map(stepGoal);
  const names = steps.map(stepName);
  const [main, other] = await readBoth(resolved, (range) => Promise.all([read(range, goals, resolved.selection), statsVisitors(storage, range, resolved.selection)]));
  const body: FunnelsResponse = { funnel: query.funnel ?? null, visitors: main[1], steps: funnelSteps(names, main[0]) };
  if (!other) return withNote(body, plan.note);
  const compared = funnelSteps(names, other[0]);
  return withNote({
    ...body,
    steps: body.steps.map((row, i) => {
      const { step: _, ...metrics } = compared[i]!;
      return { ...row, comparison: metrics };
    }),
    comparison: { from: resolved.compared!.from, to: resolved.compared!.to, visitors: other[1] },
  }, plan.note);
}
