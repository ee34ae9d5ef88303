/**
 * `npm run bench:dashboard -- --pageviews 1000000 --days 30`: the dashboard's first paint on
 * the bench database, in headless Chromium, against the standalone server (`siteline serve`
 * from the sources, a process of its own, as a deployment runs it) on loopback over HTTPS.
 *
 * Measures, from navigation start: first contentful paint (FCP) and the moment the summary
 * figures are on screen (the app's `siteline:figures` mark), and when every panel has its
 * answer. Cases: the first load after the server started (cold caches), loads with an empty
 * browser cache, reloads with the assets cached; then, after a restart of the server (a
 * fresh backend: SQLite's column cache empty), a click on a referrer row (the first FILTERED
 * query) until every panel shows the filtered numbers, and a second filter click once warm.
 * Same-run references: the API's `/stats` over HTTPS and the sign-in page's FCP (no data).
 * The server runs on the real clock; the view names the bench's 30 days by date (`from`/`to`),
 * so the numbers do not depend on today's date.
 * Reuses .bench/bench.db when it holds the asked-for data (made by this script or by
 * `npm run bench` with the same --pageviews/--days/--now/--seed), otherwise generates it.
 * `--engine clickhouse`: the same lines imported into a clickhouse-server (18.16 from apt, on
 * loopback through packages/clickhouse's test harness, stopped at the end) and the server run
 * with DATABASE_URL=clickhouse://…; its restart empties Siteline's caches, not ClickHouse's.
 */
import { benchArgs } from './args.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createClickHouseStorage } from '../../packages/clickhouse/src/clickhouse-storage.js';
import { startClickHouse, type TestServer } from '../../packages/clickhouse/src/testing/test-server.js';
import { importEvents } from '../../packages/core/src/import/import.js';
import { benchSites, BIG, chunks, createBenchSite, loadDataset } from './dataset.js';
import { int, ms, percentile, table } from './measure.js';
import { certificate } from './server.js';
import { monthStart } from '../../packages/http/src/dashboard/app/dates.js';
import { type ServeProcess, startServe } from './serve.js';

const args = benchArgs('npm run bench:dashboard --', {
  pageviews: { type: 'string', default: '1000000' },
  days: { type: 'string', default: '30' },
  'small-sites': { type: 'string', default: '4' },
  seed: { type: 'string', default: '1' },
  now: { type: 'string', default: '2026-11-20T12:00:00Z' },
  chunk: { type: 'string', default: '500000' },
  runs: { type: 'string', default: '10' },
  dir: { type: 'string', default: '.bench' },
  /** `sqlite` (the bench database file) or `clickhouse` (a clickhouse-server on loopback, filled with the same lines). */
  engine: { type: 'string', default: 'sqlite' },
  /** A SQLite file to serve as it is (the year profile's, `npm run bench -- --year`), instead of the bench database. */
  database: { type: 'string' },
  /** With `--engine clickhouse`: the data directory of a clickhouse-server holding database `bench` (the year profile's), served as it is. */
  'clickhouse-dir': { type: 'string' },
  /** The view: `days` (the data's last --days days) or `12mo` (Last 12 months on the data's last day: the eleven months before and this one). */
  view: { type: 'string', default: 'days' },
});
if (args.engine !== 'sqlite' && args.engine !== 'clickhouse') {
  console.error(`--engine is sqlite or clickhouse, got ${args.engine}`);
  process.exit(2);
}
const num = (name: keyof typeof args) => Number(args[name]);
const dir = String(args.dir);
mkdirSync(dir, { recursive: true });
const file = join(dir, 'bench.db');
const endMs = Date.parse(String(args.now));
const clockStart = Date.now();
const now = () => endMs + (Date.now() - clockStart);
const KEY = 'dashboard-bench-key-0123456789abcdef0123456789';
const log = (text: string) => console.error(`[bench:dashboard ${(performance.now() / 1000).toFixed(0)}s] ${text}`);

/** The bench's 30 days as dates (the large site's zone), so the view does not depend on today's date. */
const lastDay = new Date(endMs).toLocaleDateString('sv-SE', { timeZone: BIG.timezone });
const firstDay = args.view === '12mo'
  ? monthStart(lastDay, -11)
  : new Date(Date.parse(`${lastDay}T00:00:00Z`) - (num('days') - 1) * 86_400_000).toISOString().slice(0, 10);
const VIEW = `?site_id=${BIG.id}&from=${firstDay}&to=${lastDay}`;

async function ensureDatabase(): Promise<void> {
  const marker = join(dir, 'bench-data.json');
  const wanted = JSON.stringify({ pageviews: num('pageviews'), days: num('days'), seed: num('seed'), now: args.now, smallSites: num('small-sites') });
  const results = join(dir, 'results.json');
  const fromBench = existsSync(results) && (() => {
    const r = JSON.parse(readFileSync(results, 'utf8')) as { args?: Record<string, string> };
    return r.args && JSON.stringify({ pageviews: Number(r.args.pageviews), days: Number(r.args.days), seed: Number(r.args.seed), now: r.args.now, smallSites: Number(r.args['small-sites']) }) === wanted;
  })();
  if (existsSync(file) && ((existsSync(marker) && readFileSync(marker, 'utf8') === wanted) || fromBench)) return log(`reusing ${file}`);
  log(`generating ${int(num('pageviews'))} pageviews into ${file}`);
  await loadDataset(file, benchSites(num('pageviews'), num('small-sites')), { days: num('days'), seed: num('seed'), endMs, chunk: num('chunk'), now, log });
  writeFileSync(marker, wanted);
}

