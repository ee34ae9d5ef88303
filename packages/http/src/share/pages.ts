/**
 * The pages a shared link answers, written on the server: the dashboard's shell for the
 * link's site (the script renders into it, as for a signed-in browser), the password form,
 * and the page of a link that does not work. The shell's address is `share/<token>/`, so
 * `root` (`../../`) leads back to the dashboard's directory, where the assets are.
 */
import type { SharedLinkRow } from '@siteline/core';
import type { DashboardAssets } from '../dashboard/assets.js';
import { escapeHtml as e, head, type Theme } from '../dashboard/pages.js';

const ROOT = '../../';

/** How the link's page was asked to look: `embed=true` (no header) and `theme=`. */
export interface ShareLook {
  embed: boolean;
  theme: Theme;
}

/**
 * The dashboard's shell for a link: meta elements tell the script it reads one site (no
 * picker, no sign-out, no account pages) and, embedded, to leave the header out.
 */
export function sharedAppPage(assets: DashboardAssets, link: Pick<SharedLinkRow, 'site_id'>, siteName: string, look: ShareLook): string {
  const meta = `<meta name="siteline-share" content="${e(link.site_id)}">\n${look.embed ? '<meta name="siteline-embed" content="true">\n' : ''}`;
  return `${head(assets, `${siteName} · Siteline`, true, ROOT, meta, look.theme)}
<body${look.embed ? ' class="embedded"' : ''}>
<div id="app">
${look.embed ? '' : `<header class="top"><span class="brand">${e(siteName)}</span></header>\n`}<main class="content"><p class="loading">Loading…</p></main>
</div>
</body>
</html>
`;
}

/** The form a password link answers until its password is given; it posts to `password` with the view to come back to. */
export function sharePasswordPage(assets: DashboardAssets, siteName: string, view: string, look: ShareLook, error?: string): string {
  return `${head(assets, `${siteName} · Siteline`, false, ROOT, '', look.theme)}
<body class="signin">
<main>
<h1>${e(siteName)}</h1>
<p>This dashboard is shared with a password.</p>
${error ? `<p class="error" role="alert">${e(error)}</p>\n` : ''}<form method="post" action="password">
<label for="share-password">Password</label>
<input id="share-password" name="password" type="password" required maxlength="200" autocomplete="current-password" autofocus>
<input type="hidden" name="view" value="${e(view)}">
<button type="submit">Open the dashboard</button>
</form>
</main>
</body>
</html>
`;
}

/** A token that opens nothing: revoked, mistyped, cut short. Which one is told to no one. */
export function shareGonePage(assets: DashboardAssets, root: string): string {
  return `${head(assets, 'Shared link not available · Siteline', false, root)}
<body class="signin">
<main>
<h1>This shared link does not work</h1>
<p>It was revoked, or its address is not complete. Ask whoever shared it for a new one.</p>
</main>
</body>
</html>
`;
}
