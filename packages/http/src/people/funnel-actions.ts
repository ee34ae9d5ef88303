/**
 * The Funnels page's posts (routes.ts hands them here once the site is the account's): save a
 * funnel, preview its steps over the last 30 days, delete one. Each answers what the page
 * shows next: a message, the status, and the form as entered when it is shown again.
 */
import { addFunnel, deleteFunnel, FUNNEL_MESSAGES, FunnelError, getFunnel, MESSAGES, parseQuery, type Storage, ValidationError } from '@siteline/core';
import { postedFunnel, stepsOf } from './funnel-pages.js';
import type { Flash } from './pages.js';

export interface FunnelOutcome {
  flash: Flash;
  status: number;
  /** What the page renders with: the site, and the form and preview when it is shown again. */
  extra: Record<string, unknown>;
}

/** `act`: `delete`, `preview`, or undefined (save). */
export async function funnelAction(storage: Storage, siteId: string, act: string | undefined, form: URLSearchParams, now: number): Promise<FunnelOutcome> {
  if (act === 'delete') {
    const name = form.get('name') ?? '';
    await deleteFunnel(storage, siteId, name);
    return { flash: { info: `Funnel ${name} deleted.` }, status: 200, extra: { siteId } };
  }
  const entered = postedFunnel(form);
  const keep = { siteId, form: entered };
  if (act === 'preview') {
    try {
      const query = parseQuery('funnels', { site_id: siteId, period: '30d', steps: JSON.stringify(stepsOf(entered)) });
      return { flash: undefined, status: 200, extra: { ...keep, preview: await getFunnel(storage, query, { now }) } };
    } catch (error) {
      // The API's words for the steps, in the form's: the same rules as saving.
      if (error instanceof ValidationError) return { flash: { error: error.message === MESSAGES.step ? FUNNEL_MESSAGES.step : FUNNEL_MESSAGES.steps }, status: 422, extra: keep };
      throw error;
    }
  }
  try {
    const saved = await addFunnel(storage, siteId, { name: entered.name, steps: stepsOf(entered) });
    return { flash: { info: `Funnel ${saved.name} saved. The dashboard's Funnels panel shows it.` }, status: 201, extra: { siteId } };
  } catch (error) {
    if (error instanceof FunnelError) return { flash: { error: error.message }, status: 422, extra: keep };
    throw error;
  }
}
