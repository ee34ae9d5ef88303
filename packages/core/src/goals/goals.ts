/**
 * Goal management in the library (properties-goals.md section 4): goals are site
 * settings, created, listed and deleted here (and by `siteline goals`), never through an
 * API key. The rules live here once; a storage only keeps what it is given.
 */
import { GoalError, SiteNotFoundError, UnsupportedQueryError } from '../errors.js';
import { compareBytes } from '../metrics/order.js';
import { MAX_EVENT_NAME_LENGTH } from '../query/messages.js';
import { wellFormed } from '../props/text.js';
import type { Storage } from '../storage/types.js';
import { type Goal, type GoalDefinition, goalName } from './goal.js';

/** A site has at most this many goals. */
export const MAX_GOALS = 100;
/** Longest page goal pattern, in characters. */
export const MAX_GOAL_PATTERN_LENGTH = 500;

/** Why a goal is refused, written once; the command prints them. */
export const GOAL_MESSAGES = {
  event: `An event goal needs an event name of 1 to ${MAX_EVENT_NAME_LENGTH} characters.`,
  page: `A page goal needs a path pattern of 1 to ${MAX_GOAL_PATTERN_LENGTH} characters.`,
  pageSlash: 'A page goal\'s pattern starts with / (such as /thanks or /blog/*): every recorded path does, so any other pattern could never match.',
  tooMany: `A site has at most ${MAX_GOALS} goals; delete one first.`,
  taken: (name: string) => `The site already has a goal named ${JSON.stringify(name)}.`,
  missing: (name: string) => `The site has no goal named ${JSON.stringify(name)}.`,
} as const;

/** The storage's goal methods, or an error naming the capability it lacks. */
function goalStore(storage: Storage): Required<Pick<Storage, 'insertGoal' | 'listGoals' | 'deleteGoal'>> {
  const { insertGoal, listGoals, deleteGoal } = storage;
  if (storage.capabilities?.goals !== true || !insertGoal || !listGoals || !deleteGoal) {
    throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement goals (Storage.capabilities.goals).`);
  }
  return { insertGoal: insertGoal.bind(storage), listGoals: listGoals.bind(storage), deleteGoal: deleteGoal.bind(storage) };
}

async function existingSite(storage: Storage, siteId: string): Promise<void> {
  if (!(await storage.getSite(siteId))) throw new SiteNotFoundError();
}

/**
 * The site's goals, by display name (byte order).
 * @example const goals = await listGoals(storage, 'ST-blog'); // [{ name: 'Signup', type: 'event', value: 'Signup', ... }]
 */
export async function listGoals(storage: Storage, siteId: string): Promise<Goal[]> {
  const store = goalStore(storage);
  await existingSite(storage, siteId);
  return (await store.listGoals(siteId)).sort((a, b) => compareBytes(a.name, b.name));
}

/**
 * Adds a goal to a site: an event goal (a custom event name, 1 to 200 characters) or a
 * page goal (a path pattern of 1 to 500 characters starting with `/`, `*` any run of
 * characters; a path is never recorded without its leading `/`). Refused
 * (`GoalError`) past 100 goals or when the display name is taken; `SiteNotFoundError` for
 * an unknown site.
 *
 * @example
 * await addGoal(storage, 'ST-blog', { type: 'event', value: 'Signup' });
 * await addGoal(storage, 'ST-blog', { type: 'page', value: '/thanks*' }); // shown as "Visit /thanks*"
 */
export async function addGoal(storage: Storage, siteId: string, definition: GoalDefinition): Promise<Goal> {
  const store = goalStore(storage);
  const { type } = definition;
  const value = typeof definition.value === 'string' ? wellFormed(definition.value) : '';
  if (type === 'event' && (value.length < 1 || value.length > MAX_EVENT_NAME_LENGTH)) throw new GoalError(GOAL_MESSAGES.event);
  if (type === 'page' && (value.length < 1 || value.length > MAX_GOAL_PATTERN_LENGTH)) throw new GoalError(GOAL_MESSAGES.page);
  if (type === 'page' && !value.startsWith('/')) throw new GoalError(GOAL_MESSAGES.pageSlash);
  if (type !== 'event' && type !== 'page') throw new GoalError('A goal is an event goal or a page goal.');
  await existingSite(storage, siteId);
  const goal: Goal = { siteId, name: goalName({ type, value }), type, value, createdAt: new Date().toISOString() };
  const goals = await store.listGoals(siteId);
  if (goals.some((g) => g.name === goal.name)) throw new GoalError(GOAL_MESSAGES.taken(goal.name));
  if (goals.length >= MAX_GOALS) throw new GoalError(GOAL_MESSAGES.tooMany);
  await store.insertGoal(goal);
  return goal;
}

/**
 * Deletes the site's goal with that display name (`GoalError` when there is none).
 * @example await deleteGoal(storage, 'ST-blog', 'Visit /thanks*');
 */
export async function deleteGoal(storage: Storage, siteId: string, name: string): Promise<void> {
  const store = goalStore(storage);
  await existingSite(storage, siteId);
  if (!(await store.deleteGoal(siteId, name))) throw new GoalError(GOAL_MESSAGES.missing(name));
}
