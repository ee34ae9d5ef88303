/**
 * Names of the longest allowed lengths and names that carry bidirectional controls, in real
 * headless Chromium at 1280 and 390 px: a 200-character site name, a 253-character domain
 * and a 500-character page goal keep the dashboard and the account pages within the window
 * (every Delete button on screen), long names carry the full value in a `title`; an
 * event name with U+202E (right-to-left override) shows the control as a visible escape,
 * while the API returns it as sent. Screenshots go to a temporary folder (printed).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addGoal, createSite, importEvents } from '@siteline/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, settled } from '../people/account-browser-steps.js';
import { userWithPassword } from '../people/people-test-helpers.js';
import { startDashboard, type TestDashboard } from './test-helpers.js';

const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'siteline-long-names-'));
const NAME = `Storefront${'Ω'.repeat(10)}${'N'.repeat(180)}`; // 200 characters, no space to break at
const DOMAIN = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.'); // 253
const GOAL_PATH = `/${'x'.repeat(499)}`; // 500
const EVENT = '\u202Eexe.txt'; // reads "txt.exe" when the override is obeyed

let browser: Browser;
let t: TestDashboard;
let cookie = '';
beforeAll(async () => {
  browser = await launchChromium();
  t = await startDashboard({ cloud: true });
  cookie = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', 'tulip-orbit-42-canyon');
  await createSite(t.backend.storage, { id: 'ST-long', name: NAME, domain: DOMAIN, timezone: 'UTC', accountId: t.cloud!.accountA });
  const line = (l: Record<string, unknown>) => JSON.stringify({ site_id: 'ST-long', visitor_id: 'v1', country_code: 'DE', device_type: 'Desktop', browser: 'Chrome', os: 'Linux', ...l });
  await importEvents(t.backend.storage, [
    line({ ts: '2026-11-19T10:00:00Z', type: 'pageview', url: GOAL_PATH }),
    line({ ts: '2026-11-19T10:00:30Z', type: 'event', name: EVENT, url: GOAL_PATH }),
  ].join('\n'));
  await addGoal(t.backend.storage, 'ST-long', { type: 'page', value: GOAL_PATH });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  console.log(`long-name screenshots: ${SCREENSHOTS}`);
});

async function openAt(width: number, path: string): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-US', viewport: { width, height: 900 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: t.origin, secure: true, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${t.origin}${path}`);
  return page;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('long owner-set names and bidirectional controls', () => {
  for (const width of [1280, 390]) {
    it(`the dashboard at ${width} px: no wider than the window; the site picker and the goal's row carry their full names in a title; the event's U+202E shows as an escape`, async () => {
      const page = await openAt(width, '/?site_id=ST-long&from=2026-11-19&to=2026-11-20&compare=off');
      await settled(page);
      await page.waitForSelector('section[data-panel=goals][aria-busy=false] tbody th');
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${width}.png`), fullPage: true });
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await page.locator('.controls select').first().getAttribute('title')).toBe(`${NAME} (ST-long)`);
      expect(await page.locator('section[data-panel=goals] tbody th .row-filter').first().getAttribute('title')).toBe(`Visit ${GOAL_PATH}`);
      const event = page.locator('section[data-panel=events] tbody th .row-filter').first();
      expect([await event.locator('.label').textContent(), await event.getAttribute('title')]).toEqual(['[U+202E]exe.txt', '[U+202E]exe.txt']);
      await page.context().close();
    });

    it(`the account pages at ${width} px: Sites and Goals no wider than the window, every Delete button on screen`, async () => {
      for (const path of ['/dashboard/account/sites', '/dashboard/account/goals?site_id=ST-long']) {
        const page = await openAt(width, path);
        await page.screenshot({ path: join(SCREENSHOTS, `account-${path.split('/').pop()!.split('?')[0]}-${width}.png`), fullPage: true });
        expect([path, await overflow(page)]).toEqual([path, expect.any(Number)]);
        expect([path, (await overflow(page)) <= 0]).toEqual([path, true]);
        const rights = await page.locator('button', { hasText: 'Delete' }).evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().right));
        expect(rights.every((r) => r <= width)).toBe(true);
        await page.context().close();
      }
    });
  }

  it('the API returns the event name as it was sent (the escape is only how the dashboard shows it)', async () => {
    const reply = await t.request('/api/v1/events?site_id=ST-long&from=2026-11-19&to=2026-11-20', { headers: { Authorization: `Bearer ${t.cloud!.keyA}` } });
    expect((JSON.parse(reply.text) as { events: { name: string }[] }).events.map((e) => e.name)).toEqual([EVENT]);
  });
});
