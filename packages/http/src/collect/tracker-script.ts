/**
 * The browser script served at `/tracker.js`, kept as a string so it ships inside the built
 * package with no asset copying. Hand-written ES5 (it runs on every page of every site, so
 * no build step and no dependency); under 2 KB gzipped, which a test asserts.
 *
 * Embed, optionally with the queue stub so calls made before the script loads are kept:
 *
 * ```html
 * <script>window.tracker=window.tracker||function(){(window.tracker.q=window.tracker.q||[]).push(arguments)}</script>
 * <script defer src="https://stats.example.com/tracker.js" data-site="ST-xxxx"></script>
 * ```
 *
 * Then `tracker('event', 'signup')` records a custom event. What it does:
 * - a pageview on load, and on SPA navigation (`history.pushState`/`replaceState`,
 *   `popstate`), never twice in a row for the same URL (the fragment does not count);
 * - sends `{site_id, type, name?, url, referrer}` to `collect` next to the script's own URL
 *   (or `data-api`), with `sendBeacon` and a `text/plain` body (a CORS "simple" request: no
 *   preflight), falling back to `fetch(..., {keepalive: true})`;
 * - no cookies, no storage, nothing kept on the device.
 */
export const TRACKER_SCRIPT = `(function () {
  'use strict';
  var w = window, d = document, n = navigator, l = location, h = w.history;
  var s = d.currentScript || d.querySelector('script[data-site]');
  if (!s) return;
  var site = s.getAttribute('data-site');
  var api = s.getAttribute('data-api') || new URL('collect', s.src).href;
  var last;

  function send(type, name) {
    var body = { site_id: site, type: type, url: l.href, referrer: d.referrer };
    if (name != null) body.name = String(name);
    var data = JSON.stringify(body);
    try {
      if (n.sendBeacon && n.sendBeacon(api, new Blob([data], { type: 'text/plain' }))) return;
    } catch (e) {}
    try {
      fetch(api, { method: 'POST', body: data, headers: { 'Content-Type': 'text/plain' }, keepalive: true, credentials: 'omit', mode: 'no-cors' })['catch'](function () {});
    } catch (e) {}
  }

  function page() {
    var url = l.href.split('#')[0];
    if (url === last) return;
    last = url;
    send('pageview');
  }

  function tracker(command, name) {
    if (command === 'event' && name) send('event', name);
  }

  ['pushState', 'replaceState'].forEach(function (method) {
    var original = h[method];
    if (!original) return;
    h[method] = function () {
      var result = original.apply(this, arguments);
      page();
      return result;
    };
  });
  w.addEventListener('popstate', page);

  var queued = (w.tracker && w.tracker.q) || [];
  w.tracker = tracker;
  page();
  for (var i = 0; i < queued.length; i++) tracker.apply(null, queued[i]);
})();
`;
