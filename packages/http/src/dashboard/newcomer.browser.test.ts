/**
 * A newcomer's first hour, in real headless Chromium over real HTTPS: the demo site's first
 * screen, the comparison, Today by hour, the ranges, the interval switch, every label at
 * desktop and phone width, an event's properties, a new site waiting for its first pageview
 * (a beacon then arrives at the collector), two-factor set-up with its QR code (decoded from
 * a screenshot with jsQR, a decoder independent of the encoder), the account pages' feedback,
 * and a Cloud owner without a site. The server's clock is the demo's end: Friday
 * 2026-11-20 12:00 in Berlin (11:00 UTC), the site's zone.
 */
import { COMMUNITY_ACCOUNT, createSite } from '@siteline/core';
import jsqrModule from 'jsqr';
import { TOTP, URI } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm } from '../people/people-test-helpers.js';
import { apiFor, axe, cutLabels, expectPanelsMatchApi, launch, type Session, settled, shownRows, signInWithForm, texts } from './browser-helpers.js';
import { DEMO_NOW, startDashboard, type TestDashboard } from './test-helpers.js';

/** jsQR is CommonJS with an ES default export: take the function whichever way the loader hands it over. */
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: Decode = (jsqrModule as unknown as { default?: Decode }).default ?? (jsqrModule as unknown as Decode);

let chromium: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  chromium = await launch();
});
afterAll(() => chromium?.close());

type Box = { x: number; y: number; width: number; height: number };

/** Failed data requests a page made (status 400 and above), as `status path?query`. */
const refused = (s: Session) => s.responses.filter((r) => new URL(r.url()).pathname.startsWith('/dashboard/data/') && r.status() >= 400).map((r) => `${r.status()} ${r.url()}`);

