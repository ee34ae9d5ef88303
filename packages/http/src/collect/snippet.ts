/**
 * The two lines a site pastes into its pages, written once: the Sites page, the dashboard's
 * empty site, the tests and docs/tracker.md show this text. No `node:` imports: the
 * dashboard's browser bundle imports it too.
 */

/** The tracker's one public name: `siteline('event', 'signup')`. */
export const TRACKER_NAME = 'siteline';

/**
 * Defines `siteline()` before the script has loaded: calls wait in `siteline.q`, and the
 * script sends them, in order, after the first pageview. Without it, a call made before
 * `tracker.js` ran would throw a `ReferenceError` and the event would be lost.
 */
export const QUEUE_STUB = `window.${TRACKER_NAME}=window.${TRACKER_NAME}||function(){(window.${TRACKER_NAME}.q=window.${TRACKER_NAME}.q||[]).push(arguments)}`;

/**
 * The snippet for one site: the queue stub, then the deferred script.
 * @example trackerSnippet('https://stats.example.com/tracker.js', 'ST-blog1')
 * // <script>window.siteline=window.siteline||function(){…}</script>
 * // <script defer src="https://stats.example.com/tracker.js" data-site="ST-blog1"></script>
 */
export function trackerSnippet(scriptUrl: string, siteId: string): string {
  return `<script>${QUEUE_STUB}</script>\n<script defer src="${scriptUrl}" data-site="${siteId}"></script>`;
}
