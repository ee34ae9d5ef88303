/**
 * A site's shared links and email reports on the Sites page: the lists, the forms that add
 * to them, and a new link's address shown once (only its hash is kept), with the `<iframe>`
 * to paste when it may be embedded.
 */
import type { SharedLinkRow, Site, SubscriptionRow } from '@siteline/core';
import { escapeHtml as e } from '../dashboard/pages.js';
import { type AccountFrame, button, formFor, when } from './pages.js';

/** What the Sites page knows about each site's sharing. */
export interface SitesSharing {
  links: Map<string, SharedLinkRow[]>;
  subscriptions: Map<string, SubscriptionRow[]>;
  /** Whether reports are mailed (`SMTP_URL`). */
  mail: boolean;
  /** A link just created: its address, shown this once. */
  created?: { siteId: string; name: string; url: string; embeddable: boolean };
  /** The site an action was about: its block is open. */
  openSite?: string;
  /** What the owner typed into the link form, shown again when it was refused. */
  entered?: { siteId: string; name: string; origins: string; segment: string };
}

/** The `<iframe>` an owner pastes into a page of an allowed origin. */
export const embedSnippet = (url: string, siteName: string) =>
  `<iframe src="${e(url)}?embed=true&amp;theme=light" title="${e(siteName)} analytics" style="width:100%;height:1600px;border:0" loading="lazy"></iframe>`;

/** Revoking asks first, as revoking a key does (no script): the disclosure says what follows; the post carries `confirm=yes`, which the route requires. */
function revokeConfirm(frame: AccountFrame, site: Site, link: SharedLinkRow): string {
  return `<details class="confirm"><summary>Revoke…</summary><p>Pages opened with “${e(link.name)}” stop working at their next request, and it cannot be turned back on.</p>${button(frame, 'sites/unshare', `Revoke ${link.name}`, { site_id: site.id, link_id: link.id, confirm: 'yes' }, 'danger')}</details>`;
}

function linkRows(frame: AccountFrame, site: Site, links: SharedLinkRow[]): string {
  if (links.length === 0) return '<p class="empty">No shared links.</p>';
  const rows = links.map((l) => `<tr><td>${e(l.name)}</td><td>${l.password_hash ? 'yes' : 'no'}</td><td>${l.frame_ancestors.length ? l.frame_ancestors.map((o) => `<code>${e(o)}</code>`).join(' ') : 'nowhere'}</td>
<td>${l.segment.length ? `<code>${e(JSON.stringify(l.segment))}</code>` : 'whole site'}</td><td>${when(l.created_at)}</td><td>${revokeConfirm(frame, site, l)}</td></tr>`).join('\n');
  return `<table><caption class="visually-hidden">Shared links of ${e(site.name)}</caption><thead><tr><th scope="col">Name</th><th scope="col">Password</th><th scope="col">Embeddable by</th><th scope="col">Segment</th><th scope="col">Created</th><th scope="col">Revoke</th></tr></thead><tbody>
${rows}</tbody></table>`;
}

function subscriptionRows(frame: AccountFrame, site: Site, subscriptions: SubscriptionRow[]): string {
  if (subscriptions.length === 0) return '<p class="empty">No one receives reports of this site.</p>';
  const rows = subscriptions.map((s) => `<tr><td>${e(s.email)}</td><td>${s.kind === 'week' ? 'weekly' : 'monthly'}</td><td>${button(frame, 'sites/unreport', `Stop the ${s.kind === 'week' ? 'weekly' : 'monthly'} report to ${s.email}`, { site_id: site.id, kind: s.kind, email: s.email }, 'danger')}</td></tr>`).join('\n');
  return `<table><caption class="visually-hidden">Email reports of ${e(site.name)}</caption><thead><tr><th scope="col">Address</th><th scope="col">Report</th><th scope="col">Stop</th></tr></thead><tbody>
${rows}</tbody></table>`;
}

/** One site's block: its links, the form for a new one, its report subscribers, the form to add one. */
export function siteSharingBody(frame: AccountFrame, site: Site, sharing: SitesSharing): string {
  const id = e(site.id);
  const links = sharing.links.get(site.id) ?? [];
  const subscriptions = sharing.subscriptions.get(site.id) ?? [];
  const created = sharing.created?.siteId === site.id ? sharing.created : undefined;
  const entered = sharing.entered?.siteId === site.id ? sharing.entered : undefined;
  const fresh = created
    ? `<section class="new-key" aria-labelledby="new-link-${id}"><h4 id="new-link-${id}">Link “${e(created.name)}” created</h4>
<p>Copy it now: it is shown this once (only its hash is kept). Anyone with it sees this site's dashboard until you revoke it.</p>
<p><label for="link-url-${id}">Address</label> <input id="link-url-${id}" readonly value="${e(created.url)}" size="70"> <button type="button" data-copy="link-url-${id}">Copy</button></p>
${created.embeddable ? `<p><label for="link-embed-${id}">Embed it on a page of an allowed origin</label><textarea id="link-embed-${id}" readonly rows="3">${e(embedSnippet(created.url, site.name))}</textarea> <button type="button" data-copy="link-embed-${id}">Copy</button></p>` : ''}</section>\n`
    : '';
  return `<details class="sharing"${sharing.openSite === site.id ? ' open' : ''}><summary>Shared links (${links.length}) and email reports (${subscriptions.length}) of ${e(site.name)}</summary>
${fresh}<h4>Shared links</h4>
<p class="hint">A shared link opens this site's dashboard, read-only, to anyone who has it: no account, no other site.</p>
${linkRows(frame, site, links)}
${formFor(frame, 'sites/share', ' class="stack"')}<input type="hidden" name="site_id" value="${id}">
<label for="link-name-${id}">Name of the new link</label><input id="link-name-${id}" name="name" required maxlength="100" value="${e(entered?.name ?? '')}">
<label for="link-password-${id}">Password (optional, at least 10 characters; a link with a password cannot be embedded)</label><input id="link-password-${id}" name="password" type="password" maxlength="200" autocomplete="new-password">
<label for="link-origins-${id}">Origins that may embed it (optional, one per line, e.g. https://blog.example.com)</label><textarea id="link-origins-${id}" name="origins" rows="2">${e(entered?.origins ?? '')}</textarea>
<label for="link-segment-${id}">Segment (optional: filters the viewer cannot remove, as the API's filters, e.g. [["is","country",["DE"]]])</label><input id="link-segment-${id}" name="segment" maxlength="4096" value="${e(entered?.segment ?? '')}">
<button type="submit">Create link</button></form>
<h4>Email reports</h4>
${sharing.mail ? '' : '<p class="note">Mail is not set up on this server (SMTP_URL), so no report is sent; subscriptions are kept until it is.</p>\n'}<p class="hint">Weekly reports go out on Mondays, monthly ones on the 1st, from 06:00 in the site's time zone (${e(site.timezone)}).</p>
${subscriptionRows(frame, site, subscriptions)}
${formFor(frame, 'sites/report', ' class="stack"')}<input type="hidden" name="site_id" value="${id}">
<label for="report-email-${id}">Address</label><input id="report-email-${id}" name="email" type="email" required maxlength="254">
<fieldset><legend>Reports</legend><label><input type="checkbox" name="week" value="1" checked> Weekly</label> <label><input type="checkbox" name="month" value="1"> Monthly</label></fieldset>
<button type="submit">Subscribe</button></form></details>`;
}
