/**
 * The Funnels panel and the account's Funnels page in headless Chromium, on the demo site
 * (its two saved funnels, which its traffic walks): what the panel shows equals the API's
 * answer for the request it made, the pick is in the URL, filters and comparison apply, the CSV
 * is the panel's request; the account page previews a funnel's steps as they are typed.
 * Screenshots (1280 and 390 px) go to SITELINE_SCREENSHOTS (default a temporary folder), never
 * into the repository.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMUNITY_ACCOUNT, createSite, importEvents, type Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, postForm, signInWithPassword } from '../people/people-test-helpers.js';
import { apiFor, change, count, launch, percent, type Session, signInWithForm } from './browser-helpers.js';
import { axe } from '../people/account-browser-steps.js';
import { DEMO_NOW, startDashboard, type TestDashboard } from './test-helpers.js';

const SCREENSHOTS = process.env.SITELINE_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'siteline-funnels-screens-'));
mkdirSync(SCREENSHOTS, { recursive: true });
/** The Funnels panel alone, and the page it is on. */
const shoot = async (s: Session, name: string, panel = 'section[data-panel=funnels]') => {
  await s.page.locator(panel).screenshot({ path: join(SCREENSHOTS, `${name}-panel.png`) });
  await s.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

let browser: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  console.log(`funnels screenshots: ${SCREENSHOTS}`);
});

/** Waits for the Funnels panel's answer to a request containing each of `having`. */
const funnelsSettled = (s: Session, having: string[] = []) =>
  s.page.waitForFunction((want) => {
    const panel = document.querySelector('section[data-panel=funnels]');
    const q = panel?.getAttribute('data-query') ?? '';
    return panel?.getAttribute('aria-busy') === 'false' && q !== '' && want.every((w) => q.includes(w)) && panel.querySelector('.funnel-steps, .empty') !== null;
  }, having, { timeout: 20_000 });

/** The steps as the panel shows them: name, visitors, bar width. */
const shownSteps = (s: Session) =>
  s.page.$$eval('[data-panel=funnels] .funnel-steps li', (items) => items.map((li) => [
    li.querySelector('.step-name')!.textContent!.replace(/^\d+\s*/, '').trim(),
    li.querySelector('.step-figures strong')!.textContent,
    Number.parseFloat((li.querySelector('.step-bar span') as HTMLElement).style.width).toFixed(2),
  ]));

