/**
 * The dashboard in real headless Chromium against a real HTTPS server with the demo data:
 * what a person signing in sees and does, checked against the API's own JSON for the same
 * queries (requested with the key from Node, never from the page). Screenshots at desktop
 * and phone width go to a temporary folder (printed), never into the repository.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addGoal, createSite, importEvents, type Storage } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFor, axe, change, count, expectPanelsMatchApi, launch, PANELS, type Session, settled, shownRows, signInWithForm, texts } from './browser-helpers.js';
import { signIn, startDashboard, type TestDashboard } from './test-helpers.js';

const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'siteline-dashboard-screens-'));

let chromium: Awaited<ReturnType<typeof launch>>;
const open = (options?: Parameters<typeof chromium.open>[0]): Promise<Session> => chromium.open(options);

beforeAll(async () => {
  chromium = await launch();
});

afterAll(async () => {
  await chromium?.close();
  console.log(`dashboard screenshots: ${SCREENSHOTS}`);
});

describe('the dashboard in headless Chromium (Community key, demo data)', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard();
    await createSite(t.backend.storage, { id: 'ST-empty', name: 'Empty', domain: 'empty.example' });
  });
  afterAll(() => t?.close());

  it('signs in through the form and shows exactly the figures, chart rows and list rows the API returns for the same queries', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo');
    for (const panel of PANELS) expect(await s.page.getAttribute(`section[data-panel=${panel}]`, 'data-query')).toContain('site_id=ST-demo&period=30d');
    const stats = await apiFor(t, s.page, 'stats');
    expect(stats.pageviews).toBeGreaterThan(1000); // the demo data is there: the comparison below is not of zeros
    await expectPanelsMatchApi(t, s.page);
    // No comparison until one is chosen: no request asks for one, no change is shown anywhere.
    for (const panel of PANELS) expect(await s.page.getAttribute(`section[data-panel=${panel}]`, 'data-query')).not.toContain('compare=');
    expect(await s.page.locator('.chg, [data-panel=stats] .note, path.compared').count()).toBe(0);
    expect(s.problems).toEqual([]);
  });

  it('numbers are formatted for the reader\'s locale (de-DE: 12.345)', async () => {
    const s = await open({ locale: 'de-DE' });
    await signInWithForm(s, t, t.key);
    const stats = await apiFor(t, s.page, 'stats');
    expect(stats.pageviews).toBeGreaterThanOrEqual(1000);
    expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=pageviews] .value')).toEqual([count(stats.pageviews, 'de-DE')]);
    expect(count(stats.pageviews, 'de-DE')).toContain('.');
  });

  it('clicking a referrer row filters every panel (chip, URL, every request), the view survives a reload, and the chip removes the filter', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    const referrers = await apiFor(t, s.page, 'referrers');
    const source = (referrers.referrers as { source: string }[]).find((r) => r.source !== 'Direct / None')!.source;
    const condition = encodeURIComponent(JSON.stringify([['is', 'source', [source]]]));
    await s.page.click(`[data-panel=referrers] tr[data-key="${source}"] button`);
    await settled(s.page, [`filters=${condition}`]);
    expect(new URL(s.page.url()).searchParams.get('filters')).toBe(JSON.stringify([['is', 'source', [source]]]));
    expect(await texts(s.page, '.chip')).toEqual([`Source is ${source}×`]);
    await expectPanelsMatchApi(t, s.page);
    // Every panel really is narrowed: the referrers list now holds only that source.
    expect(await s.page.$$eval('[data-panel=referrers] tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-key')))).toEqual([source]);
    const filtered = await apiFor(t, s.page, 'stats');
    expect(filtered.visitors).toBeLessThan((await t.request('/api/v1/stats?site_id=ST-demo', { headers: { Authorization: `Bearer ${t.key}` } }).then((r) => JSON.parse(r.text))).visitors);

    await s.page.reload(); // a bookmark or a shared link: same view
    await settled(s.page, [`filters=${condition}`]);
    expect(await texts(s.page, '.chip')).toEqual([`Source is ${source}×`]);

    await s.page.click(`.chip button[aria-label="Remove filter: Source is ${source}"]`);
    await settled(s.page, [], ['filters=']);
    expect(await s.page.locator('.chip').count()).toBe(0);
    expect(new URL(s.page.url()).searchParams.has('filters')).toBe(false);
    expect(s.problems).toEqual([]);
  });

  it('the Goals panel shows every goal as the API does (visitors, conversions, conversion rate); a click filters by the goal', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    await s.page.waitForSelector('section[data-panel=goals][aria-busy=false]'); // shown once the server said it keeps goals
    const { goals } = await apiFor(t, s.page, 'goals');
    expect((goals as { goal: string }[]).map((g) => g.goal).sort()).toEqual(['Visit /docs/*', 'Visit /pricing', 'download', 'signup']);
    expect((goals as { visitors: number }[]).every((g) => g.visitors > 0)).toBe(true); // the demo data converts on each
    await expectPanelsMatchApi(t, s.page);
    // Every goal's name is shown whole at 1280 px ("Visit /docs/*" and "Visit /pricing" once both read "Visit").
    const cut = await s.page.$$eval('[data-panel=goals] tbody .row-filter', (buttons) => buttons.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent));
    expect(cut).toEqual([]);
    expect(await s.page.getAttribute('[data-panel=goals] tr[data-key="Visit /docs/*"] .row-filter', 'title')).toBe('Visit /docs/*'); // the whole name on hover
    // As the page writes it (URLSearchParams: a space is +).
    const condition = new URLSearchParams({ filters: JSON.stringify([['is', 'goal', ['Visit /pricing']]]) }).toString();
    await s.page.click('[data-panel=goals] tr[data-key="Visit /pricing"] button.row-filter');
    await settled(s.page, [condition]);
    expect(await texts(s.page, '.chip')).toEqual(['Goal is Visit /pricing×']);
    await expectPanelsMatchApi(t, s.page);
    // Every session shown converted on the goal: its own row is the whole of the filtered visitors.
    const stats = await apiFor(t, s.page, 'stats');
    const { goals: filtered } = await apiFor(t, s.page, 'goals');
    expect((filtered as { goal: string; visitors: number; conversion_rate: number }[]).find((g) => g.goal === 'Visit /pricing')).toMatchObject({ visitors: stats.visitors, conversion_rate: 100 });
    expect(s.problems).toEqual([]);
  });

  it('an Events row opens its properties, a property its values, and a value filters by that event and prop:', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    await s.page.waitForSelector('[data-panel=events] .open-properties'); // offered once the server said it keeps properties
    await s.page.click('[data-panel=events] tr[data-key="signup"] button.open-properties');
    await settled(s.page, ['name=signup'], ['property='], 'properties');
    const keys = await apiFor(t, s.page, 'properties');
    expect((keys.properties as { property: string }[]).map((p) => p.property)).toEqual(expect.arrayContaining(['plan', 'billing', 'seats']));
    const shownKeys = await shownRows(s.page, 'properties');
    expect(shownKeys).toEqual((keys.properties as any[]).map((p) => [p.property, count(p.count), count(p.visitors)])); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(await s.page.textContent('[data-panel=properties] h2')).toBe('Properties of signup');

    await s.page.click('[data-panel=properties] tr[data-key="plan"] button.row-filter');
    await settled(s.page, ['name=signup', 'property=plan'], [], 'properties');
    const values = await apiFor(t, s.page, 'properties');
    expect(values.values[0].value).toBe('free'); // the demo data's skew: most signups are on the free plan
    const shownValues = await shownRows(s.page, 'properties');
    expect(shownValues).toEqual((values.values as any[]).map((v) => [v.value, count(v.count), count(v.visitors)])); // eslint-disable-line @typescript-eslint/no-explicit-any

    const filters = [['is', 'event', ['signup']], ['is', 'prop:plan', ['pro']]];
    await s.page.click('[data-panel=properties] tr[data-key="pro"] button.row-filter');
    await settled(s.page, [`filters=${encodeURIComponent(JSON.stringify(filters))}`]);
    expect(new URL(s.page.url()).searchParams.get('filters')).toBe(JSON.stringify(filters));
    expect(await texts(s.page, '.chip')).toEqual(['Event is signup×', 'Property plan is pro×']);
    await expectPanelsMatchApi(t, s.page);
    // The events panel now counts only signups on the pro plan, as many as the value's row said.
    const pro = (values.values as { value: string; count: number }[]).find((v) => v.value === 'pro')!;
    expect(await shownRows(s.page, 'events')).toEqual([['signup', count(pro.count)]]);
    // Back to the keys, then closed.
    await s.page.click('[data-panel=properties] button:text("All properties of signup")');
    await settled(s.page, ['name=signup'], ['property='], 'properties');
    await s.page.click('[data-panel=properties] button:text("Close")');
    expect(await s.page.locator('section[data-panel=properties]').count()).toBe(0);
    expect(s.problems).toEqual([]);
  });

  it('the comparison: off by default; against the previous period, changes on every figure and row; against an empty year before, none, said once', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    expect(await s.page.locator('.chg').count()).toBe(0);
    await s.page.getByLabel('Compare with', { exact: true }).selectOption('previous_period');
    await settled(s.page, ['compare=previous_period']);
    expect(new URL(s.page.url()).searchParams.get('compare')).toBe('previous_period');
    const stats = await apiFor(t, s.page, 'stats');
    expect(stats.comparison.visitors).toBeGreaterThan(1000); // 90 days of demo data: the previous 30 have traffic
    expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=visitors] .chg')).toEqual([change(stats.visitors, stats.comparison.visitors)]);
    expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=pageviews] .chg')).toEqual([change(stats.pageviews, stats.comparison.pageviews)]);
    // The bounce rate, a rate, in percentage points (hand: the difference rounded to 0.1).
    const pp = Math.round((stats.bounce_rate - stats.comparison.bounce_rate) * 10) / 10;
    expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=bounce_rate] .chg')).toEqual([`${pp > 0 ? '+' : ''}${pp} pp`]);
    // (Intl writes the range's dash with thin or plain spaces, by ICU version: spaces compared as spaces.)
    expect((await s.page.textContent('[data-panel=stats] .note'))!.replace(/\s/g, ' ')).toBe('Changes against Sep 22 – Oct 21, 2026. Today is not over yet.');
    expect(await s.page.locator('[data-panel=pages] tbody tr .chg').count()).toBe(20); // two figures on each of the ten rows
    expect(await s.page.locator('[data-panel=timeseries] path.compared').count()).toBe(1);
    await expectPanelsMatchApi(t, s.page);

    await s.page.getByLabel('Compare with', { exact: true }).selectOption('off');
    await settled(s.page, [], ['compare=']);
    expect(new URL(s.page.url()).searchParams.has('compare')).toBe(false);
    expect(await s.page.locator('.chg, path.compared').count()).toBe(0);

    await s.page.getByLabel('Compare with', { exact: true }).selectOption('year_over_year');
    await settled(s.page, ['compare=year_over_year']);
    expect((await apiFor(t, s.page, 'stats')).comparison.visitors).toBe(0); // the demo data has no year before
    // No "new" on every row: nothing to compare with is said once.
    expect(await s.page.locator('.chg, path.compared').count()).toBe(0);
    expect((await s.page.textContent('[data-panel=stats] .note'))!.replace(/\s/g, ' ')).toBe('Nothing to compare with: no data in Oct 22 – Nov 20, 2025.');
    expect(s.problems).toEqual([]);
  });

  it('the interval switch: each interval only where the range allows it; weeks, months and hours as the API returns them', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    const group = s.page.getByRole('group', { name: 'Interval' });
    const offered = async () => Promise.all(['Hour', 'Day', 'Week', 'Month'].map(async (name) => !(await group.getByRole('button', { name }).isDisabled())));
    expect(await offered()).toEqual([false, true, true, false]); // 30 days: no hours (over 7 days), no months (one or two partial ones)
    expect(await group.getByRole('button', { name: 'Month' }).getAttribute('title')).toBe('Months are for ranges of at least 60 days');
    await group.getByRole('button', { name: 'Week' }).click();
    await settled(s.page, ['interval=week'], [], 'timeseries');
    expect(new URL(s.page.url()).searchParams.get('interval')).toBe('week');
    const weeks = await apiFor(t, s.page, 'timeseries');
    expect(weeks.timeseries.length).toBe(5); // Oct 22 (Thu) to Nov 20 (Fri): the ISO weeks of Oct 19, 26, Nov 2, 9, 16
    await expectPanelsMatchApi(t, s.page);

    // Last 12 months: from the first of the month eleven months back, by month.
    await s.page.getByLabel('Period', { exact: true }).selectOption('12mo');
    await settled(s.page, ['from=2025-12-01&to=2026-11-20', 'interval=week'], [], 'timeseries');
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo&range=12mo&interval=week'); // the reader's week still fits
    await group.getByRole('button', { name: 'Month' }).click();
    await settled(s.page, ['interval=month'], [], 'timeseries');
    expect(await s.page.locator('[data-panel=timeseries] tbody tr').count()).toBe(12);
    expect(await s.page.getAttribute('[data-panel=timeseries] tbody tr:last-child', 'data-running')).toBe('true'); // November is not over
    await expectPanelsMatchApi(t, s.page);

    // 7 days: months do not fit, so the range's own default (days); then hours.
    await s.page.getByLabel('Period', { exact: true }).selectOption('7d');
    await settled(s.page, ['period=7d', 'interval=day'], [], 'timeseries');
    expect(await offered()).toEqual([true, true, false, false]);
    await group.getByRole('button', { name: 'Hour' }).click();
    await settled(s.page, ['interval=hour', 'period=7d'], [], 'timeseries');
    expect((await apiFor(t, s.page, 'timeseries')).timeseries).toHaveLength(7 * 24);
    // Six whole days and, of Nov 20, the hours from midnight to noon in Berlin (now is 12:00): 6 x 24 + 13.
    expect(await s.page.locator('[data-panel=timeseries] tbody tr').count()).toBe(6 * 24 + 13);
    await expectPanelsMatchApi(t, s.page);
    expect(s.problems).toEqual([]);
  });

  it('a custom range is applied to every panel and kept in the URL', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    await s.page.getByLabel('Period', { exact: true }).selectOption('custom');
    await s.page.fill('input[type=date] >> nth=0', '2026-11-02');
    await s.page.fill('input[type=date] >> nth=1', '2026-11-08');
    await s.page.getByRole('button', { name: 'Apply' }).click();
    await settled(s.page, ['from=2026-11-02&to=2026-11-08']);
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo&from=2026-11-02&to=2026-11-08');
    expect(await s.page.locator('[data-panel=timeseries] tbody tr').count()).toBe(7);
    await expectPanelsMatchApi(t, s.page);
  });

  it('keyboard only: a row is reached with Tab and filtered with Enter; the chip is removed with Enter', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await s.page.keyboard.press('Tab');
      reached = await s.page.evaluate(() => document.activeElement?.closest('[data-panel=referrers] tbody') !== null && document.activeElement?.tagName === 'BUTTON');
    }
    expect(reached).toBe(true);
    const key = await s.page.evaluate(() => document.activeElement!.closest('tr')!.getAttribute('data-key'));
    await s.page.keyboard.press('Enter');
    await settled(s.page, ['filters=']);
    expect(await texts(s.page, '.chip')).toEqual([`Source is ${key}×`]);
    await s.page.focus('.chip button');
    await s.page.keyboard.press('Enter');
    await settled(s.page, [], ['filters=']);
    expect(await s.page.locator('.chip').count()).toBe(0);
  });

  it('the live count is asked for again after 30 seconds, not before', async () => {
    const s = await open();
    await s.page.clock.install();
    await signInWithForm(s, t, t.key);
    const lives = () => s.requests.filter((r) => new URL(r.url()).pathname === '/dashboard/data/live').length;
    await expect.poll(lives).toBe(1);
    await s.page.clock.fastForward(28_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(lives()).toBe(1);
    await s.page.clock.fastForward(2_000);
    await expect.poll(lives).toBe(2);
    const live = await t.request('/api/v1/live?site_id=ST-demo', { headers: { Authorization: `Bearer ${t.key}` } });
    const n = (JSON.parse(live.text) as { live: number }).live;
    expect(await s.page.textContent('[data-panel=live]')).toBe(`${count(n)} ${n === 1 ? 'visitor' : 'visitors'} in the last 5 minutes`);
  });

  it('an empty site: the waiting screen with the snippet for this server and site; a past period and a filter matching nothing say so', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-empty', false);
    const waiting = s.page.locator('[data-empty=waiting]');
    await waiting.waitFor();
    expect(await waiting.locator('h2').textContent()).toBe('Waiting for the first pageview');
    expect(await waiting.locator('pre code').textContent()).toBe(
      `<script>window.siteline=window.siteline||function(){(window.siteline.q=window.siteline.q||[]).push(arguments)}</script>\n<script defer src="${t.origin}/tracker.js" data-site="ST-empty"></script>`,
    );
    expect(await s.page.locator('section[data-panel]').count()).toBe(0); // no empty charts and lists around it
    // A past week of the same site: no waiting (no pageview can arrive there), the panels with their empty states.
    await s.page.goto(`${t.origin}/?site_id=ST-empty&from=2026-11-02&to=2026-11-08`);
    await settled(s.page, ['site_id=ST-empty&from=2026-11-02']);
    expect(await s.page.locator('[data-empty=no-data] h2').textContent()).toBe('No pageviews in this period');
    expect(await texts(s.page, '[data-panel=pages] .empty')).toEqual(['No pageviews in this period.']);
    expect(await texts(s.page, '[data-panel=campaigns] .empty')).toEqual(['No sessions with utm_source, utm_medium and utm_campaign all set in this period.']);

    const nothing = encodeURIComponent(JSON.stringify([['is', 'page', ['/no-such-page']]]));
    await s.page.goto(`${t.origin}/?site_id=ST-demo&filters=${nothing}`);
    await settled(s.page, ['filters=']);
    expect(await s.page.locator('[data-empty=filtered] h2').textContent()).toBe('Nothing matches these filters');
    expect(await texts(s.page, '[data-panel=referrers] .empty')).toEqual(['Nothing matches the filters in this period.']);
    // Another site from the picker: the filters (values of the site they came from) are cleared.
    await s.page.getByLabel('Site', { exact: true }).selectOption('ST-empty');
    await waiting.waitFor();
    expect(await s.page.locator('.chip').count()).toBe(0);
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-empty');
    expect(s.problems).toEqual([]);
  });

  it('sign-out: back to the form, and the old session cookie reads nothing any more', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key);
    const [cookie] = await s.context.cookies();
    expect(cookie).toMatchObject({ name: '__Host-siteline_session', httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    await Promise.all([s.page.waitForSelector('#email'), s.page.getByRole('button', { name: 'Sign out' }).click()]);
    expect(await s.context.cookies()).toEqual([]);
    const replay = await t.request('/dashboard/data/stats?site_id=ST-demo', { headers: { Cookie: `${cookie!.name}=${cookie!.value}` } });
    expect([replay.status, replay.text]).toEqual([401, '{"error":"Unauthorized"}']);
    expect(s.problems).toEqual([]);
  });

  it('no request from the page carries the key (but the one sign-in post, in its body); no script, storage or response can read it', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&period=7d');
    await s.page.click('[data-panel=channels] tbody tr button');
    await settled(s.page, ['filters=']);
    await s.page.getByRole('button', { name: 'Browser' }).click();
    await settled(s.page, ['breakdown=browser'], [], 'devices');
    expect(await s.page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(['', 0, 0]);
    expect(await s.page.content()).not.toContain(t.key);
    await s.page.getByRole('button', { name: 'Sign out' }).click();
    await s.page.waitForSelector('#email');

    const carrying: string[] = [];
    let signInPosts = 0;
    for (const r of s.requests) {
      const headers = JSON.stringify(await r.allHeaders());
      const body = r.postData() ?? '';
      const isSignIn = r.method() === 'POST' && new URL(r.url()).pathname === '/dashboard/sign-in';
      if (isSignIn) {
        signInPosts++;
        expect(new URLSearchParams(body).get('key')).toBe(t.key);
      }
      if (r.url().includes(t.key) || headers.includes(t.key) || (!isSignIn && body.includes(t.key))) carrying.push(`${r.method()} ${r.url()}`);
    }
    expect(signInPosts).toBe(1);
    expect(carrying).toEqual([]);
    expect(s.requests.length).toBeGreaterThan(20);
    for (const r of s.responses) {
      const body = await r.body().catch(() => Buffer.alloc(0)); // redirects have none
      expect(body.includes(t.key), r.url()).toBe(false);
    }
    // Every request went to this server: no CDN, no third party.
    expect(new Set(s.requests.map((r) => new URL(r.url()).origin))).toEqual(new Set([t.origin]));
  });

  it('axe-core reports no serious or critical violation (sign-in, dashboard, filtered, phone width); screenshots at desktop and phone width', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const desktop = await open();
    await desktop.page.goto(`${t.origin}/`);
    expect(await axe(desktop.page)).toEqual([]);
    await desktop.page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });
    await signInWithForm(desktop, t, t.key, '/?site_id=ST-demo&period=30d');
    expect(await axe(desktop.page)).toEqual([]);
    await desktop.page.screenshot({ path: join(SCREENSHOTS, 'desktop.png'), fullPage: true });
    await desktop.page.click('[data-panel=referrers] tbody tr:nth-child(2) button');
    await settled(desktop.page, ['filters=']);
    await desktop.page.click('[data-panel=timeseries] summary');
    expect(await axe(desktop.page)).toEqual([]);
    await desktop.page.screenshot({ path: join(SCREENSHOTS, 'desktop-filtered.png'), fullPage: true });

    const phone = await open({ viewport: { width: 390, height: 844 } });
    await signInWithForm(phone, t, t.key);
    expect(await axe(phone.page)).toEqual([]);
    // Readable on a phone: nothing wider than the screen.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'phone.png'), fullPage: true });
    expect(desktop.problems.concat(phone.problems)).toEqual([]);
  });
  it('"Download CSV" on every panel saves exactly the rows of that panel\'s request (a small site, figures computed by hand), through the session only', async () => {
    await createSite(t.backend.storage, { id: 'ST-tiny', name: 'Tiny', timezone: 'UTC', domain: 'tiny.example' });
    const line = (l: Record<string, unknown>) => JSON.stringify({ site_id: 'ST-tiny', ...l });
    const desktop = { country_code: 'DE', device_type: 'Desktop', browser: 'Chrome', os: 'Windows' };
    await importEvents(t.backend.storage, [
      // v1, 10 Nov: / from a referral, then /pricing, then an event named like a formula; 90 s, no bounce.
      line({ ts: '2026-11-10T10:00:00Z', type: 'pageview', visitor_id: 'v1', url: '/', referrer: 'https://news.example.com/a', ...desktop }),
      line({ ts: '2026-11-10T10:01:00Z', type: 'pageview', visitor_id: 'v1', url: '/pricing', ...desktop }),
      line({ ts: '2026-11-10T10:01:30Z', type: 'event', name: '=SUM(1)', visitor_id: 'v1', url: '/pricing', props: { plan: 'pro' }, ...desktop }),
      // v2, 11 Nov: one pageview from a newsletter whose source holds a comma; a bounce.
      line({ ts: '2026-11-11T09:00:00Z', type: 'pageview', visitor_id: 'v2', url: '/?utm_source=news%2Cletter&utm_medium=email&utm_campaign=nov', country_code: 'GB', device_type: 'Mobile', browser: 'Safari', os: 'iOS' }),
    ].join('\n'));
    await addGoal(t.backend.storage, 'ST-tiny', { type: 'page', value: '/pricing' });
    await addGoal(t.backend.storage, 'ST-tiny', { type: 'event', value: '=SUM(1)' });
    const s = await open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-tiny&from=2026-11-10&to=2026-11-11&compare=off');
    await s.page.waitForSelector('section[data-panel=goals][aria-busy=false]');
    // Each file as hand-computed from the four lines above (decisions.md sections 3 and 4).
    const expected: Record<string, [string, string]> = {
      stats: ['stats', 'visitors,pageviews,sessions,bounce_rate,avg_duration\r\n2,3,2,50,45\r\n'],
      timeseries: ['timeseries', 'date,visitors,pageviews,sessions\r\n2026-11-10,1,2,1\r\n2026-11-11,1,1,1\r\n'],
      pages: ['pages', 'url,pageviews,visitors,bounce_rate,avg_duration\r\n/,2,2,50,60\r\n/pricing,1,1,0,30\r\n'],
      referrers: ['referrers', 'source,visitors,sessions\r\nDirect / None,1,1\r\nnews.example.com,1,1\r\n'],
      channels: ['channels', 'channel,visitors,sessions\r\nEmail,1,1\r\nReferral,1,1\r\n'],
      locations: ['locations', 'country,country_code,visitors\r\nGermany,DE,1\r\nUnited Kingdom,GB,1\r\n'],
      devices: ['devices', 'breakdown,name,visitors\r\ndevice_type,Desktop,1\r\ndevice_type,Mobile,1\r\n'],
      events: ['events', "name,count\r\n'=SUM(1),1\r\n"],
      campaigns: ['campaigns', 'source,medium,campaign,visitors,sessions\r\n"news,letter",email,nov,1,1\r\n'],
      // Both goals: v1's session only (1 of 2 visitors); equal numbers, so by name in byte order ('=' before 'V').
      goals: ['goals', "goal,visitors,conversions,conversion_rate\r\n'=SUM(1),1,1,50\r\nVisit /pricing,1,1,50\r\n"],
    };
    const urls: string[] = [];
    const downloaded = async (panel: string, [endpoint, text]: [string, string]) => {
      const link = s.page.locator(`section[data-panel=${panel}] a.download`);
      expect(await link.textContent()).toBe('Download CSV');
      const [download] = await Promise.all([s.page.waitForEvent('download', { timeout: 10_000 }), link.click({ timeout: 10_000 })]);
      expect([panel, download.suggestedFilename()]).toEqual([panel, `ST-tiny-${endpoint}-2026-11-10-2026-11-11.csv`]);
      expect([panel, readFileSync((await download.path())!)]).toEqual([panel, Buffer.from(text, 'utf8')]);
      urls.push(download.url());
    };
    // The link has a line of its own above a panel's tabs (at 1280 px it once sat against the Devices tabs, unspaced).
    const tabsBelowLink = async (panel: string) => {
      const [link, tabs] = await Promise.all(['a.download', '.tabs'].map((el) => s.page.locator(`section[data-panel=${panel}] ${el}`).boundingBox()));
      return tabs!.y - (link!.y + link!.height);
    };
    expect(await tabsBelowLink('devices')).toBeGreaterThanOrEqual(0);
    for (const panel of [...PANELS, 'goals']) await downloaded(panel, expected[panel]!);
    // The properties drill-down: the event's keys, then one key's values, each with the event (and key) on every record.
    // (A reload first: Chromium may hold back a tab's many downloads in a row, which a real person never makes.)
    await s.page.reload();
    await settled(s.page);
    await s.page.click('[data-panel=events] tr[data-key="=SUM(1)"] button.open-properties');
    await settled(s.page, ['name='], ['property='], 'properties');
    await downloaded('properties', ['properties', "name,property,count,visitors\r\n'=SUM(1),plan,1,1\r\n"]);
    expect(await tabsBelowLink('properties')).toBeGreaterThanOrEqual(0);
    await s.page.click('[data-panel=properties] tr[data-key="plan"] button.row-filter');
    await settled(s.page, ['property=plan'], [], 'properties');
    await downloaded('properties', ['properties', "name,property,value,count,visitors\r\n'=SUM(1),plan,pro,1,1\r\n"]);
    // The files came from the session's data routes (the cookie is all the browser sends), the panel's own query plus format=csv.
    for (const url of urls) {
      expect(url.startsWith(`${t.origin}/dashboard/data/`)).toBe(true);
      expect(url).toContain('site_id=ST-tiny&from=2026-11-10&to=2026-11-11');
      expect(url.endsWith('&format=csv')).toBe(true);
      expect(url).not.toContain(t.key);
    }
    expect(await s.page.content()).not.toContain(t.key);
    expect(s.problems).toEqual([]); // no CSP violation, no console error
  });
});

describe('the dashboard on a storage without filters, hour buckets, properties or goals (a third-party adapter declaring none)', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    // The SQLite storage declaring neither: the API then refuses filtered and hourly queries (422).
    t = await startDashboard({ storage: (sqlite) => Object.assign(Object.create(sqlite) as Storage, { capabilities: {}, hourBuckets: undefined }) });
  });
  afterAll(() => t?.close());

  it('does not offer what the API would refuse, and says why', async () => {
    const s = await open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&period=7d');
    await s.page.waitForSelector('text=does not answer filtered queries yet');
    expect(await s.page.locator('[data-panel=referrers] tbody .row-filter').count()).toBeGreaterThan(0);
    expect(await s.page.locator('[data-panel=referrers] tbody button').count()).toBe(0);
    expect(await s.page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: 'Hour' }).isDisabled()).toBe(true);
    // Neither goals nor properties: no Goals panel, no way to open an event's properties.
    expect(await s.page.locator('section[data-panel=goals]').count()).toBe(0);
    expect(await s.page.locator('[data-panel=events] .open-properties').count()).toBe(0);
    await expectPanelsMatchApi(t, s.page);
    expect(s.problems).toEqual([]);
  });
});

describe('the dashboard in headless Chromium (Cloud keys)', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ cloud: true });
  });
  afterAll(() => t?.close());

  it('a Cloud key picks among its own account\'s sites only; once revoked, its session is signed out at the next request', async () => {
    const s = await open();
    await signInWithForm(s, t, t.cloud!.keyA, '/?site_id=ST-demo&period=7d');
    expect(await s.page.getByLabel('Site', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['ST-demo']);
    await expectPanelsMatchApi(t, s.page);
    // Another account's site named in the URL: the API's 404, shown in the panels.
    const other = await signIn(t, t.cloud!.keyA);
    expect(other.cookie).not.toBe('');
    await s.page.goto(`${t.origin}/?site_id=ST-globex`);
    await s.page.waitForSelector('[data-panel=stats] .error');
    expect(await s.page.textContent('[data-panel=stats] .error')).toBe('Site not found.');

    await s.page.goto(`${t.origin}/?site_id=ST-demo&period=7d`);
    await settled(s.page);
    // The site list and the live count are not panels: until they have answered too, revoking the key
    // could sign the page out before the click (their reply is checked as it is sent).
    await s.page.waitForLoadState('networkidle');
    expect(await t.backend.accounts.revokeKey(t.cloud!.accountA, t.cloud!.keyAId)).toBe(true);
    await s.page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: 'Hour' }).click();
    await s.page.waitForSelector('#email'); // the page reloaded into the sign-in form
    expect(new URL(s.page.url()).searchParams.get('interval')).toBe('hour'); // the view is kept for the next sign-in
    expect(await s.context.cookies()).toEqual([]);
  });
});