/** A clickhouse-server holding the bench's lines in database `bench`; its DATABASE_URL for `siteline serve`. */
async function clickhouseDatabase(): Promise<{ server: TestServer; url: string }> {
  if (args['clickhouse-dir']) {
    const kept = await startClickHouse({ dir: resolve(String(args['clickhouse-dir'])) });
    return { server: kept, url: `clickhouse://default:@127.0.0.1:${kept.httpPort}/bench` };
  }
  const server = await startClickHouse();
  const storage = createClickHouseStorage({ url: server.url, database: 'bench', now });
  try {
    await storage.migrate();
    let events = 0;
    const t = performance.now();
    for (const site of benchSites(num('pageviews'), num('small-sites'))) {
      await createBenchSite(storage, site);
      for (const lines of chunks(site, { days: num('days'), seed: num('seed'), endMs, chunk: num('chunk') })) {
        await importEvents(storage, lines);
        events += lines.length;
      }
    }
    log(`clickhouse-server: imported ${int(events)} events in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } finally {
    await storage.close();
  }
  return { server, url: `clickhouse://default:@127.0.0.1:${server.httpPort}/bench` };
}

type Server = ServeProcess;

/** `siteline serve` on the bench database (serve.ts). */
const start = (databaseUrl: string): Promise<Server> => startServe(databaseUrl, { key: KEY, dir });

/**
 * Panels of a loaded view: the nine reports, Goals (both stores keep goals; the panel shows once
 * the site list says so) and Funnels (both stores read funnels; the panel shows the site's saved
 * ones, or how to save one).
 */
const PANELS = 11;

/** FCP, figures and all-panels times of the page's current document, ms from its navigation start. */
async function timings(page: Page): Promise<{ fcp: number; figures: number; panels: number }> {
  await page.waitForFunction(() => performance.getEntriesByName('siteline:figures').length > 0, undefined, { timeout: 120_000 });
  await page.waitForFunction((count) => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    return panels.length === count && panels.every((p) => p.getAttribute('aria-busy') === 'false' && p.hasAttribute('data-query'));
  }, PANELS, { timeout: 120_000 });
  return page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
    figures: performance.getEntriesByName('siteline:figures')[0]!.startTime,
    panels: performance.now(),
  }));
}

/** Milliseconds from a click on a referrer row until every panel shows the filtered answer. */
async function filterClick(page: Page, index: number): Promise<{ ms: number; source: string }> {
  const source = (await page.getAttribute(`[data-panel=referrers] tbody tr:nth-child(${index}) `, 'data-key'))!;
  const started = await page.evaluate(() => performance.now());
  await page.click(`[data-panel=referrers] tbody tr:nth-child(${index}) button`);
  const condition = encodeURIComponent(JSON.stringify([['is', 'source', [source]]]));
  await page.waitForFunction((want) => {
    const panels = [...document.querySelectorAll('section[data-panel]')];
    return panels.every((p) => p.getAttribute('aria-busy') === 'false' && (p.getAttribute('data-query') ?? '').includes(want));
  }, `filters=${condition}`, { timeout: 300_000, polling: 10 });
  return { ms: (await page.evaluate(() => performance.now())) - started, source };
}

/** The sign-in page's key form (below the people's form, folded): the key, then the post that redirects into the dashboard. */
async function signInWithKey(page: Page): Promise<void> {
  await page.click('summary:has-text("Sign in with an API key instead")');
  await page.fill('#key', KEY);
  await Promise.all([page.waitForURL((url) => url.pathname === '/'), page.click('form[aria-label="Sign in with an API key"] button[type=submit]')]);
}

function apiStats(running: Server, ca: Buffer): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    https.get({ host: '127.0.0.1', port: running.port, path: `/api/v1/stats${VIEW}`, ca, headers: { Authorization: `Bearer ${KEY}` } }, (res) => {
      res.resume().on('end', () => resolve(performance.now() - t));
    }).on('error', reject);
  });
}

