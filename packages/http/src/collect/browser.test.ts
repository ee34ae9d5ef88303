/**
 * End to end in real headless Chromium: a site embeds the tracker, a visitor loads a page,
 * follows a link, changes route in a single-page app and fires custom events (one called
 * before the script loaded, through the snippet's queue); the read reports then count exactly that.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSite, parseQuery, REPORTS } from '@siteline/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackerSnippet } from './snippet.js';
import { CHROME_UA, startCollector, type TestCollector } from './test-helpers.js';

const SITE = 'ST-e2e';

/** The embed snippet as the Sites page gives it, then the page's own script (run before tracker.js). */
const html = (collector: string, body: string, early = '') => `<!doctype html><html><head><title>t</title>
${trackerSnippet(`${collector}/tracker.js`, SITE)}
<script>${early}</script>
</head><body>${body}</body></html>`;

/** A page that pasted the earlier snippet, whose queue stub was named `tracker`. */
const legacyHtml = (collector: string) => `<!doctype html><html><head><title>t</title>
<script>window.tracker=window.tracker||function(){(window.tracker.q=window.tracker.q||[]).push(arguments)}</script>
<script>tracker('event', 'legacy-queued')</script>
<script defer src="${collector}/tracker.js" data-site="${SITE}"></script>
</head><body>legacy</body></html>`;

