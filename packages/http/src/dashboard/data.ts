/** The dashboard's assets (hashed names, cached for a year) and its data routes (`data/sites`, and every API path for the session's principal). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importedDayRuns, type Site, type Storage } from '@siteline/core';
import { HTTP_MESSAGES } from '../errors.js';
import { savedFunnels } from './saved-funnels.js';
import type { DashboardAssets } from './assets.js';
import { send, sendJson } from './http-io.js';
import type { DashboardContext } from './options.js';

/**
 * A site as the dashboard's picker lists it, with the days that count as imported (no native
 * events) for the chart's shading; only sites with such days carry them.
 */
export async function siteInfo(storage: Storage, site: Site) {
  const { id, name, domain, timezone } = site;
  const imported = await importedDayRuns(storage, site);
  return imported.length === 0 ? { id, name, domain, timezone } : { id, name, domain, timezone, imported };
}

/** What the storage answers, so the dashboard offers only that: filters, hours, properties, goals, funnels. */
export function storageCan(storage: Storage) {
  return {
    filters: storage.capabilities?.selection === true,
    hours: typeof storage.hourBuckets === 'function',
    properties: storage.capabilities?.properties === true,
    goals: storage.capabilities?.goals === true,
    funnels: storage.capabilities?.funnels === true,
  };
}

/** `dashboard/assets/<name>` and `dashboard/data/<rest>` (`sites`, `saved-funnels` and the API's paths). */
export function dataRoutes(ctx: DashboardContext) {
  const { options, assets, current, staleCookie } = ctx;

  const asset = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<number> => {
    const files: DashboardAssets = await assets;
    const file = [files.script, files.style, files.icon].find((a) => a.name === name);
    if (!file) return sendJson(req, res, 404, { error: HTTP_MESSAGES.notFound });
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    return send(req, res, 200, gzip ? file.gzipped : file.body, {
      'Content-Type': file.contentType,
      // The name changes with the content: a browser never needs to ask again.
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
  };

  /** `data/sites` (the picker; the API has no such endpoint) or an API path answered for the session's principal. */
  const data = async (req: IncomingMessage, res: ServerResponse, url: URL, rest: string): Promise<number | undefined> => {
    const signedIn = await current(req);
    const principal = signedIn?.principal;
    if (!signedIn || !principal) return sendJson(req, res, 401, { error: HTTP_MESSAGES.unauthorized }, staleCookie(req));
    if (rest === 'sites') {
      const sites = await options.storage.listSites(principal.accountId === undefined ? undefined : { accountId: principal.accountId });
      const you = signedIn.user ? signedIn.user.role : principal.keyId === 'community' ? 'community key' : 'cloud key';
      return sendJson(req, res, 200, { sites: await Promise.all(sites.map((site) => siteInfo(options.storage, site))), tracker: options.trackerPath ?? '/tracker.js', can: storageCan(options.storage), now: options.api.now(), you });
    }
    if (rest === 'saved-funnels') return savedFunnels(req, res, options.storage, principal, url.searchParams.get('site_id') ?? '');
    await options.api.serveAs(req, res, principal, `/${rest}${url.search}`);
    return undefined; // logged by the API handler
  };

  return { asset, data };
}
