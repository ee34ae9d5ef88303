/**
 * The dashboard's browser tests' shared steps (not exported from the package): Chromium with
 * recorded requests and problems, the sign-in form, waiting for panels, the API's JSON for
 * what a panel shows, and "every panel equals the API". Used by browser.test.ts and
 * newcomer.browser.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page, type Request, type Response } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_NOW, type TestDashboard } from './test-helpers.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const LIST_PANELS = ['pages', 'referrers', 'channels', 'locations', 'devices', 'events', 'campaigns'] as const;
export const PANELS = ['stats', 'timeseries', ...LIST_PANELS] as const;

// The figures as an en-US reader sees them (the contexts run with locale en-US unless said otherwise).
export const count = (n: number, locale = 'en-US') => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n);
export const percent = (n: number) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(n / 100);
export const change = (now: number, before: number) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format((now - before) / before);
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

export interface Session {
  context: BrowserContext;
  page: Page;
  requests: Request[];
  responses: Response[];
  /** Console errors, page errors and CSP violations. */
  problems: string[];
}

export interface OpenOptions {
  locale?: string;
  viewport?: { width: number; height: number };
  /** The browser's own time zone (default the machine's). */
  timezoneId?: string;
}

/** Headless Chromium as every browser test runs it; `open` gives a fresh context whose requests and problems are recorded. */
export async function launch(): Promise<{ browser: Browser; open(options?: OpenOptions): Promise<Session>; close(): Promise<void> }> {
  // Playwright gives each launch a fresh, temporary --user-data-dir of its own (and refuses one in `args`).
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const sessions: Session[] = [];
  return {
    browser,
    async open(options = {}) {
      const context = await browser.newContext({
        ignoreHTTPSErrors: true, locale: options.locale ?? 'en-US', viewport: options.viewport ?? { width: 1280, height: 900 },
        ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      });
      const page = await context.newPage();
      const session: Session = { context, page, requests: [], responses: [], problems: [] };
      context.on('request', (r) => session.requests.push(r));
      context.on('response', (r) => session.responses.push(r));
      page.on('console', (m) => { if (m.type() === 'error') session.problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => session.problems.push(`page error: ${e.message}`));
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
      });
      sessions.push(session);
      return session;
    },
    async close() {
      for (const s of sessions) await s.context.close().catch(() => {});
      await browser.close();
    },
  };
}

/**
 * Waits until every panel shows an answer (not busy) and, in the panels named by `panel` (all by
 * default), the request it answered contains each of `having` and none of `without`.
 */
export async function settled(page: Page, having: string[] = [], without: string[] = [], panel?: string): Promise<void> {
  await page.waitForFunction(([want, avoid, only]) => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    // 9 panels, the Goals panel when the storage keeps goals, and the properties of an opened event.
    return panels.length >= 9 && panels.every((p) => {
      const q = p.getAttribute('data-query');
      if (p.getAttribute('aria-busy') !== 'false' || q === null) return false;
      if (only && p.getAttribute('data-panel') !== only) return true;
      return want.every((w) => q.includes(w)) && !avoid.some((a) => q.includes(a));
    });
  }, [having, without, panel] as const, { timeout: 20_000 });
}

/** Signs in through the form as a person would; resolves with the dashboard settled (`settle`: its panels have answered). */
export async function signInWithForm(s: Session, t: TestDashboard, key: string, path = '/', settle = true): Promise<void> {
  await s.page.goto(`${t.origin}${path}`);
  await s.page.click('summary:has-text("Sign in with an API key instead")');
  await s.page.fill('#key', key);
  await Promise.all([s.page.waitForURL((url) => url.searchParams.has('site_id')), s.page.click('form[aria-label="Sign in with an API key"] button[type=submit]')]);
  if (settle) await settled(s.page);
}

/** The API's JSON for the request a panel shows, asked with the key (from Node). */
export async function apiFor(t: TestDashboard, page: Page, panel: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  // A panel that shows once another answer says so (Goals, after the site list) may not have asked yet.
  const query = await (await page.waitForSelector(`section[data-panel=${panel}][data-query]`)).getAttribute('data-query');
  const reply = await t.request(`/api/v1/${query}`, { headers: { Authorization: `Bearer ${t.key}` } });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text);
}

export const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

