/**
 * The HTML of an email report as a mail client would show it, in real headless Chromium at
 * 1280 and 390 px: the demo site's week through the API's report functions, nothing wider
 * than the window on a phone, every name escaped. Screenshots go to SHOTS (outside the repository).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDemoSite, openSqliteBackend, periodOf, reportFigures } from '@siteline/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../people/account-browser-steps.js';
import { renderReport } from './render.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-37';
mkdirSync(SHOTS, { recursive: true });

describe('the email report in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-report-html-'));
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the week at 1280 and 390 px, within the window, with the figures and lists', async () => {
    const backend = openSqliteBackend(join(dir, 'mail.db'));
    const { site } = await addDemoSite(backend.storage, { id: 'ST-mail', days: 21, pageviewsPerDay: 150, seed: 7, now: Date.parse('2026-11-23T00:00:00Z') });
    const figures = await reportFigures(backend.storage, { ...site, name: 'Demo <b>&</b> "blog"' }, periodOf('week', '2026-11-16', site.timezone));
    await backend.close();
    const mail = renderReport(figures, { dashboard: 'https://stats.example.test/?site_id=ST-mail', unsubscribe: 'https://stats.example.test/dashboard/unsubscribe?token=x' }, 'ann@example.com');
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.setContent(mail.html!);
      expect(await page.locator('h1').textContent()).toBe('Demo <b>&</b> "blog"'); // escaped, shown as written
      expect(await page.locator('h2').allTextContents()).toEqual(['Top pages', 'Top sources', 'Goals']);
      expect(await page.evaluate(() => [...document.querySelectorAll('th')].find((th) => th.textContent === 'Page')!.closest('table')!.rows.length)).toBe(6); // the heading and the top 5
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SHOTS}/email-${width}.png`, fullPage: true });
      await page.close();
    }
  }, 60_000);
});
