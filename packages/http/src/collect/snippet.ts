/**
 * The two lines a site puts in its pages to load the tracker, written once: the account
 * pages (server) and the dashboard's waiting screen (browser bundle) both show this. No
 * Node imports, so the dashboard's bundle can take it.
 */

/**
 * The tracker snippet for a site: a queue for calls made before the script loads, then the
 * script from this server.
 * @example trackerSnippet('https://stats.example.com', '/tracker.js', 'ST-blog')
 */
export const trackerSnippet = (origin: string, trackerPath: string, siteId: string) =>
  `<script>window.tracker=window.tracker||function(){(window.tracker.q=window.tracker.q||[]).push(arguments)}</script>\n<script defer src="${origin}${trackerPath}" data-site="${siteId}"></script>`;