/** The rows of a panel's own table (not those of a table opened inside it): key and figures. */
export const shownRows = (page: Page, panel: string) =>
  page.$$eval(`section[data-panel=${panel}] > table > tbody > tr[data-key]`, (trs) => trs.map((tr) => [tr.getAttribute('data-key'), ...[...tr.querySelectorAll(':scope > td .value')].map((c) => c.textContent)]));

/**
 * Every figure, list and chart row on the page equals the API's answer to the query that panel
 * shows. The chart's table holds the API's buckets up to now (`DEMO_NOW`, the server's clock):
 * a bucket it leaves out starts after now.
 */
export async function expectPanelsMatchApi(t: TestDashboard, page: Page, now = DEMO_NOW): Promise<void> {
  const stats = await apiFor(t, page, 'stats');
  expect(await texts(page, '[data-panel=stats] .figure .value')).toEqual([
    count(stats.visitors), count(stats.pageviews), count(stats.sessions), percent(stats.bounce_rate), duration(stats.avg_duration),
  ]);
  const series = await apiFor(t, page, 'timeseries');
  const shownSeries = await page.$$eval('[data-panel=timeseries] tbody tr', (rows) => rows.map((r) => [r.getAttribute('data-date'), ...[...r.querySelectorAll('td')].map((c) => c.textContent)]));
  expect(shownSeries.length).toBeGreaterThan(0);
  expect(shownSeries).toEqual(series.timeseries.slice(0, shownSeries.length).map((r: any) => [r.date, count(r.visitors), count(r.pageviews), count(r.sessions)])); // eslint-disable-line @typescript-eslint/no-explicit-any
  const next: string | undefined = series.timeseries[shownSeries.length]?.date;
  // Hours carry their offset; days, weeks and months are Berlin days (the demo site's zone), and now is Nov 20 there.
  if (next !== undefined) expect(next.includes('T') ? Date.parse(next) > now : next > new Date(now + 3_600_000).toISOString().slice(0, 10)).toBe(true);
  const fields: Record<(typeof LIST_PANELS)[number], [string, string[]]> = {
    pages: ['url', ['visitors', 'pageviews']],
    referrers: ['source', ['visitors', 'sessions']],
    channels: ['channel', ['visitors', 'sessions']],
    locations: ['country_code', ['visitors']],
    devices: ['name', ['visitors']],
    events: ['name', ['count']],
    campaigns: ['', ['visitors', 'sessions']],
  };
  for (const panel of LIST_PANELS) {
    const body = await apiFor(t, page, panel);
    const [name, metrics] = fields[panel];
    const rows = (body[panel] as any[]).slice(0, 10); // eslint-disable-line @typescript-eslint/no-explicit-any
    const key = (r: any) => (panel === 'campaigns' ? `${r.source}\u0000${r.medium}\u0000${r.campaign}` : String(r[name])); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect([panel, await shownRows(page, panel)]).toEqual([panel, rows.map((r) => [key(r), ...metrics.map((m) => count(r[m]))])]);
  }
  if (await page.locator('section[data-panel=goals]').count()) {
    const { goals } = await apiFor(t, page, 'goals');
    expect(['goals', await shownRows(page, 'goals')]).toEqual(['goals', (goals as any[]).slice(0, 10).map((g) => [g.goal, count(g.visitors), count(g.conversions), percent(g.conversion_rate)])]); // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}

/** Serious and critical axe-core findings on the page (injected through DevTools, so the page's CSP does not apply to it). */
export async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe.run());
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/**
 * Text the page cuts off: every element holding a name, figure or label whose content is wider
 * than its box (scrollWidth > clientWidth), and every chart label outside the chart. Each entry
 * names the element and its text.
 */
export async function cutLabels(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cut = [];
    const boxes = '.row-filter, .label, .chip, .figure dt, .figure dd, .panel h2, .describe, .tabs button, .field, .field select, .legend .item, th, td, .note, .empty-state p, .empty-state pre';
    for (const el of document.querySelectorAll(boxes)) {
      if (el.closest('.sr-only, .visually-hidden')) continue; // clipped on purpose: for screen readers only
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto') cut.push(el.className + ': ' + el.textContent.trim().slice(0, 60));
    }
    for (const svg of document.querySelectorAll('.plot svg')) {
      const box = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll('text')) {
        const r = text.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) cut.push('chart label: ' + text.textContent);
      }
    }
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth) cut.push('page: ' + document.documentElement.scrollWidth + ' px wide');
    return cut;
  })()`);
}
