/**
 * The Sites page's sharing actions (create and revoke a shared link, subscribe and
 * unsubscribe a report address) and what the page shows of each site's sharing. The
 * account routes have checked the owner, the CSRF token and that the site is the account's.
 */
import { type EmailReports, PeopleError, REPORT_KINDS, type ReportKind, ShareError, type SharedLinks, type Site } from '@siteline/core';
import { shareUrl } from '../share/links.js';
import type { Flash } from './pages.js';
import type { SitesSharing } from './sharing-pages.js';

export interface SharingDeps {
  links: SharedLinks;
  reports: EmailReports;
  /** Whether reports are mailed (`SMTP_URL`). */
  mail: boolean;
}

/** What an action changed: the message, the status, and what the page shows besides the lists. */
export interface SharingOutcome {
  flash: Flash;
  status: number;
  shown: Pick<SitesSharing, 'created' | 'openSite' | 'entered'>;
}

/** Every site's links and subscriptions, for the Sites page. */
export async function sitesSharing(deps: SharingDeps, sites: Site[], shown: SharingOutcome['shown'] = {}): Promise<SitesSharing> {
  const [links, subscriptions] = await Promise.all([
    Promise.all(sites.map(async (s) => [s.id, await deps.links.list(s.id)] as const)),
    Promise.all(sites.map(async (s) => [s.id, await deps.reports.list(s.id)] as const)),
  ]);
  return { links: new Map(links), subscriptions: new Map(subscriptions), mail: deps.mail, ...shown };
}

/** Runs `act` (`share`, `unshare`, `report`, `unreport`) on the site with the posted fields. */
export async function sharingAction(deps: SharingDeps, act: string, site: Site, field: (name: string) => string, origin: string): Promise<SharingOutcome> {
  const openSite = site.id;
  try {
    switch (act) {
      case 'share': {
        const origins = field('origins').split(/[\s,]+/).filter((o) => o !== '');
        const { link, token } = await deps.links.create(site, { name: field('name'), password: field('password'), frameAncestors: origins, segment: field('segment') });
        const embeddable = link.password_hash === '' && link.frame_ancestors.length > 0;
        return { flash: { info: `Shared link “${link.name}” created.` }, status: 201, shown: { openSite, created: { siteId: site.id, name: link.name, url: shareUrl(origin, token), embeddable } } };
      }
      case 'unshare':
        if (field('confirm') !== 'yes') return { flash: { error: 'Revoking a link needs its confirmation: open “Revoke…” beside the link and press its button.' }, status: 422, shown: { openSite } };
        if (!(await deps.links.revoke(site.id, field('link_id')))) return { flash: { error: 'There is no such working link of this site.' }, status: 404, shown: { openSite } };
        return { flash: { info: 'Link revoked: its pages stop working at their next request.' }, status: 200, shown: { openSite } };
      case 'report': {
        const kinds = REPORT_KINDS.filter((k) => field(k) !== '');
        await deps.reports.subscribe(site.id, field('email'), kinds);
        return { flash: { info: `${field('email').trim().toLowerCase()} receives the ${kinds.map((k) => (k === 'week' ? 'weekly' : 'monthly')).join(' and ')} report of ${site.name}.` }, status: 201, shown: { openSite } };
      }
      case 'unreport': {
        const kind = field('kind') as ReportKind;
        if (!REPORT_KINDS.includes(kind) || !(await deps.reports.unsubscribe(site.id, kind, field('email')))) return { flash: { error: 'That address does not receive that report.' }, status: 404, shown: { openSite } };
        return { flash: { info: `${field('email')} no longer receives the ${kind === 'week' ? 'weekly' : 'monthly'} report.` }, status: 200, shown: { openSite } };
      }
      default:
        return { flash: { error: 'There is no such action.' }, status: 404, shown: {} };
    }
  } catch (error) {
    if (!(error instanceof ShareError || error instanceof PeopleError)) throw error;
    const entered = act === 'share' ? { siteId: site.id, name: field('name'), origins: field('origins'), segment: field('segment') } : undefined;
    return { flash: { error: error.message }, status: 422, shown: { openSite, ...(entered ? { entered } : {}) } };
  }
}
