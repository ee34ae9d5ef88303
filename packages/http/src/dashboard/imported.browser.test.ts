/**
 * A site whose first months are imported from Plausible and the rest native, in real headless
 * Chromium (issue 39): the notice says how many imported days the figures include, the day
 * chart shades exactly those days, a filter no imported table answers says they are left out,
 * as the Funnels panel always does;
 * desktop and phone screenshots go to SITELINE_SCREENSHOTS (default a temporary folder), never
 * into the repository.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPlausible } from '@siteline/core';
import { storedZip } from '@siteline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFor, launch, type Session, settled, signInWithForm, texts } from './browser-helpers.js';
import { startDashboard, type TestDashboard } from './test-helpers.js';

const SCREENSHOTS = process.env.SITELINE_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'siteline-imported-screens-'));
mkdirSync(SCREENSHOTS, { recursive: true });

/** Every day of [from, to]. */
function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * A Plausible export of ST-demo for 2026-06-01 to 2026-08-31 (the demo's own events start on
 * 08-22, so its last ten days count natively): visitors rising through the summer, a weekly
 * rhythm, the same split over sources, pages, countries and devices every day.
 */
function summerExport(): Record<string, string> {
  const range = '20260601_20260831';
  const rows: Record<string, string[]> = {
    visitors: ['date,visitors,pageviews,bounces,visits,visit_duration'],
    sources: ['date,source,referrer,utm_source,utm_medium,utm_campaign,utm_content,utm_term,pageviews,visitors,visits,visit_duration,bounces'],
    pages: ['date,hostname,page,visits,visitors,pageviews,total_scroll_depth,total_scroll_depth_visits,total_time_on_page,total_time_on_page_visits'],
    entry_pages: ['date,entry_page,visitors,entrances,visit_duration,bounces,pageviews'],
    locations: ['date,country,region,city,visitors,visits,visit_duration,bounces,pageviews'],
    devices: ['date,device,visitors,visits,visit_duration,bounces,pageviews'],
  };
  days('2026-06-01', '2026-08-31').forEach((day, i) => {
    const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
    const v = Math.round((120 + i * 1.5) * (weekend ? 0.6 : 1));
    const [a, b] = [Math.round(v * 0.6), v - Math.round(v * 0.6)];
    rows.visitors!.push(`${day},${v},${v * 3},${Math.round(v * 0.4)},${v},${v * 90}`);
    rows.sources!.push(`${day},Google,www.google.com,,,,,,${a * 3},${a},${a},${a * 90},${Math.round(a * 0.4)}`);
    rows.sources!.push(`${day},Direct / None,,,,,,,${b * 3},${b},${b},${b * 90},${Math.round(v * 0.4) - Math.round(a * 0.4)}`);
    rows.pages!.push(`${day},demo.siteline.test,/,${a},${a},${a * 2},,,${a * 40},${a}`);
    rows.pages!.push(`${day},demo.siteline.test,/pricing,${b},${b},${v * 3 - a * 2},,,${b * 60},${b}`);
    rows.entry_pages!.push(`${day},/,${v},${v},${v * 90},${Math.round(v * 0.4)},${v * 3}`);
    rows.locations!.push(`${day},DE,,0,${a},${a},${a * 90},${Math.round(a * 0.4)},${a * 3}`, `${day},US,,0,${b},${b},${b * 90},${Math.round(v * 0.4) - Math.round(a * 0.4)},${b * 3}`);
    rows.devices!.push(`${day},Desktop,${a},${a},${a * 90},${Math.round(a * 0.4)},${a * 3}`, `${day},Mobile,${b},${b},${b * 90},${Math.round(v * 0.4) - Math.round(a * 0.4)},${b * 3}`);
  });
  return Object.fromEntries(Object.entries(rows).map(([table, lines]) => [`imported_${table}_${range}.csv`, `${lines.join('\n')}\n`]));
}

