/**
 * The account's Funnels page over real HTTPS on a real SQLite file (Cloud: account A owns
 * ST-demo, B ST-globex), as a browser without script uses it: the forms post, the preview is
 * the page answered; and the dashboard's `data/saved-funnels` route. The page's live preview
 * in Chromium is in dashboard/funnels.browser.test.ts.
 */
import { FUNNEL_MESSAGES } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { csrfIn, postForm, userWithPassword } from './people-test-helpers.js';

const PASSWORD = 'tulip-orbit-42-canyon';

/** A row of the page's list of funnels: the name (cut to the cell, whole in the title) and its steps in order. */
const listRow = (name: string, steps: string[]) =>
  `<td><span class="cut" title="${name}">${name}</span></td><td><ol class="saved-steps">${steps.map((step) => `<li>${step}</li>`).join('')}</ol></td>`;

describe('the account\'s Funnels page (Cloud)', () => {
  let t: TestDashboard;
  let owner: string;
  let csrf: string;
  const get = (path: string, cookie = owner) => t.request(path, { headers: { Cookie: cookie } });
  /** The Funnels form as the page posts it: `steps` as [kind, value] rows, padded to 8 with blank ones. */
  const post = (fields: Record<string, string>, steps: [string, string][] = [], cookie = owner, token = csrf) => {
    const form = new URLSearchParams({ csrf: token, ...fields });
    for (let i = 0; i < 8; i++) {
      form.append('kind', steps[i]?.[0] ?? 'page');
      form.append('value', steps[i]?.[1] ?? '');
    }
    return t.request('/dashboard/account/funnels', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: t.origin, Cookie: cookie }, body: form.toString() });
  };
  const apiFunnel = async (params: Record<string, string>) =>
    JSON.parse((await t.request(`/api/v1/funnels?${new URLSearchParams(params)}`, { headers: { Authorization: `Bearer ${t.cloud!.keyA}` } })).text);

  beforeAll(async () => {
    t = await startDashboard({ cloud: true });
    owner = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', PASSWORD);
    csrf = csrfIn((await get('/dashboard/account/funnels')).text);
  });
  afterAll(() => t?.close());

  it('lists the site\'s funnels with their steps; the preview is the API\'s answer for the last 30 days; saving, refusing and deleting', async () => {
    const listed = await get('/dashboard/account/funnels?site_id=ST-demo');
    expect(listed.status).toBe(200);
    expect(listed.text).toContain(listRow('Docs to download', ['Visit /docs*', 'download']));
    expect(listed.text).toContain(listRow('Pricing to signup', ['Visit /pricing', 'Visit /signup', 'signup']));
    expect(listed.text).toContain('<script type="module" src="funnel-preview.js"></script>');
    expect((await get('/dashboard/account/funnel-preview.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');

    // Preview: the form comes back as entered, with each step's visitors of the last 30 days (the API's, by the server's clock).
    const steps: [string, string][] = [['page', '/pricing'], ['event', 'signup']];
    const preview = await post({ do: 'preview', site_id: 'ST-demo', name: 'Pricing straight to signup' }, steps);
    expect(preview.status).toBe(200);
    const api = await apiFunnel({ site_id: 'ST-demo', period: '30d', steps: JSON.stringify([{ page: '/pricing' }, { event: 'signup' }]) });
    expect(api.steps[1].visitors).toBeGreaterThan(0);
    expect(preview.text).toContain(`<tr><th scope="row">1. Visit /pricing</th><td class="num">${api.steps[0].visitors.toLocaleString('en-US')}</td><td class="num">100%</td><td class="num">—</td></tr>`);
    expect(preview.text).toContain(`<tr><th scope="row">2. signup</th><td class="num">${api.steps[1].visitors.toLocaleString('en-US')}</td><td class="num">${api.steps[1].conversion_rate}%</td><td class="num">${api.steps[1].conversion_rate_step}%</td></tr>`);
    expect(preview.text).toContain('value="Pricing straight to signup"');
    expect(preview.text).toContain('<option value="event" selected>Custom event name</option></select>\n<input id="step-value-1" name="value" maxlength="500" value="signup"');

    // Refusals keep what was entered; the messages are the library's.
    const one = await post({ do: 'preview', site_id: 'ST-demo', name: 'x' }, [['page', '/pricing']]);
    expect([one.status, one.text.includes(FUNNEL_MESSAGES.steps)]).toEqual([422, true]);
    const taken = await post({ site_id: 'ST-demo', name: 'Pricing to signup' }, steps);
    expect([taken.status, taken.text.includes('The site already has a funnel named &quot;Pricing to signup&quot;.')]).toEqual([422, true]);
    const long = await post({ site_id: 'ST-demo', name: 'Long' }, [['page', '/a'], ['page', 'p'.repeat(501)]]);
    expect([long.status, long.text.includes(FUNNEL_MESSAGES.step)]).toEqual([422, true]);

    // Saved (blank rows between steps are left out), listed, read by the API; then deleted.
    const saved = await post({ site_id: 'ST-demo', name: '  Pricing straight to signup ' }, [['page', '/pricing'], ['page', ''], ['event', 'signup']]);
    expect([saved.status, saved.text.includes('Funnel Pricing straight to signup saved.')]).toEqual([201, true]);
    expect(saved.text).toContain(listRow('Pricing straight to signup', ['Visit /pricing', 'signup']));
    expect(await apiFunnel({ site_id: 'ST-demo', period: '30d', funnel: 'Pricing straight to signup' })).toEqual({ ...api, funnel: 'Pricing straight to signup' });
    const deleted = await post({ do: 'delete', site_id: 'ST-demo', name: 'Pricing straight to signup' });
    expect([deleted.status, deleted.text.includes('Funnel Pricing straight to signup deleted.'), deleted.text.includes('title="Pricing straight to signup"')]).toEqual([200, true, false]);
  });

  it('another account\'s site is not this account\'s; a post needs the session\'s CSRF token; a viewer may not open the page', async () => {
    expect((await post({ site_id: 'ST-globex', name: 'Theirs' }, [['page', '/a'], ['page', '/b']])).status).toBe(404);
    expect((await post({ site_id: 'ST-demo', name: 'Forged' }, [['page', '/a'], ['page', '/b']], owner, 'x'.repeat(43))).status).toBe(403);
    const viewer = await userWithPassword(t, t.cloud!.accountA, 'viewer@acme.test', 'viewer', PASSWORD);
    expect((await get('/dashboard/account/funnels', viewer)).status).toBe(403);
    expect((await postForm(t, '/dashboard/account/funnels', { site_id: 'ST-demo', name: 'V', kind: 'page', value: '/a' }, { cookie: viewer })).status).toBe(403);
  });

  it('dashboard/data/saved-funnels lists a readable site\'s funnels by name with their steps\' names; another account\'s site is 404', async () => {
    const { cookie } = await signIn(t, t.cloud!.keyA);
    const list = await get('/dashboard/data/saved-funnels?site_id=ST-demo', cookie);
    expect([list.status, JSON.parse(list.text)]).toEqual([200, { funnels: [
      { name: 'Docs to download', steps: ['Visit /docs*', 'download'] },
      { name: 'Pricing to signup', steps: ['Visit /pricing', 'Visit /signup', 'signup'] },
    ] }]);
    for (const site of ['ST-globex', 'ST-nope', 'nonsense', '']) {
      expect([site, (await get(`/dashboard/data/saved-funnels?site_id=${site}`, cookie)).text]).toEqual([site, '{"error":"Site not found."}']);
    }
    expect((await t.request('/dashboard/data/saved-funnels?site_id=ST-demo')).status).toBe(401);
  });
});