describe('tracker in headless Chromium', () => {
  let c: TestCollector;
  let site: http.Server;
  let sitePort: number;
  let browser: Browser;

  beforeAll(async () => {
    c = await startCollector({ batch: { maxEvents: 100 } });
    // The page is loaded from http://localhost:<port>, so the site's domain is `localhost`.
    await createSite(c.storage, { id: SITE, name: 'E2E', domain: 'localhost' });
    site = http.createServer((req, res) => {
      if (req.url === '/legacy') return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(legacyHtml(c.url));
      const first = req.url === '/';
      const body = first ? '<a id="next" href="/second?utm_source=ignored">next</a>' : '<p>second</p>';
      // The first page records an event before the script has loaded: it waits in the queue.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html(c.url, body, first ? "siteline('event', 'queued', { props: { plan: 'pro', seats: 3, trial: true } })" : ''));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    site?.closeAllConnections();
    await new Promise((r) => site?.close(r));
    await c?.close();
  });

  /** Waits until the collector has accepted `n` beacons (they are fire-and-forget). */
  async function accepted(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (c.handler.stats.totals().accepted < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(c.handler.stats.totals().accepted).toBe(n);
  }

  it('records pageviews, SPA navigation and custom events of one visit', async () => {
    const context = await browser.newContext({ userAgent: CHROME_UA }); // HeadlessChrome would count as a bot
    const page: Page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://localhost:${sitePort}/`);
    await accepted(2); // the pageview and the event called before tracker.js loaded
    expect(errors).toEqual([]); // no ReferenceError: the snippet defined siteline() first
    await Promise.all([page.waitForURL('**/second**'), page.click('#next')]);
    await accepted(3);
    // After load, the same public name, with properties (properties-goals.md section 1).
    await page.evaluate(() => (window as unknown as { siteline: (...a: unknown[]) => void }).siteline('event', 'clicked', { props: { button: 'Start "free" trial' } }));
    await accepted(4);
    await page.evaluate(() => {
      history.replaceState({}, '', location.href); // same URL: no pageview
      history.pushState({}, '', '/spa/route');
      history.pushState({}, '', '/spa/route#section'); // only the fragment changed: no pageview
    });
    await accepted(5);
    await page.goBack(); // popstate back to /spa/route: same URL as last sent, no pageview
    await new Promise((r) => setTimeout(r, 300));
    await context.close();
    await accepted(5);
    expect(c.handler.stats.totals()).toMatchObject({ bot: 0, foreign_host: 0, invalid: 0, unknown_site: 0 });

    await c.handler.flush();
    const now = Date.now();
    const q = (endpoint: Parameters<typeof parseQuery>[0]) => parseQuery(endpoint, { site_id: SITE, period: '1d' });
    expect(await REPORTS.stats(c.storage, q('stats'), { now })).toMatchObject({ pageviews: 3, sessions: 1, visitors: 1, bounce_rate: 0 });
    expect((await REPORTS.events(c.storage, q('events'), { now })).events).toEqual([
      { name: 'clicked', count: 1 },
      { name: 'queued', count: 1 },
    ]);
    expect((await REPORTS.live(c.storage, parseQuery('live', { site_id: SITE }), { now })).live).toBe(1);
    const props = (name: string) => REPORTS.properties(c.storage, parseQuery('properties', { site_id: SITE, period: '1d', name }), { now });
    expect(await props('queued')).toEqual({
      name: 'queued',
      properties: [
        { property: 'plan', count: 1, visitors: 1 },
        { property: 'seats', count: 1, visitors: 1 },
        { property: 'trial', count: 1, visitors: 1 },
      ],
    });
    const button = await REPORTS.properties(c.storage, parseQuery('properties', { site_id: SITE, period: '1d', name: 'clicked', property: 'button' }), { now });
    expect(button).toEqual({ name: 'clicked', property: 'button', values: [{ value: 'Start "free" trial', count: 1, visitors: 1 }] });
    const pages = (await REPORTS.pages(c.storage, q('pages'), { now })).pages;
    expect(pages.map((p) => [p.url, p.pageviews, p.visitors])).toEqual([
      ['/', 1, 1],
      ['/second', 1, 1],
      ['/spa/route', 1, 1],
    ]);
    // Later pages' own referrers and UTM do not change the session: its first event decides.
    expect((await REPORTS.referrers(c.storage, q('referrers'), { now })).referrers).toEqual([
      { source: 'Direct / None', visitors: 1, sessions: 1 },
    ]);
    expect((await REPORTS.devices(c.storage, q('devices'), { now })).devices).toEqual([{ name: 'Desktop', visitors: 1 }]);
  });

  it('keeps a page with the earlier `tracker` snippet working: its queue is sent and tracker() still records', async () => {
    const before = c.handler.stats.totals().accepted;
    const context = await browser.newContext({ userAgent: CHROME_UA });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://localhost:${sitePort}/legacy`);
    await accepted(before + 2); // the pageview and the queued event
    await page.evaluate(() => (window as unknown as { tracker: (...a: unknown[]) => void }).tracker('event', 'legacy-after'));
    await accepted(before + 3);
    await context.close();
    expect(errors).toEqual([]);
    await c.handler.flush();
    const events = (await REPORTS.events(c.storage, parseQuery('events', { site_id: SITE, period: '1d' }), { now: Date.now() })).events;
    expect(events.filter((e) => e.name.startsWith('legacy'))).toEqual([
      { name: 'legacy-after', count: 1 },
      { name: 'legacy-queued', count: 1 },
    ]);
  });

  it('sends nothing from a browser whose localStorage says siteline_ignore=true, and siteline() still does not throw', async () => {
    const before = c.handler.stats.totals().accepted;
    const context = await browser.newContext({ userAgent: CHROME_UA });
    await context.addInitScript(() => localStorage.setItem('siteline_ignore', 'true'));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://localhost:${sitePort}/`); // its inline script calls siteline() before tracker.js loads
    await page.waitForFunction(() => typeof (window as unknown as { siteline: { q?: unknown } }).siteline.q === 'undefined'); // the script ran
    await page.evaluate(() => (window as unknown as { siteline: (...a: unknown[]) => void }).siteline('event', 'ignored'));
    await new Promise((r) => setTimeout(r, 300));
    await context.close();
    expect(errors).toEqual([]);
    expect(c.handler.stats.totals().accepted).toBe(before);
  });
});
