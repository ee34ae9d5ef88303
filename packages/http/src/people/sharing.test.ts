/**
 * The Sites page's shared links and email reports over real HTTPS (Cloud demo data, SQLite):
 * an owner creates a link (its address shown once, with the iframe when it may be embedded),
 * revokes it, subscribes and removes report addresses; refused input, a viewer, another
 * account's site and a post without its CSRF token change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { csrfIn, postForm, userWithPassword } from './people-test-helpers.js';

describe('sharing on the Sites page', () => {
  let t: TestDashboard;
  let owner: string;
  let csrf: string;
  const post = (fields: Record<string, string>, cookie = owner) => postForm(t, '/dashboard/account/sites', fields, { cookie });
  beforeAll(async () => {
    t = await startDashboard({ cloud: true });
    owner = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', 'tulip-orbit-42-canyon');
    csrf = csrfIn((await t.request('/dashboard/account/sites', { headers: { Cookie: owner } })).text);
  });
  afterAll(() => t?.close());

  it('creates a link whose address is shown once and opens the site; the list shows it without the token; revoking ends it', async () => {
    const page = (await t.request('/dashboard/account/sites', { headers: { Cookie: owner } })).text;
    expect(page).toContain('Shared links (0) and email reports (0) of Demo');
    expect(page).toContain('Mail is not set up on this server (SMTP_URL)');
    const created = await post({ csrf, do: 'share', site_id: 'ST-demo', name: 'Blog', password: '', origins: 'https://blog.acme.test\nhttp://127.0.0.1:8080', segment: '' });
    expect(created.status).toBe(201);
    const url = /id="link-url-ST-demo" readonly value="(https:\/\/127\.0\.0\.1:\d+\/share\/([A-Za-z0-9_-]{43})\/)"/.exec(created.text)!;
    expect(created.text).toContain(`&lt;iframe src=&quot;${url[1]}?embed=true&amp;amp;theme=light&quot;`);
    expect((await t.request(new URL(url[1]!).pathname)).text).toContain('<meta name="siteline-share" content="ST-demo">');
    const listed = (await t.request('/dashboard/account/sites', { headers: { Cookie: owner } })).text;
    expect(listed).toContain('Shared links (1) and email reports (0) of Demo');
    expect(listed).toContain('<code>https://blog.acme.test</code> <code>http://127.0.0.1:8080</code>');
    expect(listed).not.toContain(url[2]);
    const linkId = /name="link_id" value="(lnk_[a-z0-9]{12})"/.exec(listed)![1]!;
    expect((await post({ csrf, do: 'unshare', site_id: 'ST-demo', link_id: linkId })).text).toContain('Revoking a link needs its confirmation'); // a stray click
    expect((await t.request(new URL(url[1]!).pathname)).status).toBe(200);
    expect((await post({ csrf, do: 'unshare', site_id: 'ST-demo', link_id: linkId, confirm: 'yes' })).text).toContain('Link revoked: its pages stop working at their next request.');
    expect((await t.request(new URL(url[1]!).pathname)).status).toBe(404);
  });

  it('refuses a weak password, a wildcard origin or a bad segment saying why, keeping what was typed; another account\'s site, a viewer and a missing CSRF token change nothing', async () => {
    const weak = await post({ csrf, do: 'share', site_id: 'ST-demo', name: 'Board', password: 'short', origins: '', segment: '' });
    expect([weak.status, weak.text.includes('A password needs at least 10 characters.')]).toEqual([422, true]);
    const star = await post({ csrf, do: 'share', site_id: 'ST-demo', name: 'Any', password: '', origins: '*', segment: '[["is","country",["DE"]]]' });
    expect(star.status).toBe(422);
    expect(star.text).toContain('An embedding origin is https://host');
    expect(star.text).toContain('value="[[&quot;is&quot;,&quot;country&quot;,[&quot;DE&quot;]]]"');
    expect((await post({ csrf, do: 'share', site_id: 'ST-demo', name: 'Seg', password: '', origins: '', segment: '[1]' })).status).toBe(422);
    expect((await post({ csrf, do: 'share', site_id: 'ST-globex', name: 'Theirs', password: '', origins: '', segment: '' })).status).toBe(404);
    expect((await post({ do: 'share', site_id: 'ST-demo', name: 'No token', password: '', origins: '', segment: '' })).status).toBe(403);
    const viewer = await userWithPassword(t, t.cloud!.accountA, 'viewer@acme.test', 'viewer', 'viewer-orbit-42-canyon');
    expect((await post({ csrf, do: 'share', site_id: 'ST-demo', name: 'Viewer', password: '', origins: '', segment: '' }, viewer)).status).toBe(403);
    expect((await t.request('/dashboard/account/sites', { headers: { Cookie: owner } })).text).toContain('Shared links (0) and email reports (0) of Demo');
  });

  it('subscribes an address to the weekly and monthly reports and stops one of them', async () => {
    const added = await post({ csrf, do: 'report', site_id: 'ST-demo', email: 'Reader@Acme.test', week: '1', month: '1' });
    expect(added.status).toBe(201);
    expect(added.text).toContain('reader@acme.test receives the weekly and monthly report of Demo.');
    expect(added.text).toContain('Shared links (0) and email reports (2) of Demo');
    const stopped = await post({ csrf, do: 'unreport', site_id: 'ST-demo', kind: 'month', email: 'reader@acme.test' });
    expect(stopped.text).toContain('reader@acme.test no longer receives the monthly report.');
    expect(stopped.text).toContain('Shared links (0) and email reports (1) of Demo');
    expect((await post({ csrf, do: 'report', site_id: 'ST-demo', email: 'nobody', week: '1' })).status).toBe(422);
    expect((await post({ csrf, do: 'report', site_id: 'ST-demo', email: 'x@acme.test' })).text).toContain('Choose weekly, monthly or both.');
  });
});