/** The QR code on the page, photographed (an element screenshot) and decoded by jsQR, through a blank page's canvas for the pixels. */
async function decodeQr(browser: Browser, page: Page, selector: string): Promise<string | undefined> {
  const png = await page.locator(selector).screenshot();
  const blank = await browser.newPage();
  const image = await blank.evaluate(async (base64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${base64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [img.width, img.height];
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    return { width: img.width, height: img.height, data: [...context.getImageData(0, 0, img.width, img.height).data] };
  }, png.toString('base64'));
  await blank.close();
  return jsQR(Uint8ClampedArray.from(image.data), image.width, image.height)?.data;
}

describe('a newcomer\'s first hour in Chromium (Community, demo data, noon in Berlin)', () => {
  let t: TestDashboard;
  /** The dashboard's clock (sessions, two-factor codes); the API and the collector stay at DEMO_NOW. */
  let clock = DEMO_NOW;
  beforeAll(async () => {
    t = await startDashboard({ collect: true, dashboard: { now: () => clock } });
    await createSite(t.backend.storage, { id: 'ST-new', name: 'New blog', domain: 'new.example', timezone: 'Europe/Berlin' });
  });
  afterAll(() => t?.close());

  it('the first screen: the last 30 days by day, no comparison and no change badge; today\'s bucket marked as running, nothing after it', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key);
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo');
    expect(await s.page.getAttribute('section[data-panel=timeseries]', 'data-query')).toBe('stats/timeseries?site_id=ST-demo&period=30d&interval=day');
    expect(await s.page.locator('.chg, path.compared, [data-panel=stats] .note').count()).toBe(0);
    expect(await s.page.inputValue('select:near(:text("Compare with"))')).toBe('off');
    // 30 points, Oct 22 to Nov 20; the last (today, at noon) hollow and reached by a dashed segment.
    expect(await s.page.locator('[data-panel=timeseries] circle.point').count()).toBe(30);
    expect(await s.page.getAttribute('[data-panel=timeseries] circle.point.running', 'data-date')).toBe('2026-11-20');
    expect(await s.page.locator('[data-panel=timeseries] path.line.running').count()).toBe(1);
    expect(await texts(s.page, '[data-panel=timeseries] .legend .item')).toEqual([' This period', ' So far (not over yet)']);
    await expectPanelsMatchApi(t, s.page);
    expect(s.problems).toEqual([]);
  });

  it('Compare with the previous period: counts change relatively, rates (bounce, conversion) in percentage points', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&compare=previous_period');
    const { goals } = await apiFor(t, s.page, 'goals');
    const goal = (goals as { goal: string; conversion_rate: number; comparison: { conversion_rate: number } }[]).find((g) => g.goal === 'Visit /pricing')!;
    // Hand: the difference of the two rates, rounded to 0.1, with its sign.
    const pp = Math.round((goal.conversion_rate - goal.comparison.conversion_rate) * 10) / 10;
    expect(await texts(s.page, '[data-panel=goals] tr[data-key="Visit /pricing"] td:nth-of-type(3) .chg')).toEqual([`${pp > 0 ? '+' : ''}${pp} pp`]);
    expect(await texts(s.page, '[data-panel=goals] tr[data-key="Visit /pricing"] td:nth-of-type(1) .chg')).toEqual([expect.stringMatching(/^[+-]\d+%$|^0%$/)]);
    expect(await s.page.locator('[data-panel=timeseries] path.compared').count()).toBe(1);
    expect(s.problems).toEqual([]);
  });

  it('Today: by hour, one point per hour begun (midnight to noon: 13), the noon hour running, none after now', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key);
    await s.page.getByLabel('Period', { exact: true }).selectOption('today');
    await settled(s.page, ['period=1d', 'interval=hour'], [], 'timeseries');
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo&period=1d');
    expect((await apiFor(t, s.page, 'timeseries')).timeseries).toHaveLength(24); // the API answers the whole day
    const points = await s.page.$$eval('[data-panel=timeseries] circle.point', (cs) => cs.map((c) => c.getAttribute('data-date')));
    expect(points).toEqual(Array.from({ length: 13 }, (_, h) => `2026-11-20T${String(h).padStart(2, '0')}:00:00+01:00`));
    expect(await s.page.getAttribute('[data-panel=timeseries] circle.point.running', 'data-date')).toBe('2026-11-20T12:00:00+01:00');
    // The solid line joins the 12 finished hours; the dashed one goes on to the running hour.
    const vertices = async (selector: string) => ((await s.page.getAttribute(selector, 'd')) ?? '').split(/[ML]/).filter(Boolean).length;
    expect([await vertices('path.line.current:not(.running)'), await vertices('path.line.running')]).toEqual([12, 2]);
    expect(await s.page.locator('[data-panel=timeseries] tbody tr').count()).toBe(13);
    expect(await s.page.textContent('[data-panel=timeseries] tbody tr:last-child th')).toBe('Nov 20, 12 PM (so far)');
    // Day is no interval for one day (one point): offered are hours only.
    const group = s.page.getByRole('group', { name: 'Interval' });
    expect(await group.getByRole('button', { name: 'Day' }).isDisabled()).toBe(true);
    await expectPanelsMatchApi(t, s.page);
    expect(s.problems).toEqual([]);
  });

  it('the ranges the dashboard computes: Yesterday, Month to date, Last month, Last 12 months (each as from/to, kept by name in the URL)', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key);
    // [range, its days, its interval, buckets shown, buckets running]
    const cases: [string, string, string, number, number][] = [
      ['yesterday', 'from=2026-11-19&to=2026-11-19', 'interval=hour', 24, 0],
      ['month', 'from=2026-11-01&to=2026-11-20', 'interval=day', 20, 1],
      ['last_month', 'from=2026-10-01&to=2026-10-31', 'interval=day', 31, 0],
      ['12mo', 'from=2025-12-01&to=2026-11-20', 'interval=month', 12, 1],
    ];
    for (const [range, dates, interval, rows, running] of cases) {
      await s.page.getByLabel('Period', { exact: true }).selectOption(range);
      await settled(s.page, [`site_id=ST-demo&${dates}`]);
      expect([range, new URL(s.page.url()).search]).toEqual([range, `?site_id=ST-demo&range=${range}`]);
      expect([range, await s.page.getAttribute('section[data-panel=timeseries]', 'data-query')]).toEqual([range, `stats/timeseries?site_id=ST-demo&${dates}&${interval}`]);
      expect([range, await s.page.locator('[data-panel=timeseries] tbody tr').count(), await s.page.locator('[data-panel=timeseries] tbody tr[data-running]').count()]).toEqual([range, rows, running]);
      await expectPanelsMatchApi(t, s.page);
    }
    // A bookmark of Month to date is still month to date when opened later: it names the range, not the days.
    await s.page.goto(`${t.origin}/?site_id=ST-demo&range=month`);
    await settled(s.page, ['from=2026-11-01&to=2026-11-20']);
    expect(s.problems).toEqual([]);
  });

  it('Hour, then 30 days: the chart falls back to days; no request is refused (no 422)', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-demo&period=7d');
    const group = s.page.getByRole('group', { name: 'Interval' });
    await group.getByRole('button', { name: 'Hour' }).click();
    await settled(s.page, ['interval=hour'], [], 'timeseries');
    await s.page.getByLabel('Period', { exact: true }).selectOption('30d');
    await settled(s.page, ['period=30d', 'interval=day'], [], 'timeseries');
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-demo'); // the hour pick did not fit, so it was dropped
    expect(await group.getByRole('button', { name: 'Hour' }).isDisabled()).toBe(true);
    expect(await s.page.locator('[data-panel=timeseries] .error').count()).toBe(0);
    // A URL that asks for hours over 30 days (an old bookmark) is drawn by day too.
    await s.page.goto(`${t.origin}/?site_id=ST-demo&interval=hour`);
    await settled(s.page, ['interval=day'], [], 'timeseries');
    expect(refused(s)).toEqual([]);
    expect(s.problems).toEqual([]);
  });

  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    it(`no label is cut at ${width} px (names wrap, chart labels stay inside the chart): first screen, comparison, Today, 12 months, properties`, async () => {
      const s = await chromium.open({ viewport: { width, height } });
      await signInWithForm(s, t, t.key);
      const views = ['/?site_id=ST-demo', '/?site_id=ST-demo&compare=previous_period', '/?site_id=ST-demo&period=1d&compare=previous_period', '/?site_id=ST-demo&range=12mo'];
      for (const view of views) {
        await s.page.goto(`${t.origin}${view}`);
        await settled(s.page);
        expect([view, await cutLabels(s.page)]).toEqual([view, []]);
      }
      await s.page.click('[data-panel=events] tr[data-key="signup"] button.open-properties');
      await settled(s.page, ['name=signup'], [], 'properties');
      expect(['properties', await cutLabels(s.page)]).toEqual(['properties', []]);
      // Campaigns: the whole source / medium / campaign, no dangling slash, the full value in the title.
      const { campaigns } = await apiFor(t, s.page, 'campaigns');
      const labels = await s.page.$$eval('[data-panel=campaigns] tbody .row-filter', (bs) => bs.map((b) => [b.textContent, b.getAttribute('title')]));
      expect(labels).toEqual((campaigns as { source: string; medium: string; campaign: string }[]).slice(0, 10).map((c) => Array(2).fill(`${c.source} / ${c.medium} / ${c.campaign}`)));
      expect(s.problems).toEqual([]);
    });
  }

  it('an event\'s Properties open right under that event\'s row, inside the Events panel, before the next event', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key);
    await s.page.click('[data-panel=events] tr[data-key="download"] button.open-properties');
    await settled(s.page, ['name=download'], [], 'properties');
    const [row, drill, panel] = await Promise.all(['section[data-panel=events] > table > tbody > tr[data-key="download"]', 'section[data-panel=properties]', 'section[data-panel=events]']
      .map(async (selector) => (await s.page.locator(selector).boundingBox())!)) as [Box, Box, Box];
    expect(drill.y - (row.y + row.height)).toBeGreaterThanOrEqual(0);
    expect(drill.y - (row.y + row.height)).toBeLessThan(16); // right under it
    expect(drill.x).toBeGreaterThanOrEqual(panel.x);
    expect(drill.x + drill.width).toBeLessThanOrEqual(panel.x + panel.width);
    const order = await s.page.$$eval('section[data-panel=events] > table > tbody > tr', (trs) => trs.map((tr) => tr.getAttribute('data-key') ?? tr.className));
    expect(order[order.indexOf('download') + 1]).toBe('detail');
    expect(await s.page.getAttribute('[data-panel=events] tr[data-key="download"] button.open-properties', 'aria-expanded')).toBe('true');
    expect((await shownRows(s.page, 'properties')).length).toBeGreaterThan(0);
    expect(await axe(s.page)).toEqual([]); // a panel inside a table row reads right to a screen reader too
    // The same button closes it.
    await s.page.click('[data-panel=events] tr[data-key="download"] button.open-properties');
    expect(await s.page.locator('section[data-panel=properties]').count()).toBe(0);
    expect(s.problems).toEqual([]);
  });

  it('Referrers and Channels each say what their column counts', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key);
    expect(await s.page.textContent('[data-panel=referrers] .describe')).toContain('UTM tags do not change it: a visit without a referring site is Direct / None.');
    expect(await s.page.textContent('[data-panel=channels] .describe')).toContain('a link tagged utm_source=newsletter is Email, though Referrers counts it as Direct / None');
  });

  it('a site without pageviews shows the snippet and waits, asking again every 5 s; a beacon arrives and the page turns into the dashboard by itself', async () => {
    const s = await chromium.open();
    await signInWithForm(s, t, t.key, '/?site_id=ST-new', false);
    await s.page.waitForSelector('[data-empty=waiting]');
    expect(await s.page.textContent('[data-empty=waiting] pre')).toContain(`<script defer src="${t.origin}/tracker.js" data-site="ST-new"></script>`);
    const asked = () => s.requests.filter((r) => r.url().includes('/dashboard/data/stats?site_id=ST-new')).length;
    await expect.poll(asked, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);
    expect(await s.page.locator('section[data-panel]').count()).toBe(0);
    expect(await axe(s.page)).toEqual([]);
    const beacon = await t.request('/collect', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' },
      body: JSON.stringify({ site_id: 'ST-new', type: 'pageview', url: 'https://new.example/hello', referrer: '' }),
    });
    expect(beacon.status).toBe(202);
    await s.page.waitForSelector('section[data-panel=pages] tr[data-key="/hello"]', { timeout: 20_000 });
    await settled(s.page);
    expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=pageviews] .value')).toEqual(['1']);
    expect(await s.page.locator('[data-empty]').count()).toBe(0);
    expect(new URL(s.page.url()).search).toBe('?site_id=ST-new');
    expect(refused(s)).toEqual([]);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('the account: a password set through a link says so; two-factor shows a QR code that decodes to its otpauth address; the code used to turn it on is refused at sign-in, saying why', async () => {
    const s = await chromium.open();
    const { link } = await t.people.addUser(COMMUNITY_ACCOUNT, 'ann@example.com', 'owner');
    await s.page.goto(`${t.origin}/dashboard/set-password?token=${link}`);
    await s.page.fill('#new-password', 'orchid-harbor-58-lantern');
    await Promise.all([s.page.waitForURL(`${t.origin}/?notice=password-set`), s.page.click('button[type=submit]')]);
    expect(await s.page.textContent('[role=status]')).toBe('Your password is set. Sign in with your email and the new password.');
    const signIn = async (code?: string) => {
      await s.page.fill('#email', 'ann@example.com');
      await s.page.fill('#password', 'orchid-harbor-58-lantern');
      if (code) await s.page.fill('#totp', code);
      await s.page.click('form[aria-label="Sign in with email and password"] button');
    };
    await signIn();
    await s.page.waitForSelector('a:has-text("Account")');
    await s.page.goto(`${t.origin}/dashboard/account/password`);
    await s.page.click('button:has-text("Set up two-factor")');
    await s.page.waitForSelector('svg.qr');
    expect(await axe(s.page)).toEqual([]);
    expect(await s.page.getAttribute('svg.qr', 'aria-label')).toBe('QR code for your authenticator app (the otpauth address below)');
    const shownUri = (await s.page.textContent('.two-factor-setup .hint code'))!;
    const decoded = await decodeQr(chromium.browser, s.page, 'svg.qr');
    expect(decoded).toBe(shownUri);
    const totp = URI.parse(decoded!) as TOTP;
    expect([totp.issuer, totp.label, totp.secret.base32]).toEqual(['Siteline', 'ann@example.com', await s.page.inputValue('input[name=secret]')]);
    // The app's code now (the dashboard's clock), from what the camera read.
    await s.page.fill('#totp-code', totp.generate({ timestamp: clock }));
    await s.page.fill('#totp-current', 'orchid-harbor-58-lantern'); // turning two-factor on takes the current password
    await s.page.click('button:has-text("Turn on")');
    await s.page.waitForSelector('#recovery-codes');
    expect(await s.page.textContent('[role=status]')).toContain('The code you just entered is used up');
    await s.page.click('button:has-text("Sign out")');
    await s.page.waitForSelector('#email');
    // Same 30 s window, same code: refused (each code once, RFC 6238 5.2), and the page says why.
    await signIn(totp.generate({ timestamp: clock }));
    await s.page.waitForSelector('[role=alert]');
    expect(await s.page.textContent('[role=alert]')).toBe('That two-factor code was already used: each code works once, and the one that turned two-factor on counts. Enter the next code your app shows (it changes every 30 seconds).');
    clock += 30_000;
    await signIn(totp.generate({ timestamp: clock }));
    await s.page.waitForSelector('a:has-text("Account")');
    expect(s.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
  });

  it('the Sites page: the time zone picker starts at the browser\'s own zone (an alias such as Asia/Calcutta included); "Copy snippet" says it copied', async () => {
    const s = await chromium.open({ timezoneId: 'Asia/Kolkata' });
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { link } = await t.people.addUser(COMMUNITY_ACCOUNT, 'raj@example.com', 'owner');
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: 'monsoon-ladder-71-quartz' })).status).toBe(303);
    await s.page.goto(`${t.origin}/`);
    await s.page.fill('#email', 'raj@example.com');
    await s.page.fill('#password', 'monsoon-ladder-71-quartz');
    await Promise.all([s.page.waitForSelector('a:has-text("Account")'), s.page.click('form[aria-label="Sign in with email and password"] button')]);
    await s.page.goto(`${t.origin}/dashboard/account/sites`);
    expect(await s.page.inputValue('#site-timezone')).toBe('Asia/Kolkata');
    await s.page.click('button[data-copy="snippet-ST-demo"]');
    await s.page.waitForSelector('li:has(#snippet-ST-demo) [role=status]:has-text("Copied to the clipboard.")');
    expect(await s.page.evaluate(() => navigator.clipboard.readText())).toBe(await s.page.inputValue('#snippet-ST-demo'));
    expect(s.problems).toEqual([]);
  });
});

