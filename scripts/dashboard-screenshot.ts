/**
 * `npm run docs:screenshot`: writes docs/dashboard.png, the dashboard as a newcomer first sees
 * it: the demo site (90 days of traffic ending at the tests' fixed clock, so every run draws
 * the same), the default view (last 30 days, no comparison), 1280 px wide, in headless
 * Chromium, through the same test server as the browser tests. Run it after a change to what
 * the first screen shows and commit the file; no other screenshot belongs in the repository.
 */
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDashboard } from '../packages/http/src/dashboard/test-helpers.js';

const OUT = fileURLToPath(new URL('../docs/dashboard.png', import.meta.url));

const t = await startDashboard();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-US', viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${t.origin}/`);
  await page.click('summary:has-text("Sign in with an API key instead")');
  await page.fill('#key', t.key);
  await Promise.all([page.waitForURL((url) => url.searchParams.has('site_id')), page.click('form[aria-label="Sign in with an API key"] button[type=submit]')]);
  // Every panel answered (as the browser tests wait), and the chart drawn at its width.
  await page.waitForFunction(() => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    return panels.length >= 9 && panels.every((p) => p.getAttribute('aria-busy') === 'false');
  });
  await page.waitForFunction(() => !document.querySelector('[data-panel=live]')?.textContent?.includes('–'));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await t.close();
}
