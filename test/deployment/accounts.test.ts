/**
 * The account interface across real server processes: `siteline accounts add --owner-email`
 * prints the owner's link; the owner sets a password and signs in through one `siteline
 * serve` process, then keeps working (an account page, a new key, sign-out) through a
 * second process on the same backend, on SQLite and on a real ClickHouse server; failed
 * sign-ins through both processes are counted together.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deploymentSetup, type Engine } from './engines.js';
import { browserRequest, command, cookieOf, serve, type Served } from './processes.js';

const { dir, tls, stops, engines } = deploymentSetup('accounts', ['SQLite', 'ClickHouse']);

/** A request to a served process as a browser on its pages would make it (its Origin, the cookie, a form). */
const request = (server: Served, method: string, path: string, options: { cookie?: string; form?: Record<string, string>; key?: string } = {}) =>
  browserRequest(server, readFileSync(tls.certFile), method, path, options);

const csrfIn = (html: string) => /name="csrf" value="([A-Za-z0-9_-]{43})"/.exec(html)![1]!;

describe.each(engines)('the account interface across two `siteline serve` processes on %s', (_name, make) => {
  let engine: Engine;
  let a: Served;
  let b: Served;
  let link = '';
  const env = () => ({ ...engine.env, EDITION: 'cloud' });

  beforeAll(async () => {
    engine = await make('accounts');
    const added = await command(['accounts', 'add', '--name', 'Acme', '--owner-email', 'owner@acme.test'], dir, env());
    link = added.stdout.trim();
    const account = /acct_[a-z0-9]{16}/.exec(added.stderr)![0];
    await command(['sites', 'add', '--name', 'Acme shop', '--id', 'ST-acme', '--account', account], dir, env());
    // Two processes on one machine: a collector spool directory each (one owner per directory).
    a = await serve(dir, { ...env(), COLLECT_SPOOL_DIR: join(dir, `spool-${engine.name}-a`) }, tls);
    stops.push(() => a.stop());
    b = await serve(dir, { ...env(), COLLECT_SPOOL_DIR: join(dir, `spool-${engine.name}-b`) }, tls);
    stops.push(() => b.stop());
  });

  it('a session started on one process works on the other: pages, a new key, and sign-out for both', async () => {
    expect(link).toMatch(/^https:\/\/localhost:8443\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link).searchParams.get('token')!;
    expect((await request(a, 'POST', '/dashboard/set-password', { form: { token, password: 'tulip-orbit-42-canyon' } })).status).toBe(303);
    const signedIn = await request(a, 'POST', '/dashboard/sign-in', { form: { email: 'owner@acme.test', password: 'tulip-orbit-42-canyon', view: '' } });
    expect(signedIn.status).toBe(303);
    const cookie = cookieOf(signedIn);

    const sites = await request(b, 'GET', '/dashboard/data/sites', { cookie });
    expect([sites.status, JSON.parse(sites.body).sites.map((s: { id: string }) => s.id)]).toEqual([200, ['ST-acme']]);
    const keysPage = await request(b, 'GET', '/dashboard/account/keys', { cookie });
    expect(keysPage.status).toBe(200);
    const created = await request(b, 'POST', '/dashboard/account/keys', { cookie, form: { csrf: csrfIn(keysPage.body), name: 'made on process B' } });
    expect(created.status).toBe(201);
    const key = /id="new-key" readonly value="(st_[0-9a-f]{64})"/.exec(created.body)![1]!;
    expect(await a.get('/api/v1/live?site_id=ST-acme', key)).toEqual({ status: 200, body: '{"live":0}' });

    const out = await request(b, 'POST', '/dashboard/sign-out', { cookie, form: { csrf: csrfIn(keysPage.body) } });
    expect(out.status).toBe(303);
    expect((await request(a, 'GET', '/dashboard/data/sites', { cookie })).status).toBe(401);
    expect((await request(b, 'GET', '/dashboard/data/sites', { cookie })).status).toBe(401);
    // The link was used: a second use through the other process is refused.
    expect((await request(b, 'POST', '/dashboard/set-password', { form: { token, password: 'another-good-pass-9' } })).status).toBe(400);
  });

  it('failed sign-ins through one process count on the other: 3 through A, 2 through B, then 429 on both (the throttle is in the backend)', async () => {
    const guess = (server: Served, password: string) =>
      request(server, 'POST', '/dashboard/sign-in', { form: { email: 'owner@acme.test', password, view: '' } });
    const statuses: number[] = [];
    for (const [i, server] of [a, a, a, b, b].entries()) statuses.push((await guess(server, `wrong-guess-${i}`)).status);
    const [heldOnA, heldOnB] = [await guess(a, 'tulip-orbit-42-canyon'), await guess(b, 'tulip-orbit-42-canyon')]; // even the right password waits
    expect([...statuses, heldOnA.status, heldOnB.status]).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect([heldOnA.headers['retry-after'], heldOnB.headers['retry-after']]).toEqual(['1', '1']);
    expect(heldOnB.body).toContain('Too many failed sign-ins for this email. Try again in 1 second.');
  });
});
