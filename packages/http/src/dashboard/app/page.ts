/**
 * What the server put in the page for the script: the session's CSRF token and the account
 * pages' address (a signed-in browser), or the one site of a shared link and whether the page
 * is embedded in another site's frame (share/pages.ts).
 */

/** The content of `<meta name="…">`, if the page has one. */
export const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

/** The site of a shared link's page: the only one it reads (no picker, no sign-out, no account pages). */
export const SHARED_SITE = meta('siteline-share');

/** An embedded page (`embed=true`): no header at all. */
export const EMBEDDED = meta('siteline-embed') === 'true';

/** A shared page's look (`embed`, `theme`), kept in every address the script writes, so a reload looks the same. */
const LOOK = (() => {
  if (!SHARED_SITE) return '';
  const opened = new URLSearchParams(location.search);
  const kept = new URLSearchParams();
  for (const name of ['embed', 'theme']) {
    const value = opened.get(name);
    if (value) kept.set(name, value);
  }
  return kept.toString();
})();

/** A view's query string (`writeView`'s, starting `?site_id=`) with the page's look appended. */
export const withLook = (search: string) => (LOOK ? `${search}&${LOOK}` : search);