describe('the Funnels panel', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard();
    // A site with traffic but no funnel.
    await createSite(t.backend.storage, { id: 'ST-plain', name: 'Plain', timezone: 'UTC' });
    await importEvents(t.backend.storage, [0, 1].map((i) => JSON.stringify({ site_id: 'ST-plain', ts: new Date(DEMO_NOW - 3_600_000 * (i + 1)).toISOString(), type: 'pageview', url: '/', visitor_id: `p${i}` })));
  });
  afterAll(() => t?.close());

  it('shows the first saved funnel as the API answers it, another picked from the list (kept in the URL), under filters and a comparison, with its CSV', async () => {
    const s = await browser.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&period=30d');
    await funnelsSettled(s, ['funnel=Docs+to+download']);
    // The demo's funnels by name: "Docs to download" first.
    expect(await s.page.$$eval('[data-panel=funnels] select option', (os) => os.map((o) => o.textContent))).toEqual(['Docs to download', 'Pricing to signup']);
    const docs = await apiFor(t, s.page, 'funnels');
    expect(docs.steps.map((step: { visitors: number }) => step.visitors).every((v: number) => v > 0)).toBe(true);
    // The bar's share of step 1's, in percent (as the page's style holds it, to 2 places).
    const width = (v: number, first: number) => ((v / first) * 100).toFixed(2);
    expect(await shownSteps(s)).toEqual(docs.steps.map((step: { step: string; visitors: number }) => [step.step, count(step.visitors), width(step.visitors, docs.steps[0].visitors)]));
    expect(await s.page.textContent('[data-panel=funnels] .dropoff')).toContain(`${count(docs.steps[1].dropoff)} dropped off (${percent(docs.steps[1].dropoff_rate)}); ${percent(docs.steps[1].conversion_rate_step)} went on`);

    await s.page.selectOption('[data-panel=funnels] select', 'Pricing to signup');
    await funnelsSettled(s, ['funnel=Pricing+to+signup']);
    expect(new URL(s.page.url()).searchParams.get('funnel')).toBe('Pricing to signup');
    const pricing = await apiFor(t, s.page, 'funnels');
    expect(pricing.steps.map((step: { step: string }) => step.step)).toEqual(['Visit /pricing', 'Visit /signup', 'signup']);
    expect(await shownSteps(s)).toEqual(pricing.steps.map((step: { step: string; visitors: number }) => [step.step, count(step.visitors), width(step.visitors, pricing.steps[0].visitors)]));
    // Step 3 also says its share of step 1.
    expect(await s.page.textContent('[data-panel=funnels] li[data-step="3"] .step-figures')).toContain(`${percent(pricing.steps[2].conversion_rate)} of step 1`);
    await shoot(s, 'funnels-1280');

    // A reload keeps the pick; a comparison shows each step's change.
    await s.page.goto(`${t.origin}/?site_id=ST-demo&period=30d&compare=previous_period&funnel=Pricing+to+signup`);
    await funnelsSettled(s, ['funnel=Pricing+to+signup', 'compare=previous_period']);
    const compared = await apiFor(t, s.page, 'funnels');
    const first = compared.steps[0];
    expect(await s.page.textContent('[data-panel=funnels] li[data-step="1"] .step-figures .chg')).toBe(change(first.visitors, first.comparison.visitors));

    // A filter from a list applies to the funnel too.
    await s.page.click('[data-panel=locations] button[aria-label="Filter by country Germany"]');
    await funnelsSettled(s, ['funnel=Pricing+to+signup', encodeURIComponent('[["is","country",["DE"]]]')]);
    const german = await apiFor(t, s.page, 'funnels');
    expect(german.visitors).toBeLessThan(compared.visitors);
    expect(await shownSteps(s)).toEqual(german.steps.map((step: { step: string; visitors: number }) => [step.step, count(step.visitors), width(step.visitors, german.steps[0].visitors)]));

    // Download CSV: the panel's own request with format=csv, through the session.
    const query = await s.page.getAttribute('section[data-panel=funnels]', 'data-query');
    expect(await s.page.getAttribute('[data-panel=funnels] a.download', 'href')).toBe(`dashboard/data/${query}&format=csv`);
    const cookie = (await s.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const csv = await t.request(`/dashboard/data/${query}&format=csv`, { headers: { Cookie: cookie } });
    expect(csv.text.split('\r\n')[0]).toBe('step,visitors,dropoff,dropoff_rate,conversion_rate,conversion_rate_step,comparison_visitors,comparison_dropoff,comparison_dropoff_rate,comparison_conversion_rate,comparison_conversion_rate_step');
    expect(csv.text.split('\r\n')[1]).toBe(`Visit /pricing,${german.steps[0].visitors},0,0,100,100,${german.steps[0].comparison.visitors},0,0,100,100`);
    expect(await axe(s.page)).toEqual([]);
    expect(s.problems).toEqual([]);
  });

  it('fits a phone (390 px) without sideways scrolling', async () => {
    const s = await browser.open({ viewport: { width: 390, height: 844 } });
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&funnel=Pricing+to+signup');
    await funnelsSettled(s, ['funnel=Pricing+to+signup']);
    const [scroll, client] = await s.page.$eval('section[data-panel=funnels]', (p) => [p.scrollWidth, p.clientWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
    expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(s, 'funnels-390');
    expect(s.problems).toEqual([]);
  });

  it('a site without funnels says how to add one; a funnel the site does not have falls back to its first', async () => {
    const s = await browser.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-plain&period=7d', false);
    await s.page.waitForSelector('[data-panel=funnels] .empty');
    const text = await s.page.textContent('[data-panel=funnels] .empty');
    expect(text).toContain('No funnels for this site yet.');
    expect(text).toContain('npx siteline funnels add --site ST-plain --name "Pricing to signup"');
    expect(await s.page.locator('[data-panel=funnels] a.download').count()).toBe(0);
    await s.page.goto(`${t.origin}/?site_id=ST-demo&funnel=Nope`);
    await funnelsSettled(s, ['funnel=Docs+to+download']);
    expect(s.problems).toEqual([]);
  });
});

describe('the Funnels panel on a storage without funnels', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ storage: (sqlite) => Object.assign(Object.create(sqlite) as Storage, { capabilities: { ...sqlite.capabilities, funnels: false } }) });
  });
  afterAll(() => t?.close());

  it('is not shown, and nothing asks for funnels', async () => {
    const s = await browser.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&period=7d');
    expect(await s.page.locator('section[data-panel=funnels]').count()).toBe(0);
    expect(s.requests.some((r) => r.url().includes('funnels'))).toBe(false);
    expect(s.problems).toEqual([]);
  });
});

