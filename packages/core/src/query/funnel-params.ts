import { ValidationError } from '../errors.js';
import { MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from '../funnels/funnel.js';
import { MAX_GOAL_PATTERN_LENGTH } from '../goals/goals.js';
import { wellFormed } from '../props/text.js';
import type { FunnelStep } from '../types.js';
import { MESSAGES } from './messages.js';
import { funnelNameSchema, funnelStepSchema } from './schema.js';

/**
 * Longest `steps` text read: every valid list written as compact JSON fits, even with every
 * character of every pattern escaped as `\uXXXX` (6 characters each). A longer text fails the
 * first rule about steps without being parsed.
 */
export const MAX_STEPS_LENGTH = 2 + MAX_FUNNEL_STEPS * (12 + 6 * MAX_GOAL_PATTERN_LENGTH + 1);

/** What `/funnels` reads besides the common parameters: a saved funnel's name, or ad-hoc steps. */
export type FunnelChoice = { funnel: string; steps: undefined } | { funnel: undefined; steps: FunnelStep[] };

/**
 * The `funnel` and `steps` parameters of `/funnels` (funnels.md section 3), checked in the
 * spec's order: exactly one of them (given at all, empty included); a `funnel` name that no
 * funnel can have (empty, over 120 characters, given twice) is not a saved one; `steps` a
 * JSON array of 2 to 8 steps, each `{"page": <pattern>}` or `{"event": <name>}` in bounds.
 * Whether a well-formed name is a funnel of the site is checked once the site is known
 * (`getFunnel`). Lone UTF-16 surrogates in a step become U+FFFD, as every store keeps them.
 *
 * @example
 * readFunnelChoice(['Signup'], undefined) // { funnel: 'Signup', steps: undefined }
 * readFunnelChoice(undefined, ['[{"page":"/pricing"},{"event":"signup"}]']) // { funnel: undefined, steps: [{ page: '/pricing' }, { event: 'signup' }] }
 */
export function readFunnelChoice(funnel: readonly string[] | undefined, steps: readonly string[] | undefined): FunnelChoice {
  if ((funnel === undefined) === (steps === undefined)) throw new ValidationError(MESSAGES.funnelOrSteps);
  if (funnel !== undefined) {
    const name = funnelNameSchema.safeParse(funnel.length > 1 ? '' : funnel[0]);
    if (!name.success) throw new ValidationError(MESSAGES.funnel);
    return { funnel: name.data, steps: undefined };
  }
  return { funnel: undefined, steps: parseSteps(steps!.length > 1 ? '' : steps![0]!) };
}

/** A step with lone UTF-16 surrogates in its text replaced by U+FFFD. */
export const wellFormedStep = (step: FunnelStep): FunnelStep => ('page' in step ? { page: wellFormed(step.page) } : { event: wellFormed(step.event) });

/**
 * The steps of a JSON text, or `ValidationError` with the first failing rule.
 * @example parseSteps('[{"page":"/docs*"},{"event":"download"}]') // [{ page: '/docs*' }, { event: 'download' }]
 */
export function parseSteps(text: string): FunnelStep[] {
  if (text.length > MAX_STEPS_LENGTH) throw new ValidationError(MESSAGES.steps);
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    throw new ValidationError(MESSAGES.steps);
  }
  if (!Array.isArray(decoded) || decoded.length < MIN_FUNNEL_STEPS || decoded.length > MAX_FUNNEL_STEPS) throw new ValidationError(MESSAGES.steps);
  return decoded.map((item) => {
    const step = funnelStepSchema.safeParse(item);
    if (!step.success) throw new ValidationError(MESSAGES.step);
    return wellFormedStep(step.data);
  });
}
