/**
 * Funnels (funnels.md sections 1 and 2): what a step is, its display name, and how far a
 * session gets through a chain of steps. A step is met exactly as the goal with the same
 * definition is (`meetsGoal`, goals/goal.ts): the stores take a funnel's steps as goal
 * definitions, and call `stepsReached` (or translate it exactly) for each session.
 */
import { type GoalDefinition, goalName, meetsGoal } from '../goals/goal.js';
import type { GoalEvent } from '../storage/selection.js';
import type { FunnelStep } from '../types.js';

/** A funnel saved for a site (funnels.md section 4). */
export interface Funnel {
  readonly siteId: string;
  /** 1 to 120 characters, unique within the site. */
  readonly name: string;
  /** 2 to 8 steps, in order; the funnel's own definitions (deleting a goal changes none). */
  readonly steps: readonly FunnelStep[];
  /** Creation instant, ISO 8601. */
  readonly createdAt: string;
}

/** Steps a funnel has at least and at most. */
export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 8;
/** Funnels a site keeps at most. */
export const MAX_FUNNELS = 20;
/** Longest funnel name, in characters. */
export const MAX_FUNNEL_NAME_LENGTH = 120;

/**
 * The goal with the step's definition: what meets the one meets the other.
 * @example stepGoal({ page: '/pricing' }) // { type: 'page', value: '/pricing' }
 */
export function stepGoal(step: FunnelStep): GoalDefinition {
  return 'page' in step ? { type: 'page', value: step.page } : { type: 'event', value: step.event };
}

/**
 * A step as the API and the dashboard show it: the display name of the goal with its definition.
 * @example stepName({ page: '/pricing' }) // 'Visit /pricing'
 * @example stepName({ event: 'signup' }) // 'signup'
 */
export function stepName(step: FunnelStep): string {
  return goalName(stepGoal(step));
}

/** A session's event as a funnel reads it: what it is, and where it stands in the order the session's events were recorded. */
export interface FunnelEvent extends GoalEvent {
  ts: number;
  seq: number;
}

/** Record order: by `ts`, then `seq`. */
export const recordOrder = (a: FunnelEvent, b: FunnelEvent): number => a.ts - b.ts || a.seq - b.seq;

/**
 * How many of `steps` one session reaches (funnels.md section 2): the largest k for which
 * it has events e1, ..., ek in strictly increasing `(ts, seq)` order with ei meeting step i,
 * other events standing anywhere between them. Given the session's events in any order
 * (all of them, whatever their day or the filters).
 *
 * Taking, for each step in turn, the first event after the one taken for the step before
 * that meets it is never worse than any other choice (its `(ts, seq)` is at most any other
 * chain's at that step), so one pass over the events in record order finds the largest k.
 * An event is taken for one step at most; two events with the same `ts` and `seq` are never
 * both in a chain (neither comes after the other).
 *
 * @example
 * stepsReached([{ type: 'page', value: '/a' }, { type: 'page', value: '/b' }], [
 *   { type: 'pageview', name: '', path: '/b', ts: 1, seq: 1 },
 *   { type: 'pageview', name: '', path: '/a', ts: 2, seq: 2 },
 * ]); // 1: /b came before /a
 */
export function stepsReached(steps: readonly GoalDefinition[], events: readonly FunnelEvent[]): number {
  let reached = 0;
  let taken: FunnelEvent | undefined;
  for (const e of [...events].sort(recordOrder)) {
    if (reached === steps.length) break;
    if (taken && e.ts === taken.ts && e.seq === taken.seq) continue;
    if (meetsGoal(steps[reached]!, e.type, e.name, e.path)) {
      reached++;
      taken = e;
    }
  }
  return reached;
}
