/**
 * The browser script served at `/tracker.js`, kept as a string so it ships inside the built
 * package with no asset copying. Hand-written ES5 (it runs on every page of every site, so
 * no build step and no dependency); under 2 KB gzipped, which a test asserts.
 *
 * Embed it with `trackerSnippet` (snippet.ts): a queue stub that defines `siteline()` before
 * the script loads, then the deferred script. `siteline('event', 'signup')` records a custom
 * event, `siteline('event', 'Signup', { props: { plan: 'pro', seats: 3 } })` one with
 * properties (the server checks them). Calls queued before the script ran are sent after the
 * first pageview, in order. Pages that pasted the earlier snippet, whose stub was named
 * `tracker`, keep working: that queue is replayed too and `tracker` stays their function.
 * What it does (docs/tracker.md):
 * - a pageview on load, and on SPA navigation (`history.pushState`/`replaceState`,
 *   `popstate`), never twice in a row for the same URL (the fragment does not count);
 * - sends `{site_id, type, name?, url, referrer, props?}` to `collect` next to the script's own
 *   URL (or `data-api`), with `sendBeacon` and a `text/plain` body (a CORS "simple" request: no
 *   preflight), falling back to `fetch(..., {keepalive: true})`; a body that could pass the 64 KB
 *   browsers allow either of them (16,000 characters or more: large props) goes by a plain `fetch`;
 * - no cookies, no storage, nothing kept on the device; it only reads `siteline_ignore` from
 *   localStorage, which a site's owner sets in their own browser to leave their visits out.
 */
export const TRACKER_SCRIPT = `(function () {
  'use strict';
  var w = window, d = document, n = navigator, l = location, h = w.history;
  // The browser's owner asked not to be counted (docs/tracker.md): nothing is sent from it.
  try {
    if (w.localStorage.getItem('siteline_ignore') === 'true') {
      w.siteline = function () {};
      return;
    }
  } catch (e) {}
  var s = d.currentScript || d.querySelector('script[data-site]');
  if (!s) return;
  var site = s.getAttribute('data-site');
  var api = s.getAttribute('data-api') || new URL('collect', s.src).href;
  var last;

  function send(type, name, props) {
    var body = { site_id: site, type: type, url: l.href, referrer: d.referrer };
    if (name != null) body.name = String(name);
    if (props != null) body.props = props;
    var data = JSON.stringify(body);
    var small = data.length < 16000;
    try {
      if (small && n.sendBeacon && n.sendBeacon(api, new Blob([data], { type: 'text/plain' }))) return;
    } catch (e) {}
    try {
      fetch(api, { method: 'POST', body: data, headers: { 'Content-Type': 'text/plain' }, keepalive: small, credentials: 'omit', mode: 'no-cors' })['catch'](function () {});
    } catch (e) {}
  }

  function page() {
    var url = l.href.split('#')[0];
    if (url === last) return;
    last = url;
    send('pageview');
  }

  function siteline(command, name, options) {
    if (command === 'event' && name) send('event', name, options && options.props);
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

  // The earlier snippet's stub was named tracker (recognised by its queue, so a page's own
  // function of that name is left alone): replay its queue and keep the name for those pages.
  var legacy = typeof w.tracker === 'function' && String(w.tracker).indexOf('tracker.q') >= 0;
  var queued = ((legacy && w.tracker.q) || []).concat((w.siteline && w.siteline.q) || []);
  w.siteline = siteline;
  if (legacy) w.tracker = siteline;
  page();
  for (var i = 0; i < queued.length; i++) siteline.apply(null, queued[i]);
})();
`;