describe('a Cloud owner whose account has no site yet', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ cloud: true });
  });
  afterAll(() => t?.close());

  it('the dashboard links to the Sites page (no shell command); a site added there then waits for its first pageview', async () => {
    const account = await t.backend.accounts.createAccount('Initech');
    const { link } = await t.people.addUser(account.id, 'owner@initech.test', 'owner');
    expect((await postForm(t, '/dashboard/set-password', { token: link, password: 'stapler-basement-93-red' })).status).toBe(303);
    const s = await chromium.open();
    await s.page.goto(`${t.origin}/`);
    await s.page.fill('#email', 'owner@initech.test');
    await s.page.fill('#password', 'stapler-basement-93-red');
    await Promise.all([s.page.waitForSelector('[data-empty=no-sites]'), s.page.click('form[aria-label="Sign in with email and password"] button')]);
    expect(await s.page.textContent('[data-empty=no-sites] p')).toBe('Add your first site on the Sites page; it gives you the snippet to put on your pages.');
    expect(await s.page.locator('[data-empty=no-sites] code').count()).toBe(0);
    await Promise.all([s.page.waitForSelector('h1:has-text("Sites")'), s.page.click('a:has-text("Sites page")')]);
    await s.page.fill('#site-name', 'Initech');
    await s.page.selectOption('#site-timezone', 'America/Chicago');
    await s.page.click('button:has-text("Add site")');
    await s.page.waitForSelector('text=Site Initech added as');
    await s.page.click('nav a:has-text("Dashboard")');
    await s.page.waitForSelector('[data-empty=waiting]');
    expect(s.problems).toEqual([]);
  });
});
