/**
 * Goals (properties-goals.md section 4): what a goal is, its display name, and when an
 * event meets it. One definition: the storage adapters, the tests and the bench's naive
 * scan call `meetsGoal` (or translate `goalPatternMatches` exactly into their SQL).
 */

/**
 * What a goal asks for: a custom event with the name `value` (`event`), or a pageview
 * whose path matches the pattern `value` (`page`; `*` is any run of characters, `/` and
 * none included, every other character only itself, the whole path must match).
 */
export interface GoalDefinition {
  readonly type: 'event' | 'page';
  readonly value: string;
}

/** A goal of a site, as stored. */
export interface Goal extends GoalDefinition {
  readonly siteId: string;
  /** The display name (`goalName`), unique per site. */
  readonly name: string;
  /** Creation instant, ISO 8601. */
  readonly createdAt: string;
}

/** The prefix of a page goal's display name. */
export const PAGE_GOAL_PREFIX = 'Visit ';

/**
 * A goal's display name: the event name, or `Visit ` followed by the pattern.
 * @example goalName({ type: 'page', value: '/thanks*' }) // 'Visit /thanks*'
 */
export function goalName(goal: GoalDefinition): string {
  return goal.type === 'event' ? goal.value : `${PAGE_GOAL_PREFIX}${goal.value}`;
}

/**
 * Whether `path` matches the page pattern: `*` matches any run of characters (`/` and
 * none included), every other character only itself, and the whole path must match.
 * Literal parts are found left to right (the leftmost place of each is never worse).
 *
 * @example goalPatternMatches('/blog/*', '/blog/a/b') // true
 * @example goalPatternMatches('/blog/*', '/blog') // false
 */
export function goalPatternMatches(pattern: string, path: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return path === pattern;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const end = path.length - last.length;
  if (end < first.length || !path.startsWith(first) || !path.endsWith(last)) return false;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const found = path.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Whether an event meets the goal: a custom event with the goal's name (event goal), or a
 * pageview whose path matches the goal's pattern (page goal).
 * @example meetsGoal({ type: 'event', value: 'Signup' }, 'event', 'Signup', '/pricing') // true
 */
export function meetsGoal(goal: GoalDefinition, type: 'pageview' | 'event', name: string, path: string): boolean {
  return goal.type === 'event' ? type === 'event' && name === goal.value : type === 'pageview' && goalPatternMatches(goal.value, path);
}
