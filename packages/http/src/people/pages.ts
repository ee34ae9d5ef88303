/**
 * The account pages, written on the server (forms that work without script; one small
 * script of our own adds the copy button). Every form that changes something carries the
 * session's CSRF token. Pages live under `dashboard/account/`, so links lead back with `../../`.
 */
import { type ApiKeyInfo, type Goal, type ImportedDataset, isValidTimeZone, type Site, type UserRow } from '@siteline/core';
import { getTimeZones } from '@vvo/tzdb';
import type { DashboardAssets } from '../dashboard/assets.js';
import { escapeHtml as e, head } from '../dashboard/pages.js';
import { qrSvg } from './qr.js';

export type AccountSection = 'keys' | 'sites' | 'goals' | 'funnels' | 'users' | 'password';

export interface AccountFrame {
  assets: DashboardAssets;
  csrf: string;
  /** Whose pages: an owner sees every section, a viewer only the password. */
  role: 'owner' | 'viewer';
  /** Keys are a Cloud section. */
  cloud: boolean;
  email: string;
}

/** A message above the page's content: `error` (refused, with role alert) or `info`. */
export type Flash = { error: string } | { info: string } | undefined;

const SECTIONS: { id: AccountSection; label: string; owner: boolean; cloud?: boolean }[] = [
  { id: 'keys', label: 'API keys', owner: true, cloud: true },
  { id: 'sites', label: 'Sites', owner: true },
  { id: 'goals', label: 'Goals', owner: true },
  { id: 'funnels', label: 'Funnels', owner: true },
  { id: 'users', label: 'Users', owner: true },
  { id: 'password', label: 'Password', owner: false },
];

/** The CSRF field every state-changing form carries. */
const csrfField = (frame: AccountFrame) => `<input type="hidden" name="csrf" value="${e(frame.csrf)}">`;
/**
 * The opening of a form posting to `target` (`section` or `section/action`). It posts to the
 * section's own address with the action in a `do` field, so the page answered keeps an
 * address whose relative links still work.
 */
export const formFor = (frame: AccountFrame, target: string, attributes = '') => {
  const [section, action] = target.split('/', 2);
  return `<form method="post" action="${section}"${attributes}>${csrfField(frame)}${action ? `<input type="hidden" name="do" value="${action}">` : ''}`;
};
/** A one-button form posting `fields` to `target`; a long label (a goal's name) is cut on screen and whole in the title. */
export const button = (frame: AccountFrame, target: string, label: string, fields: Record<string, string>, cls = '', shown = label) =>
  `${formFor(frame, target, ' class="inline"')}${Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${e(v)}">`).join('')}<button type="submit"${cls ? ` class="${cls}"` : ''} title="${e(label)}"${shown === label ? '' : ` aria-label="${e(label)}"`}>${e(shown)}</button></form>`;
/** A row's Delete button beside a name that may be long: "Delete" on screen, the whole "Delete <name>" its accessible name and title. */
export const deleteButton = (frame: AccountFrame, target: string, name: string, fields: Record<string, string>) =>
  button(frame, target, `Delete ${name}`, fields, 'danger whole', 'Delete');
/** A value that may be long (names and patterns of up to 500 characters): cut to the cell, whole in the title. */
export const cut = (text: string) => `<span class="cut" title="${e(text)}">${e(text)}</span>`;
export const when = (iso: string | null) => (iso ? `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace('T', ' '))} UTC</time>` : '—');

/** A whole account page around `body`. */
export function accountPage(frame: AccountFrame, section: AccountSection | undefined, title: string, body: string, flash?: Flash): string {
  const nav = SECTIONS.filter((s) => (!s.owner || frame.role === 'owner') && (!s.cloud || frame.cloud))
    .map((s) => `<li><a href="${s.id}"${s.id === section ? ' aria-current="page"' : ''}>${s.label}</a></li>`).join('');
  const message = flash && ('error' in flash ? `<p class="error" role="alert">${e(flash.error)}</p>` : `<p class="note" role="status">${e(flash.info)}</p>`);
  return `${head(frame.assets, `${title} · Siteline`, false, '../../', '<script type="module" src="copy.js"></script>\n')}