async function main() {
  const clickhouse = args.engine === 'clickhouse' ? await clickhouseDatabase() : undefined;
  if (!clickhouse && !args.database) await ensureDatabase();
  const databaseUrl = clickhouse?.url ?? resolve(args.database ? String(args.database) : file);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const { cert: ca } = certificate(join(dir, 'tls'));
  const rows: string[][] = [];
  const stat = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    rows.push([name, String(values.length), ms(percentile(sorted, 50)), ms(sorted[sorted.length - 1]!)]);
  };
  let running: Server | undefined;
  try {
    running = await start(databaseUrl);
    const origin = `https://localhost:${running.port}`;
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The sign-in page: no data read, the same run's floor for a page from this server.
    await page.goto(`${origin}/${VIEW}`);
    const signInFcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    // First dashboard load after the server started: the sign-in post redirects into it.
    await signInWithKey(page);
    const first = await timings(page);
    log(`first load: FCP ${ms(first.fcp)} ms, figures ${ms(first.figures)} ms, all panels ${ms(first.panels)} ms`);
    const cookies = await context.cookies();

    const empty: { fcp: number; figures: number; panels: number }[] = [];
    for (let i = 0; i < num('runs'); i++) {
      const fresh = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
      await fresh.addCookies(cookies);
      const p = await fresh.newPage();
      await p.goto(`${origin}/${VIEW}`);
      empty.push(await timings(p));
      await fresh.close();
    }
    const cached: { fcp: number; figures: number; panels: number }[] = [];
    for (let i = 0; i < num('runs'); i++) {
      await page.reload();
      cached.push(await timings(page));
    }
    const api: number[] = [];
    for (let i = 0; i < num('runs'); i++) api.push(await apiStats(running, ca));

    // A restart: the backend's caches (SQLite's column cache of filtered reads) are empty again.
    await context.close();
    await running.stop();
    running = await start(databaseUrl);
    const again = `https://localhost:${running.port}`;
    const ctx2 = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    const p2 = await ctx2.newPage();
    await p2.goto(`${again}/${VIEW}`);
    await signInWithKey(p2);
    const afterRestart = await timings(p2);
    const coldFilter = await filterClick(p2, 2);
    log(`after a restart: first filtered view (${coldFilter.source}) in ${ms(coldFilter.ms)} ms`);
    await p2.click('.chip button');
    await p2.waitForFunction(() => [...document.querySelectorAll('section[data-panel]')].every((p) => p.getAttribute('aria-busy') === 'false' && !(p.getAttribute('data-query') ?? '').includes('filters=')));
    const warmFilter = await filterClick(p2, 3);
    await ctx2.close();
    await running.stop();
    running = undefined;

    stat('sign-in page FCP (reference: no data)', [signInFcp]);
    stat('API /stats over HTTPS, same query (reference)', api);
    stat('first load after start: FCP', [first.fcp]);
    stat('first load after start: figures shown', [first.figures]);
    stat('first load after start: every panel', [first.panels]);
    stat('empty browser cache: FCP', empty.map((e) => e.fcp));
    stat('empty browser cache: figures shown', empty.map((e) => e.figures));
    stat('empty browser cache: every panel', empty.map((e) => e.panels));
    stat('assets cached (reload): FCP', cached.map((e) => e.fcp));
    stat('assets cached (reload): figures shown', cached.map((e) => e.figures));
    stat('assets cached (reload): every panel', cached.map((e) => e.panels));
    stat('after a restart: first load, figures shown', [afterRestart.figures]);
    stat('after a restart: first load, every panel', [afterRestart.panels]);
    stat(`after a restart: first filter click until every panel is filtered (${clickhouse ? 'Siteline restarted, ClickHouse not' : 'cold column cache'})`, [coldFilter.ms]);
    stat('then another filter click (warm)', [warmFilter.ms]);
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, Chromium ${browser.version()}`;
    const engine = clickhouse ? `clickhouse-server ${await clickhouseVersion(clickhouse.server)}` : 'SQLite';
    const data = args.database ? String(args.database) : args['clickhouse-dir'] ? String(args['clickhouse-dir']) : `${int(num('pageviews'))} pageviews over ${num('days')} days`;
    console.log(`## Dashboard in headless Chromium on ${engine}, ${data} (view ${VIEW}; ms from navigation start; ${machine})\n`);
    console.log(table(['measure', 'runs', 'p50 ms', 'max ms'], rows));
    const worstFigures = Math.max(first.figures, ...empty.map((e) => e.figures), ...cached.map((e) => e.figures));
    const worstFcp = Math.max(first.fcp, ...empty.map((e) => e.fcp), ...cached.map((e) => e.fcp));
    console.log(`\n${table(['target', 'measured', 'met'], [
      ['first paint (FCP) under 1 s on loopback, every load', `${ms(worstFcp)} ms`, worstFcp < 1000 ? 'yes' : 'no'],
      ['figures on screen under 1 s, every load', `${ms(worstFigures)} ms`, worstFigures < 1000 ? 'yes' : 'no'],
    ])}`);
    writeFileSync(join(dir, clickhouse ? 'dashboard-clickhouse.json' : 'dashboard.json'), `${JSON.stringify({ args, signInFcp, api, first, empty, cached, afterRestart, coldFilter, warmFilter }, null, 2)}\n`);
  } finally {
    await running?.stop();
    await browser.close();
    await clickhouse?.server.stop();
  }
}

async function clickhouseVersion(server: TestServer): Promise<string> {
  const reply = await fetch(`${server.url}/?query=${encodeURIComponent('SELECT version()')}`);
  return (await reply.text()).trim();
}

await main();
