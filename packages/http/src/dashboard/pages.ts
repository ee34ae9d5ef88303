/**
 * The two HTML pages the server writes: the sign-in form (works without script) and the
 * shell the dashboard's script renders into. URLs are relative to the page (`<base>` is
 * forbidden by the CSP), so the dashboard works under any mount path.
 */
import type { DashboardAssets } from './assets.js';

/** Colour schemes a page can be asked for: light (the default), dark, or the reader's system setting. */
export type Theme = 'light' | 'dark' | 'system';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

/** Longest view (the page's query string) carried through sign-in. */
export const MAX_VIEW_LENGTH = 4096;

/**
 * The query string of a dashboard URL, if it is one the server may put back into a
 * redirect: `?` then printable ASCII (what a browser sends, percent-encoded), bounded.
 * Anything else becomes `''` (the default view). Starting with `?` and appended to the
 * dashboard's own path, it cannot lead anywhere else.
 * @example safeView('?site_id=ST-demo&period=7d') // '?site_id=ST-demo&period=7d'
 */
export function safeView(view: string | undefined): string {
  if (view === undefined || view.length > MAX_VIEW_LENGTH || !/^\?[\x21-\x7e]*$/.test(view)) return '';
  const kept = view.slice(1).split('&').filter((part) => !isKeyParameter(part)).join('&');
  return kept === '' ? '' : `?${kept}`;
}

/**
 * True when a query string carries an API key (`api_key=`, as the API accepts it). The
 * dashboard never renders or redirects to such a URL: a key in an address stays in browser
 * history, bookmarks and every log the URL passes through.
 * @example carriesKey('?site_id=ST-a&api_key=secret') // true
 */
export function carriesKey(view: string | undefined): boolean {
  return view !== undefined && view.slice(1).split('&').some(isKeyParameter);
}

/** One `name=value` part of a query string whose name decodes to `api_key`. */
function isKeyParameter(part: string): boolean {
  const name = part.split('=', 1)[0]!.replaceAll('+', ' ');
  try {
    return decodeURIComponent(name) === 'api_key';
  } catch {
    return false; // a malformed escape cannot spell the name
  }
}

/**
 * What the sign-in page says after a redirect that names it (`?notice=`): a password set
 * through a one-time link, or changed on the account page (which ends every session).
 */
export const NOTICES: Readonly<Record<string, string>> = {
  'password-set': 'Your password is set. Sign in with your email and the new password.',
  'password-changed': 'Your password is changed and every session has ended, this one too. Sign in with the new password.',
};

/** A query string without its `notice` parameter (the notice is said once, not carried into the view). */
export function withoutNotice(search: string): string {
  const kept = search.replace(/^\?/, '').split('&').filter((part) => part !== '' && part.split('=', 1)[0] !== 'notice').join('&');
  return kept === '' ? '' : `?${kept}`;
}

/** Said on the sign-in page when its address carried a key. */
export const KEY_IN_URL_NOTICE =
  'The address of this page contained an API key (api_key). It was ignored and left out of every address this dashboard gives back: ' +
  'a key in a URL stays in browser history, bookmarks and server logs. Sign in with the form instead, and consider revoking that key.';

/** Text made safe inside HTML content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The document head; `root` leads from the page's directory back to the dashboard's (`../../` under account/);
 * `theme` (a shared link's `theme=`) sets `data-theme` on the document, which the stylesheet reads.
 */
export const head = (assets: DashboardAssets, title: string, script: boolean, root = '', extra = '', theme?: Theme) => `<!doctype html>
<html lang="en"${theme ? ` data-theme="${theme}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="${root}dashboard/assets/${assets.icon.name}">
<link rel="stylesheet" href="${root}dashboard/assets/${assets.style.name}">
${script ? `<script type="module" src="${root}dashboard/assets/${assets.script.name}"></script>\n` : ''}${extra}</head>`;

/**
 * The sign-in form. It posts the key once, to this server, which answers with a session
 * cookie; the key is never written back into a page (a refused key leaves the field empty).
 */
export function signInPage(
  assets: DashboardAssets,
  options: { view: string; error?: string; notice?: string; email?: string; info?: string; root?: string; accounts?: { id: string; name: string }[] },
): string {
  // Answered at `/` and, after a refused post, at `dashboard/sign-in`: `root` leads back to the dashboard's directory from there.
  const root = options.root ?? '';
  // One email, several accounts whose user has that password: the person picks one (the password is asked again, never written into the page).
  const accounts = options.accounts?.length
    ? `<fieldset class="accounts"><legend>Account</legend>
${options.accounts.map((a) => `<label><input type="radio" name="account" value="${escapeHtml(a.id)}" required> ${escapeHtml(a.name)}</label>`).join('\n')}
</fieldset>
`
    : '';
  return `${head(assets, 'Sign in · Siteline', false, root)}
<body class="signin">
<main>
<h1>Siteline</h1>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>\n` : ''}${options.notice ? `<p class="error" role="status">${escapeHtml(options.notice)}</p>\n` : ''}${options.info ? `<p class="note" role="status">${escapeHtml(options.info)}</p>\n` : ''}<form method="post" action="${root}dashboard/sign-in" aria-label="Sign in with email and password">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="username" value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required maxlength="200" autocomplete="current-password">
${accounts}<label for="totp">Two-factor code (if you set one up)</label>
<input id="totp" name="totp" type="text" inputmode="numeric" maxlength="32" autocomplete="one-time-code">
<input type="hidden" name="view" value="${escapeHtml(options.view)}">
<button type="submit">Sign in</button>
</form>
<details class="with-key">
<summary>Sign in with an API key instead</summary>
<form method="post" action="${root}dashboard/sign-in" aria-label="Sign in with an API key">
<label for="key">API key</label>
<input id="key" name="key" type="password" required maxlength="512" autocomplete="off" autofocus>
<input type="hidden" name="view" value="${escapeHtml(options.view)}">
<button type="submit">Sign in</button>
<p class="hint">The Community key (<code>SERVICE_API_KEY</code>) or a Cloud key (<code>st_…</code>). It is sent once, to this server, which gives this browser a session instead; the key is not kept in the browser.</p>
</form>
</details>
</main>
</body>
</html>
`;
}

/**
 * The page a signed-in browser gets: a skeleton the script replaces with the dashboard. The
 * session's CSRF token rides in a meta element for the script's sign-out form; `account`
 * (owners) adds the link to the account pages.
 */
export function appPage(assets: DashboardAssets, session: { csrf: string; account: boolean }): string {
  const meta = `<meta name="csrf-token" content="${escapeHtml(session.csrf)}">\n${session.account ? '<meta name="siteline-account" content="dashboard/account/">\n' : ''}`;
  return `${head(assets, 'Siteline', true, '', meta)}
<body>
<div id="app">
<header class="top"><span class="brand">Siteline</span><form method="post" action="dashboard/sign-out"><input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}"><button type="submit">Sign out</button></form></header>
<main class="content"><p class="loading">Loading…</p></main>
</div>
</body>
</html>
`;
}