<body class="account">
<header class="top"><a class="brand" href="../../">Siteline</a>
<nav aria-label="Account"><ul><li><a href="../../">Dashboard</a></li>${nav}</ul></nav>
<span class="top-actions"><span class="who">${e(frame.email)} (${frame.role})</span><form method="post" action="../sign-out">${csrfField(frame)}<button type="submit">Sign out</button></form></span></header>
<main class="content">
<h1>${e(title)}</h1>
${message ?? ''}${body}
</main>
</body>
</html>
`;
}

/** API keys: create (the new key shown once, with a copy button), list masked, revoke. */
export function keysBody(frame: AccountFrame, keys: ApiKeyInfo[], created?: { key: string; name: string }): string {
  const fresh = created
    ? `<section class="panel new-key" aria-labelledby="new-key-title"><h2 id="new-key-title">Key “${e(created.name)}” created</h2>
<p>Copy it now: it is shown this once and cannot be shown again.</p>
<label for="new-key">New key</label> <input id="new-key" readonly value="${e(created.key)}" size="70"> <button type="button" data-copy="new-key">Copy</button></section>\n`
    : '';
  const rows = keys.map((k) => `<tr><td>${e(k.name)}</td><td><code>${e(k.masked)}</code></td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
<td>${k.revokedAt ? `revoked ${when(k.revokedAt)}` : revokeConfirm(frame, k)}</td></tr>`).join('\n');
  return `${fresh}<section class="panel"><h2>Create a key</h2>
${formFor(frame, 'keys')}<label for="key-name">Descriptive name</label> <input id="key-name" name="name" required maxlength="100"> <button type="submit">Create key</button></form></section>
<section class="panel"><h2>Keys</h2>${keys.length === 0 ? '<p class="empty">No keys yet.</p>' : `<table><caption class="visually-hidden">API keys</caption><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead><tbody>
${rows}</tbody></table>`}</section>`;
}

/**
 * Revoking a key asks first, without script: "Revoke…" opens a disclosure that says what
 * follows, with the button that posts. The post also carries `confirm=yes`, which the route
 * requires, so no single stray click or replayed form revokes a key.
 */
/** A site's imports of daily totals (`siteline import --from plausible`), each with a confirmed Delete. */
function importsList(frame: AccountFrame, site: Site, imports: ImportedDataset[]): string {
  if (imports.length === 0) return '';
  const rows = imports.map((d) => `<li data-import="${e(d.id)}">Plausible, ${e(d.from)} to ${e(d.to)} (${d.rows.toLocaleString('en-US')} rows, imported ${e(d.importedAt.slice(0, 10))})
<details class="confirm"><summary>Delete…</summary><p>Its daily totals leave every report of ${e(site.name)} at once; import the export again to bring them back.</p>${button(frame, 'sites/delete-import', 'Delete this import', { site_id: site.id, import_id: d.id, confirm: 'yes' }, 'danger')}</details></li>`).join('\n');
  return `<h4>Imported data</h4><ul class="imports">${rows}</ul>\n`;
}

function revokeConfirm(frame: AccountFrame, key: ApiKeyInfo): string {
  return `<details class="confirm"><summary>Revoke…</summary><p>Requests with “${e(key.name)}” get 401 at once, and it cannot be turned back on.</p>${button(frame, 'keys/revoke', `Revoke ${key.name}`, { key_id: key.id, confirm: 'yes' }, 'danger')}</details>`;
}


/** Sites: add, list with the tracker snippet to copy, each site's imports; `more` adds a site's sharing and email reports. */
export function sitesBody(frame: AccountFrame, sites: Site[], snippet: (site: Site) => string, form: { name?: string; domain?: string; timezone?: string } = {}, editing?: SiteEditForm, imports: ReadonlyMap<string, ImportedDataset[]> = new Map(), more: (site: Site) => string = () => ''): string {
  const list = sites.map((s) => `<li class="panel site"><h3>${e(s.name)}</h3><p><code>${e(s.id)}</code> · ${e(s.domain ?? 'no domain')} · ${e(s.timezone)} · <a href="goals?site_id=${encodeURIComponent(s.id)}">Goals</a></p>
<label for="snippet-${e(s.id)}">Tracker snippet</label><textarea id="snippet-${e(s.id)}" readonly rows="3">${e(snippet(s))}</textarea> <button type="button" data-copy="snippet-${e(s.id)}">Copy snippet</button>
${importsList(frame, s, imports.get(s.id) ?? [])}${editSiteForm(frame, s, editing?.siteId === s.id ? editing : undefined)}${more(s)}</li>`).join('\n');
  return `<section class="panel"><h2>Add a site</h2>