describe('the account\'s Funnels page in Chromium', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard();
  });
  afterAll(() => t?.close());

  it('previews the steps as they are typed (the API\'s numbers for the last 30 days), saves the funnel, and the panel offers it', async () => {
    const { link } = await t.people.addUser(COMMUNITY_ACCOUNT, 'owner@funnels.test', 'owner');
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: 'a long enough password 36' })).status).toBe(303);
    const { reply } = await signInWithPassword(t, 'owner@funnels.test', 'a long enough password 36');
    const s = await browser.open();
    await s.context.addCookies([{ name: cookieOf(reply).split('=')[0]!, value: cookieOf(reply).split('=').slice(1).join('='), url: t.origin }]);
    await s.page.goto(`${t.origin}/dashboard/account/funnels?site_id=ST-demo`);
    expect(await s.page.textContent('#funnel-preview')).toContain('Enter two steps or more');
    await s.page.fill('#funnel-name', 'Home to docs to download');
    await s.page.fill('#step-value-0', '/');
    await s.page.fill('#step-value-1', '/docs*');
    await s.page.selectOption('#step-kind-2', 'event');
    await s.page.fill('#step-value-2', 'download');
    await s.page.waitForFunction(() => document.querySelectorAll('#funnel-preview tbody tr').length === 3, undefined, { timeout: 15_000 });
    const steps = JSON.stringify([{ page: '/' }, { page: '/docs*' }, { event: 'download' }]);
    const api = JSON.parse((await t.request(`/api/v1/funnels?${new URLSearchParams({ site_id: 'ST-demo', period: '30d', steps })}`, { headers: { Authorization: `Bearer ${t.key}` } })).text);
    const rows = await s.page.$$eval('#funnel-preview tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows).toEqual(api.steps.map((step: { step: string; visitors: number; conversion_rate: number; conversion_rate_step: number }, i: number) => [
      `${i + 1}. ${step.step}`, step.visitors.toLocaleString('en-US'), `${step.conversion_rate}%`, i === 0 ? '—' : `${step.conversion_rate_step}%`,
    ]));
    expect(api.steps.every((step: { visitors: number }) => step.visitors > 0)).toBe(true);
    expect(await axe(s.page)).toEqual([]);
    await shoot(s, 'account-funnels-1280', 'main');
    await s.page.click('button:has-text("Save funnel")');
    await s.page.waitForSelector('text=Funnel Home to docs to download saved.');
    expect(await s.page.textContent('table:has(th:has-text("Funnel")) tbody')).toContain('Home to docs to download');
    // The dashboard's panel lists it among the demo's two.
    await s.page.goto(`${t.origin}/?site_id=ST-demo&funnel=Home+to+docs+to+download`);
    await funnelsSettled(s, ['funnel=Home+to+docs+to+download']);
    expect(await s.page.$$eval('[data-panel=funnels] select option', (os) => os.map((o) => o.textContent))).toEqual(['Docs to download', 'Home to docs to download', 'Pricing to signup']);
    expect(s.problems).toEqual([]);

    // On a phone (390 px): the saved funnels and the form fit without sideways scrolling.
    const phone = await browser.open({ viewport: { width: 390, height: 844 } });
    await phone.context.addCookies([{ name: cookieOf(reply).split('=')[0]!, value: cookieOf(reply).split('=').slice(1).join('='), url: t.origin }]);
    await phone.page.goto(`${t.origin}/dashboard/account/funnels?site_id=ST-demo`);
    expect(await phone.page.textContent('table:has(th:has-text("Funnel")) tbody')).toContain('Home to docs to download');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(phone, 'account-funnels-390', 'main');
    expect(phone.problems).toEqual([]);
  });
});
