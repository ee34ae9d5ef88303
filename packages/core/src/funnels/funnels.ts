/**
 * Funnel management in the library (funnels.md section 4): funnels are site settings, created,
 * listed and deleted here (and by `siteline funnels` and the account pages), never through an
 * API key. The rules live here once; a storage only keeps what it is given.
 */
import { FunnelError, SiteNotFoundError, UnsupportedQueryError } from '../errors.js';
import { MAX_GOAL_PATTERN_LENGTH } from '../goals/goals.js';
import { compareBytes } from '../metrics/order.js';
import { MAX_EVENT_NAME_LENGTH } from '../query/messages.js';
import { wellFormedStep } from '../query/funnel-params.js';
import { funnelStepSchema } from '../query/schema.js';
import { wellFormed } from '../props/text.js';
import type { Storage } from '../storage/types.js';
import type { FunnelStep } from '../types.js';
import { type Funnel, MAX_FUNNEL_NAME_LENGTH, MAX_FUNNEL_STEPS, MAX_FUNNELS, MIN_FUNNEL_STEPS } from './funnel.js';

/** Why a funnel is refused, written once; the command and the account pages show them. */
export const FUNNEL_MESSAGES = {
  name: `A funnel needs a name of 1 to ${MAX_FUNNEL_NAME_LENGTH} characters.`,
  steps: `A funnel has ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps.`,
  step: `Each step is a page path pattern of 1 to ${MAX_GOAL_PATTERN_LENGTH} characters or a custom event name of 1 to ${MAX_EVENT_NAME_LENGTH} characters.`,
  tooMany: `A site has at most ${MAX_FUNNELS} funnels; delete one first.`,
  taken: (name: string) => `The site already has a funnel named ${JSON.stringify(name)}.`,
  missing: (name: string) => `The site has no funnel named ${JSON.stringify(name)}.`,
} as const;

/** What `addFunnel` takes: a name and the steps in order. */
export interface NewFunnel {
  name: string;
  steps: readonly FunnelStep[];
}

/** The storage's funnel methods, or an error naming the capability it lacks. */
function funnelStore(storage: Storage): Required<Pick<Storage, 'insertFunnel' | 'listFunnels' | 'deleteFunnel'>> {
  const { insertFunnel, listFunnels, deleteFunnel } = storage;
  if (storage.capabilities?.funnels !== true || !insertFunnel || !listFunnels || !deleteFunnel) {
    throw new UnsupportedQueryError(`The ${storage.kind} storage does not implement funnels (Storage.capabilities.funnels).`);
  }
  return { insertFunnel: insertFunnel.bind(storage), listFunnels: listFunnels.bind(storage), deleteFunnel: deleteFunnel.bind(storage) };
}

async function existingSite(storage: Storage, siteId: string): Promise<void> {
  if (!(await storage.getSite(siteId))) throw new SiteNotFoundError();
}

/** A step checked with the API's rules (`funnelStepSchema`), its text well-formed (what every store keeps). */
function checkedStep(step: unknown): FunnelStep {
  const checked = funnelStepSchema.safeParse(step);
  if (!checked.success) throw new FunnelError(FUNNEL_MESSAGES.step);
  return wellFormedStep(checked.data);
}

/**
 * The site's funnels, by name (byte order).
 * @example const funnels = await listFunnels(storage, 'ST-blog'); // [{ name: 'Pricing to signup', steps: [...], ... }]
 */
export async function listFunnels(storage: Storage, siteId: string): Promise<Funnel[]> {
  const store = funnelStore(storage);
  await existingSite(storage, siteId);
  return (await store.listFunnels(siteId)).sort((a, b) => compareBytes(a.name, b.name));
}

/**
 * Saves a funnel for a site: a name of 1 to 120 characters (spaces around it dropped), unique
 * within the site, and 2 to 8 steps, each `{ page: <pattern> }` (1 to 500 characters, `*` any
 * run of characters) or `{ event: <name> }` (1 to 200). Refused (`FunnelError`) past 20 funnels
 * or when the name is taken; `SiteNotFoundError` for an unknown site.
 *
 * @example
 * await addFunnel(storage, 'ST-blog', { name: 'Pricing to signup', steps: [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }] });
 */
export async function addFunnel(storage: Storage, siteId: string, funnel: NewFunnel): Promise<Funnel> {
  const store = funnelStore(storage);
  const name = typeof funnel.name === 'string' ? wellFormed(funnel.name.trim()) : '';
  if (name.length < 1 || name.length > MAX_FUNNEL_NAME_LENGTH) throw new FunnelError(FUNNEL_MESSAGES.name);
  const given: unknown = funnel.steps;
  if (!Array.isArray(given) || given.length < MIN_FUNNEL_STEPS || given.length > MAX_FUNNEL_STEPS) throw new FunnelError(FUNNEL_MESSAGES.steps);
  const steps = given.map(checkedStep);
  await existingSite(storage, siteId);
  const funnels = await store.listFunnels(siteId);
  if (funnels.some((f) => f.name === name)) throw new FunnelError(FUNNEL_MESSAGES.taken(name));
  if (funnels.length >= MAX_FUNNELS) throw new FunnelError(FUNNEL_MESSAGES.tooMany);
  const saved: Funnel = { siteId, name, steps, createdAt: new Date().toISOString() };
  if (!(await store.insertFunnel(saved))) {
    // Another change got there first (two owners at once): say which limit it reached.
    const now = await store.listFunnels(siteId);
    throw new FunnelError(now.some((f) => f.name === name) ? FUNNEL_MESSAGES.taken(name) : FUNNEL_MESSAGES.tooMany);
  }
  return saved;
}

/**
 * Deletes the site's funnel of that name (`FunnelError` when there is none).
 * @example await deleteFunnel(storage, 'ST-blog', 'Pricing to signup');
 */
export async function deleteFunnel(storage: Storage, siteId: string, name: string): Promise<void> {
  const store = funnelStore(storage);
  await existingSite(storage, siteId);
  if (!(await store.deleteFunnel(siteId, name))) throw new FunnelError(FUNNEL_MESSAGES.missing(name));
}

/** The site's funnel of that name, or undefined (for the report, which has loaded the site). */
export async function findFunnel(storage: Storage, siteId: string, name: string): Promise<Funnel | undefined> {
  return (await funnelStore(storage).listFunnels(siteId)).find((f) => f.name === name);
}