${formFor(frame, 'sites', ' class="stack"')}
<label for="site-name">Name</label><input id="site-name" name="name" required maxlength="200" value="${e(form.name ?? '')}">
<label for="site-domain">Domain</label><input id="site-domain" name="domain" maxlength="253" placeholder="example.com" value="${e(form.domain ?? '')}">
<label for="site-timezone">Time zone (the site's days and hours are counted in it; it cannot change later)</label>${zonePicker(form.timezone)}
<button type="submit">Add site</button></form></section>
<section><h2>Sites</h2>${sites.length === 0 ? '<p class="empty">No sites yet.</p>' : `<ul class="sites">${list}</ul>`}</section>`;
}

/**
 * The time zones of the picker: @vvo/tzdb's list of IANA zones (MIT, kept current with the
 * tz database; one entry per zone that differs, aliases folded in, modern names such as
 * Europe/Kyiv and Asia/Kolkata), those this runtime's Intl knows (what `createSite`
 * accepts), grouped by continent, UTC first.
 */
const CONTINENTS: ReadonlyMap<string, { zone: string; label: string }[]> = getTimeZones()
  .filter((z) => isValidTimeZone(z.name))
  .map((z) => ({ continent: z.continentName, zone: z.name, label: `${z.name.slice(z.name.lastIndexOf('/') + 1).replaceAll('_', ' ')}, ${z.countryName} (${z.alternativeName})` }))
  .sort((a, b) => a.continent.localeCompare(b.continent) || a.label.localeCompare(b.label))
  .reduce((groups, { continent, zone, label }) => groups.set(continent, [...(groups.get(continent) ?? []), { zone, label }]), new Map<string, { zone: string; label: string }[]>());
const ZONE_NAMES: ReadonlySet<string> = new Set(['UTC', ...[...CONTINENTS.values()].flat().map((z) => z.zone)]);

/**
 * The time zone picker of the site form: `entered` selected (a zone posted before), else UTC
 * with `data-local-zone`, which the page's script turns into the browser's own zone.
 */
function zonePicker(entered: string | undefined): string {
  const selected = entered ?? 'UTC';
  const option = (zone: string, label: string) => `<option value="${e(zone)}"${zone === selected ? ' selected' : ''}>${e(label)}</option>`;
  const posted = ZONE_NAMES.has(selected) ? '' : option(selected, selected); // a zone the list spells differently (an alias) stays as posted
  const groups = [...CONTINENTS].map(([continent, zones]) => `<optgroup label="${e(continent)}">${zones.map((z) => option(z.zone, z.label)).join('')}</optgroup>`).join('');
  return `<select id="site-timezone" name="timezone" required${entered === undefined ? ' data-local-zone' : ''}>${posted}${option('UTC', 'UTC (Coordinated Universal Time)')}${groups}</select>`;
}

/** What an owner entered in a site's edit form, shown again (the form open) when it was refused. */
export interface SiteEditForm {
  siteId: string;
  name: string;
  domain: string;
}

/** A site's edit form: name and domain; the time zone shown read-only, with why and what to do instead. */
function editSiteForm(frame: AccountFrame, site: Site, entered?: SiteEditForm): string {
  const id = e(site.id);
  return `<details${entered ? ' open' : ''}><summary>Edit ${e(site.name)}</summary>
${formFor(frame, 'sites/edit', ' class="stack"')}<input type="hidden" name="site_id" value="${id}">
<label for="edit-name-${id}">Name</label><input id="edit-name-${id}" name="name" required maxlength="200" value="${e(entered?.name ?? site.name)}">
<label for="edit-domain-${id}">Domain</label><input id="edit-domain-${id}" name="domain" maxlength="253" placeholder="example.com" value="${e(entered?.domain ?? site.domain ?? '')}">
<p>Time zone: <strong>${e(site.timezone)}</strong>. It cannot change: the site's data is stored by its local days. For another time zone, export the site (<code>siteline export</code>) and import it into a new site with that time zone (<code>siteline import</code>).</p>
<button type="submit">Save ${e(site.name)}</button></form></details>`;
}

/** Goals of one site: pick the site, add an event or page goal, list, delete. */
export function goalsBody(frame: AccountFrame, sites: Site[], site: Site | undefined, goals: Goal[]): string {
  const picker = `<form method="get" action="goals" class="inline"><label for="goal-site">Site</label> <select id="goal-site" name="site_id">${sites.map((s) => `<option value="${e(s.id)}"${s.id === site?.id ? ' selected' : ''}>${e(s.name)} (${e(s.id)})</option>`).join('')}</select> <button type="submit">Show goals</button></form>`;
  if (!site) return sites.length === 0 ? '<p class="empty">Add a site first.</p>' : picker;
  const rows = goals.map((g) => `<tr><td>${cut(g.name)}</td><td>${g.type === 'event' ? 'custom event' : 'page'}</td><td><code>${cut(g.value)}</code></td><td>${deleteButton(frame, 'goals/delete', g.name, { site_id: site.id, goal: g.name })}</td></tr>`).join('\n');
  return `${picker}
<section class="panel"><h2>Add a goal to ${e(site.name)}</h2>
${formFor(frame, 'goals', ' class="stack"')}<input type="hidden" name="site_id" value="${e(site.id)}">
<fieldset><legend>Kind</legend><label><input type="radio" name="type" value="event" checked> Custom event name</label> <label><input type="radio" name="type" value="page"> Page path pattern (* matches anything)</label></fieldset>
<label for="goal-value">Event name or path pattern</label><input id="goal-value" name="value" required maxlength="500">
<button type="submit">Add goal</button></form></section>
<section class="panel"><h2>Goals of ${e(site.name)}</h2>${goals.length === 0 ? '<p class="empty">No goals yet.</p>' : `<table><caption class="visually-hidden">Goals</caption><thead><tr><th scope="col">Goal</th><th scope="col">Kind</th><th scope="col">Matches</th><th scope="col">Delete</th></tr></thead><tbody>
${rows}</tbody></table>`}</section>`;
}

/** Users: invite (the one-time link shown, and mailed when mail is set up), change role, remove. */
export function usersBody(frame: AccountFrame, users: UserRow[], me: string, invited?: { email: string; url: string; mailed: boolean }): string {
  const link = invited
    ? `<section class="panel"><h2>Invited ${e(invited.email)}</h2><p>${invited.mailed ? 'The link was sent by mail. ' : ''}This one-time link sets their password; it works once, for 24 hours.</p>
<label for="invite-link">Link</label> <input id="invite-link" readonly value="${e(invited.url)}" size="80"> <button type="button" data-copy="invite-link">Copy</button></section>\n`
    : '';
  const rows = users.map((u) => {
    const other = u.role === 'owner' ? 'viewer' : 'owner';
    const actions = u.id === me ? 'you' : `${button(frame, 'users/role', `Make ${u.email} ${other}`, { user_id: u.id, role: other })} ${button(frame, 'users/remove', `Remove ${u.email}`, { user_id: u.id }, 'danger')}`;
    return `<tr><td>${e(u.email)}</td><td>${u.role}</td><td>${u.password_hash ? 'set' : 'invited'}</td><td>${actions}</td></tr>`;
  }).join('\n');
  return `${link}<section class="panel"><h2>Invite someone</h2>
${formFor(frame, 'users', ' class="stack"')}<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required maxlength="254">
<label for="invite-role">Role</label><select id="invite-role" name="role"><option value="viewer">viewer: the dashboard only</option><option value="owner">owner: everything</option></select>
<button type="submit">Invite</button></form></section>
<section class="panel"><h2>Users</h2><table><caption class="visually-hidden">Users</caption><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Password</th><th scope="col">Actions</th></tr></thead><tbody>
${rows}</tbody></table></section>`;
}

/** Change the password (signs out every other session). */
export function passwordBody(frame: AccountFrame): string {
  return `<section class="panel"><p>Changing the password signs you out everywhere, this browser included.</p>
${formFor(frame, 'password', ' class="stack"')}
<input type="text" name="username" autocomplete="username" value="${e(frame.email)}" hidden>
<label for="current">Current password</label><input id="current" name="current" type="password" required maxlength="200" autocomplete="current-password">
<label for="next">New password (at least 10 characters, not a common one)</label><input id="next" name="next" type="password" required minlength="10" maxlength="200" autocomplete="new-password">
<button type="submit">Change password</button></form></section>`;
}

/** Two-factor: turn on (a QR code of the otpauth address, the secret and the address, confirmed by a code; recovery codes shown once) or off. */
export function twoFactorBody(frame: AccountFrame, on: boolean, step?: { secret: string; uri: string } | { codes: string[] }): string {
  if (step && 'codes' in step) {
    return `<section class="panel" aria-labelledby="codes-title"><h2 id="codes-title">Recovery codes</h2><p>Two-factor sign-in is on. Keep these codes somewhere safe: each one signs in once in place of a code, and they are shown only now.</p>
<textarea id="recovery-codes" readonly rows="10" aria-labelledby="codes-title">${e(step.codes.join('\n'))}</textarea> <button type="button" data-copy="recovery-codes">Copy codes</button></section>`;
  }
  if (step) {
    return `<section class="panel two-factor-setup" aria-labelledby="setup-title"><h2 id="setup-title">Turn on two-factor sign-in</h2>
<p>Scan this code with an authenticator app (or type the secret into it), then enter the six-digit code the app shows.</p>
<div class="qr-box">${qrSvg(step.uri, 'QR code for your authenticator app (the otpauth address below)')}
<div><p>Secret: <code id="totp-secret">${e(step.secret.replace(/(.{4})/g, '$1 ').trim())}</code></p><p class="hint">Address: <code class="wrap">${e(step.uri)}</code></p></div></div>
${formFor(frame, 'password/totp-confirm', ' class="stack"')}<input type="hidden" name="secret" value="${e(step.secret)}">
<label for="totp-code">Code from the app</label><input id="totp-code" name="code" inputmode="numeric" required maxlength="6" autocomplete="one-time-code">
<label for="totp-current">Current password</label><input id="totp-current" name="current" type="password" required maxlength="200" autocomplete="current-password"><button type="submit">Turn on</button></form></section>`;
  }
  return on
    ? `<section class="panel"><h2>Two-factor sign-in is on</h2>${formFor(frame, 'password/totp-off', ' class="stack"')}<label for="off-password">Current password</label><input id="off-password" name="current" type="password" required maxlength="200" autocomplete="current-password"><button type="submit" class="danger">Turn off two-factor</button></form></section>`
    : `<section class="panel"><h2>Two-factor sign-in</h2><p>Off. With it on, signing in also asks for a code from an authenticator app.</p>${formFor(frame, 'password/totp-start')}<button type="submit">Set up two-factor</button></form></section>`;
}

/** The page of a one-time link: choose a password (the token rides in a hidden field). */
export function setPasswordPage(assets: DashboardAssets, token: string, error?: string): string {
  return `${head(assets, 'Set your password · Siteline', false, '../')}
<body class="signin">
<main>
<h1>Set your password</h1>
${error ? `<p class="error" role="alert">${e(error)}</p>\n` : ''}<form method="post" action="set-password">
<input type="hidden" name="token" value="${e(token)}">
<label for="new-password">New password</label>
<input id="new-password" name="password" type="password" required minlength="10" maxlength="200" autocomplete="new-password">
<p class="hint">At least 10 characters and not one of the common passwords. This link works once.</p>
<button type="submit">Set password</button>
</form>
</main>
</body>
</html>
`;
}

/**
 * The pages' one script (`account/copy.js`), each part an addition to a page that works
 * without it: a copy button copies the field it names (`data-copy`) and says so in a live
 * region beside it (the button itself reads "Copied" for a few seconds); the site form's
 * time zone starts at the browser's own zone.
 */
export const COPY_SCRIPT = `for (const button of document.querySelectorAll('button[data-copy]')) {
  const status = document.createElement('span');
  status.className = 'copied';
  status.setAttribute('role', 'status');
  button.after(status);
  const label = button.textContent;
  let timer;
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.dataset.copy);
    field.select();
    try { await navigator.clipboard.writeText(field.value); button.textContent = 'Copied'; status.textContent = 'Copied to the clipboard.'; }
    catch { button.textContent = 'Press Ctrl+C to copy'; status.textContent = 'The text is selected: press Ctrl+C (or Cmd+C) to copy it.'; }
    clearTimeout(timer);
    timer = setTimeout(() => { button.textContent = label; status.textContent = ''; }, 4000);
  });
}
const zone = document.querySelector('select[data-local-zone]');
if (zone) {
  // The browser may name its zone by an older alias (Asia/Calcutta for Asia/Kolkata): compare as Intl spells both.
  const spelled = (name) => { try { return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone; } catch { return ''; } };
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const match = [...zone.options].find((o) => o.value === local) ?? [...zone.options].find((o) => spelled(o.value) === spelled(local));
  if (match && match.value !== 'UTC') zone.value = match.value;
}
`;
