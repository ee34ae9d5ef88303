/**
 * Steps of the account interface in real Chromium, shared by the Cloud and the Community
 * edition's browser tests (not exported from the package): the browser, axe-core, a page
 * that records its errors, and what a person does on the pages (set a password through a
 * link, sign in, add and edit a site, add a goal, invite a viewer, meet the owner-only pages).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Headless Chromium as the tests run it. */
export const launchChromium = () =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

/** Waits until every dashboard panel has its answer (none busy). */
export const settled = (page: Page) =>
  page.waitForFunction(() => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    return panels.length >= 9 && panels.every((p) => p.getAttribute('aria-busy') === 'false');
  }, undefined, { timeout: 30_000 });

/** Serious and critical axe-core findings on the page (injected through DevTools, so the CSP does not apply to it). */
export async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }).axe.run());
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** Opens pages in fresh contexts; page errors and unexpected console errors go to `problems`; screenshots to `dir` as `<prefix>-<name>.png`. */
export function pages(browser: () => Browser, dir: string, prefix: string) {
  const problems: string[] = [];
  return {
    problems,
    shot: (page: Page, name: string) => page.screenshot({ path: join(dir, `${prefix}-${name}.png`), fullPage: true }),
    async open(): Promise<Page> {
      const context = await browser().newContext({ ignoreHTTPSErrors: true, locale: 'en-US', viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      // The refusals the tests provoke (400, 401, 403, 404, 429) show up as failed loads; anything else is a problem.
      page.on('console', (m) => { if (m.type() === 'error' && !/status of (400|401|403|404|429)/.test(m.text())) problems.push(`console: ${m.text()}`); });
      return page;
    },
  };
}

/** Opens a one-time link and sets the password; the page lands on the sign-in form at `origin`/, which says the password is set. */
export async function setPasswordThroughLink(page: Page, link: string, origin: string, password: string): Promise<void> {
  await page.goto(link);
  await page.fill('#new-password', password);
  await Promise.all([page.waitForURL(`${origin}/?notice=password-set`), page.click('button[type=submit]')]);
  expect(await page.textContent('[role=status]')).toBe('Your password is set. Sign in with your email and the new password.');
}

/** Signs in on the sign-in form with email and password and waits for the dashboard's panels. */
export async function signInInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForSelector('[data-panel=stats] .figure'), page.click('form[aria-label="Sign in with email and password"] button')]);
  await settled(page);
}

/** A new user's way in: the link, a password, then the sign-in form with them. */
export async function signUpAndIn(page: Page, link: string, origin: string, email: string, password: string): Promise<void> {
  await setPasswordThroughLink(page, link, origin, password);
  await signInInBrowser(page, email, password);
}

/** On the Sites page: adds "Shop" (Europe/Berlin), checks its snippet, renames it "Shop EU" on eu.shop.acme.test; returns its id. */
export async function addAndEditSite(page: Page, shot: (name: string) => Promise<unknown>): Promise<string> {
  await page.click('nav a:has-text("Sites")');
  await page.fill('#site-name', 'Shop');
  await page.fill('#site-domain', 'shop.acme.test');
  await page.selectOption('#site-timezone', 'Europe/Berlin');
  await page.click('button:has-text("Add site")');
  const added = await page.textContent('[role=status]');
  const siteId = /added as (ST-[A-Za-z0-9]{12})/.exec(added ?? '')![1]!;
  expect(await page.inputValue(`#snippet-${siteId}`)).toContain(`data-site="${siteId}"`);
  expect(await axe(page)).toEqual([]);
  await shot('6-sites');
  await page.click('summary:has-text("Edit Shop")'); // the edit form: name and domain; the time zone read-only
  await page.fill(`#edit-name-${siteId}`, 'Shop EU');
  await page.fill(`#edit-domain-${siteId}`, 'eu.shop.acme.test');
  await page.click('button:has-text("Save Shop")');
  await page.waitForSelector(`text=Site Shop EU (${siteId}) saved.`);
  expect(await page.textContent(`li:has(#snippet-${siteId}) h3`)).toBe('Shop EU');
  expect(await axe(page)).toEqual([]);
  await shot('6b-site-edited');
  return siteId;
}

/** From the Sites page: the site's goals, where the event goal "Signup" is added. */
export async function addSignupGoal(page: Page, siteId: string, shot: (name: string) => Promise<unknown>): Promise<void> {
  await page.click(`a[href="goals?site_id=${siteId}"]`);
  await page.fill('#goal-value', 'Signup');
  await page.click('button:has-text("Add goal")');
  await page.waitForSelector('td:has-text("Signup")');
  expect(await axe(page)).toEqual([]);
  await shot('7-goals');
}

/**
 * On the site's Funnels page: types two steps (the live preview answers: the site has no traffic,
 * so zeros), saves the funnel "Signup path" and deletes it again.
 */
export async function addAndDeleteFunnel(page: Page, siteId: string, shot: (name: string) => Promise<unknown>): Promise<void> {
  await page.click('nav a:has-text("Funnels")');
  await page.selectOption('#funnel-site', siteId);
  await page.click('button:has-text("Show funnels")');
  await page.fill('#funnel-name', 'Signup path');
  await page.fill('#step-value-0', '/pricing');
  await page.selectOption('#step-kind-1', 'event');
  await page.fill('#step-value-1', 'Signup');
  await page.waitForFunction(() => document.querySelectorAll('#funnel-preview tbody tr').length === 2, undefined, { timeout: 60_000 });
  expect(await page.$$eval('#funnel-preview tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)))).toEqual([
    ['1. Visit /pricing', '0', '0%', '—'], ['2. Signup', '0', '0%', '0%'],
  ]);
  expect(await axe(page)).toEqual([]);
  await shot('7b-funnel-preview');
  await page.click('button:has-text("Save funnel")');
  await page.waitForSelector('text=Funnel Signup path saved.');
  await page.getByRole('button', { name: 'Delete Signup path' }).click();
  await page.waitForSelector('text=Funnel Signup path deleted.');
  expect(await page.textContent('main')).toContain('No funnels yet.');
}

/** On the Users page: invites a viewer; returns their one-time link as the page shows it. */
export async function inviteViewer(page: Page, email: string, shot: (name: string) => Promise<unknown>): Promise<string> {
  await page.click('nav a:has-text("Users")');
  await page.fill('#invite-email', email);
  await page.click('button:has-text("Invite")');
  const link = await page.inputValue('#invite-link');
  expect(link).toMatch(/\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
  expect(await axe(page)).toEqual([]);
  await shot('8-users');
  return link;
}

/** The status of each account page for the signed-in browser, as `[section, status]` pairs. */
export async function sectionStatuses(page: Page, origin: string, sections: string[]): Promise<[string, number][]> {
  const statuses: [string, number][] = [];
  for (const section of sections) statuses.push([section, (await page.goto(`${origin}/dashboard/account/${section}`))!.status()]);
  return statuses;
}