describe('a site with imported months, in headless Chromium', () => {
  let t: TestDashboard;
  let chromium: Awaited<ReturnType<typeof launch>>;
  const view = '/?site_id=ST-demo&from=2026-06-01&to=2026-11-19&interval=day';
  beforeAll(async () => {
    t = await startDashboard();
    const dir = mkdtempSync(join(tmpdir(), 'siteline-imported-browser-'));
    writeFileSync(join(dir, 'export.zip'), storedZip(summerExport()));
    const summary = await importPlausible(t.backend.storage, join(dir, 'export.zip'), { siteId: 'ST-demo' });
    expect(summary.overlapDays).toEqual(days('2026-08-22', '2026-08-31'));
    chromium = await launch();
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
    console.log(`imported-data screenshots: ${SCREENSHOTS}`);
  });

  const openView = async (path: string, width: number): Promise<Session> => {
    const s = await chromium.open({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await signInWithForm(s, t, t.key, path);
    return s;
  };

  it('says how many imported days the figures include, shades exactly those days, and the figures are the API\'s', async () => {
    for (const width of [1280, 390]) {
      const s = await openView(view, width);
      // 2026-06-01 to 08-21: 82 days without native events.
      expect(await texts(s.page, '.note.imported:not([data-panel=funnels] *)')).toEqual(['Includes 82 imported days (Plausible daily totals, on days the site has no events of its own).']);
      // The Funnels panel (the demo's funnels) leaves them out: a funnel needs each session's events in order.
      await s.page.locator('[data-panel=funnels] .note.imported').waitFor();
      expect(await texts(s.page, '[data-panel=funnels] .note.imported')).toEqual(["82 imported days left out: Funnels follow each session's events in order; imported data has daily totals, no sessions."]);
      expect((await apiFor(t, s.page, 'funnels')).imported).toEqual({ included: false, days: 82, reason: "Funnels follow each session's events in order; imported data has daily totals, no sessions." });
      const stats = await apiFor(t, s.page, 'stats');
      expect(stats.imported).toEqual({ included: true, days: 82 });
      expect(await texts(s.page, '[data-panel=stats] .figure[data-metric=visitors] .value')).toEqual([stats.visitors.toLocaleString('en-US')]);
      const band = s.page.locator('rect.imported-band');
      expect(await band.count()).toBe(1);
      expect([await band.getAttribute('data-from'), await band.getAttribute('data-to')]).toEqual(['2026-06-01', '2026-08-21']);
      expect(await texts(s.page, '.chart .legend .item')).toContain(' Imported from Plausible');
      await s.page.screenshot({ path: join(SCREENSHOTS, `imported-${width}.png`), fullPage: true });
      await s.page.screenshot({ path: join(SCREENSHOTS, `imported-${width}-top.png`) });
      expect(s.problems).toEqual([]);
    }
  });

  it('a filter no imported table answers leaves them out and says why', async () => {
    const filters = encodeURIComponent(JSON.stringify([['is', 'page', ['/pricing']]]));
    for (const width of [1280, 390]) {
      const s = await openView(`${view}&filters=${filters}`, width);
      await settled(s.page, ['filters=']);
      expect(await texts(s.page, '.note.imported:not([data-panel=funnels] *)')).toEqual(['82 imported days left out: Imported pages have no sessions, bounce rates or visit durations.']);
      expect((await apiFor(t, s.page, 'stats')).imported).toEqual({ included: false, days: 82, reason: 'Imported pages have no sessions, bounce rates or visit durations.' });
      expect(await s.page.locator('rect.imported-band').count()).toBe(0); // the chart's days hold no imported totals here
      await s.page.screenshot({ path: join(SCREENSHOTS, `imported-filtered-${width}.png`), fullPage: true });
      await s.page.screenshot({ path: join(SCREENSHOTS, `imported-filtered-${width}-top.png`) });
      expect(s.problems).toEqual([]);
    }
  });
});
