/**
 * `dashboard/data/saved-funnels?site_id=<id>`: the funnels saved for a site the session may
 * read, for the Funnels panel's picker (the API reads one funnel by name; it lists none, and
 * no key changes them). Each with its steps' display names, in name order. A site the session
 * cannot read is the API's 404 (a shared link's principal reads its one site only); a storage
 * without funnels lists none.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listFunnels, readableSite, siteIdSchema, SiteNotFoundError, type Storage, stepName } from '@siteline/core';
import type { Principal } from '../auth.js';
import { sendJson } from './http-io.js';

/** One saved funnel as the panel lists it. */
export interface SavedFunnel {
  name: string;
  /** The steps' display names, in order (`Visit /pricing`, `signup`). */
  steps: string[];
}

export async function savedFunnels(req: IncomingMessage, res: ServerResponse, storage: Storage, principal: Principal, siteId: string): Promise<number> {
  try {
    if (!siteIdSchema.safeParse(siteId).success || (principal.siteId !== undefined && siteId !== principal.siteId)) throw new SiteNotFoundError();
    const site = await readableSite(storage, siteId, { accountId: principal.accountId });
    if (storage.capabilities?.funnels !== true) return sendJson(req, res, 200, { funnels: [] });
    const funnels: SavedFunnel[] = (await listFunnels(storage, site.id)).map((f) => ({ name: f.name, steps: f.steps.map(stepName) }));
    return sendJson(req, res, 200, { funnels });
  } catch (error) {
    if (error instanceof SiteNotFoundError) return sendJson(req, res, 404, { error: error.message });
    throw error;
  }
}
