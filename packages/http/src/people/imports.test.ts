/**
 * A site's imports of daily totals on the Sites page (issue 39): listed with their days, deleted
 * only with the confirmation, exactly their rows gone; the dashboard's site list carries the
 * days that count as imported. Real HTTPS, a real SQLite file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSite, importEvents, importPlausible } from '@siteline/core';
import { ndjson, PLAUSIBLE_EXPORT, PLAUSIBLE_NATIVE, storedZip } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { csrfIn, postForm, userWithPassword } from './people-test-helpers.js';

const page = (t: TestDashboard, path: string, cookie: string) => t.request(path, { headers: { Cookie: cookie } });

describe('imports of daily totals on the Sites page', () => {
  let t: TestDashboard;
  let owner: string;
  let importId: string;
  const dir = mkdtempSync(join(tmpdir(), 'siteline-imports-page-'));
  beforeAll(async () => {
    t = await startDashboard();
    owner = await userWithPassword(t, '', 'admin@example.com', 'owner', 'tulip-orbit-42-canyon');
    const storage = t.backend.storage;
    await createSite(storage, { id: 'ST-plaus', name: 'Plaus', timezone: 'UTC', domain: 'plaus.example' });
    await importEvents(storage, ndjson(PLAUSIBLE_NATIVE));
    writeFileSync(join(dir, 'export.zip'), storedZip(PLAUSIBLE_EXPORT));
    importId = (await importPlausible(storage, join(dir, 'export.zip'), { siteId: 'ST-plaus' })).importId;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the import; the site list gives the days that count as imported (03-03 has native events)', async () => {
    const sites = await page(t, '/dashboard/account/sites', owner);
    expect(sites.text).toContain(`<li data-import="${importId}">Plausible, 2026-03-01 to 2026-03-03 (36 rows, imported `);
    const list = JSON.parse((await page(t, '/dashboard/data/sites', owner)).text) as { sites: { id: string; imported?: unknown }[] };
    expect(list.sites.find((s) => s.id === 'ST-plaus')!.imported).toEqual([{ from: '2026-03-01', to: '2026-03-02' }]);
    expect(list.sites.find((s) => s.id === 'ST-demo')).toEqual({ id: 'ST-demo', name: 'Demo', domain: 'demo.siteline.test', timezone: 'Europe/Berlin' }); // no imports: no field
  });

  it('deletes it only with the confirmation, and then exactly its rows are gone', async () => {
    const csrf = csrfIn((await page(t, '/dashboard/account/sites', owner)).text);
    const stats = async () => JSON.parse((await t.request('/api/v1/stats?site_id=ST-plaus&from=2026-03-01&to=2026-03-04', { headers: { Authorization: `Bearer ${t.key}` } })).text);
    expect(await stats()).toMatchObject({ visitors: 7, imported: { included: true, days: 2 } });
    const unconfirmed = await postForm(t, '/dashboard/account/sites/delete-import', { csrf, site_id: 'ST-plaus', import_id: importId }, { cookie: owner });
    expect([unconfirmed.status, unconfirmed.text.includes('Deleting an import needs its confirmation')]).toEqual([422, true]);
    const wrong = await postForm(t, '/dashboard/account/sites/delete-import', { csrf, site_id: 'ST-plaus', import_id: 'imp_nosuchimport00', confirm: 'yes' }, { cookie: owner });
    expect(wrong.status).toBe(404);
    const done = await postForm(t, '/dashboard/account/sites/delete-import', { csrf, site_id: 'ST-plaus', import_id: importId, confirm: 'yes' }, { cookie: owner });
    expect([done.status, done.text.includes('Import deleted from Plaus: its daily totals are gone from every report.'), done.text.includes('data-import=')]).toEqual([200, true, false]);
    expect(await stats()).toEqual({ visitors: 2, pageviews: 2, sessions: 2, bounce_rate: 50, avg_duration: 30 });
    expect(JSON.parse((await page(t, '/dashboard/data/sites', owner)).text).sites.find((s: { id: string }) => s.id === 'ST-plaus').imported).toBeUndefined();
  });
});
