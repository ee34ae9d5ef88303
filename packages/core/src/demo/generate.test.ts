import { describe, expect, it } from 'vitest';
import { parseUserAgent } from '../derive/user-agent.js';
import { parseImportLine } from '../import/line-schema.js';
import { parseQuery } from '../query/parse.js';
import { getCampaigns, getChannels } from '../reports/breakdowns.js';
import { getEvents } from '../reports/events.js';
import { getFunnel } from '../reports/funnels.js';
import { getGoals } from '../reports/goals.js';
import { getProperties } from '../reports/properties.js';
import { getStats, getTimeseries } from '../reports/summary.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { DEVICES } from './catalog.js';
import { addDemoSite, DEMO_DAYS, DEMO_SITE } from './demo-site.js';
import { demoNdjson, type DemoEvent, generateDemoEvents, seasonFactor } from './generate.js';

const DAY = 86_400_000;
const END = Date.parse('2026-06-01T00:00:00Z');
const options = { siteId: 'ST-demo', days: 14, pageviewsPerDay: 500, seed: 7, end: END, timezone: 'Europe/Berlin' };
const events: DemoEvent[] = [...generateDemoEvents(options)];

describe('generateDemoEvents', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const again = [...demoNdjson({ ...options, days: 3 })];
    expect([...demoNdjson({ ...options, days: 3 })]).toEqual(again);
    expect([...demoNdjson({ ...options, days: 3, seed: 8 })]).not.toEqual(again);
  });

  it('writes valid import lines in time order inside [end - days, end)', () => {
    for (const e of events) expect(parseImportLine(JSON.stringify(e))).toMatchObject({ ok: true });
    const times = events.map((e) => Date.parse(e.ts));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(END - 14 * DAY);
    expect(times.at(-1)).toBeLessThan(END);
  });

  it('produces about the requested pageviews, skewed over many pages', () => {
    const views = events.filter((e) => e.type === 'pageview');
    expect(views.length).toBeGreaterThan(14 * 500 * 0.75);
    expect(views.length).toBeLessThan(14 * 500 * 1.25);
    const byPath = new Map<string, number>();
    for (const v of views) {
      const path = new URL(v.url!, 'https://x').pathname;
      byPath.set(path, (byPath.get(path) ?? 0) + 1);
    }
    expect(byPath.size).toBeGreaterThan(50);
    expect(byPath.get('/')! / views.length).toBeGreaterThan(0.08);
  });

  it('mixes referrers, UTM triples, click ids, devices, countries and custom events', () => {
    const hosts = new Set(events.flatMap((e) => (e.referrer ? [new URL(e.referrer).hostname] : [])));
    for (const host of ['www.google.com', 'www.bing.com', 'duckduckgo.com', 'news.ycombinator.com', 'chatgpt.com', 't.co', DEMO_SITE.domain]) {
      expect(hosts).toContain(host);
    }
    const urls = events.map((e) => e.url ?? '');
    expect(urls.some((u) => u.includes('gclid='))).toBe(true);
    expect(urls.some((u) => u.includes('fbclid='))).toBe(true);
    expect(urls.some((u) => u.includes('utm_campaign='))).toBe(true);
    expect(events.some((e) => e.utm_source && e.utm_medium && e.utm_campaign)).toBe(true);
    expect(events.some((e) => e.utm_source && !e.utm_campaign)).toBe(true);
    expect(events.some((e) => e.user_agent)).toBe(true);
    expect(events.some((e) => e.device_type && e.browser && e.os)).toBe(true);
    expect(new Set(events.map((e) => e.country_code)).size).toBeGreaterThanOrEqual(18);
    expect(new Set(events.filter((e) => e.type === 'event').map((e) => e.name))).toEqual(
      new Set(['signup', 'download', 'outbound', 'newsletter_subscribe', 'cta_click']),
    );
  });

  it('gives most custom events a few properties with skewed values, and pageviews none', () => {
    const events = [...generateDemoEvents({ ...options, days: 7, pageviewsPerDay: 800 })];
    const custom = events.filter((e) => e.type === 'event');
    expect(events.filter((e) => e.type === 'pageview').every((e) => e.props === undefined)).toBe(true);
    expect(custom.filter((e) => e.props).length / custom.length).toBeGreaterThan(0.9);
    const plans = custom.filter((e) => e.name === 'signup').map((e) => e.props?.plan);
    const share = (plan: string) => plans.filter((p) => p === plan).length / plans.length;
    expect(share('free')).toBeGreaterThan(share('pro'));
    expect(share('pro')).toBeGreaterThan(share('enterprise'));
    expect(custom.every((e) => !e.props || Object.keys(e.props).length <= 3)).toBe(true);
  });

  it('walks some visitors on from the pricing page to the signup page and from the docs to the download page', () => {
    const views = events.filter((e) => e.type === 'pageview').map((e) => ({ visitor: e.visitor_id, path: new URL(e.url!, 'https://x').pathname }));
    const next = new Map<string, number>();
    const seen = new Map<string, string>();
    for (const { visitor, path } of views) {
      const before = seen.get(visitor);
      if (before) next.set(`${before.startsWith('/docs') ? '/docs*' : before} ${path}`, (next.get(`${before.startsWith('/docs') ? '/docs*' : before} ${path}`) ?? 0) + 1);
      seen.set(visitor, path);
    }
    const share = (from: string, to: string) => (next.get(`${from} ${to}`) ?? 0) / [...next].filter(([k]) => k.startsWith(`${from} `)).reduce((n, [, c]) => n + c, 0);
    // About 30 % and 25 % (WALKS), far above what the page draw alone gives (a few percent).
    expect(share('/pricing', '/signup')).toBeGreaterThan(0.2);
    expect(share('/docs*', '/download')).toBeGreaterThan(0.15);
    expect(share('/blog', '/signup')).toBeLessThan(0.1);
  });

  it('gives user agents that parse to the same fields it writes explicitly', () => {
    for (const [device] of DEVICES) {
      expect(parseUserAgent(device.userAgent)).toEqual({ deviceType: device.deviceType, browser: device.browser, os: device.os });
    }
  });

  it('shapes a year by season when asked: each month\'s weight at mid-month, straight lines between', () => {
    expect(seasonFactor('2026-01-15')).toBe(1.12);
    expect(seasonFactor('2026-08-15')).toBe(0.8);
    // 1 February lies half-way between 15 January and 15 February (14 of February's 28 days before the 15th).
    expect(seasonFactor('2026-02-01')).toBeCloseTo(1.11, 12);
    // Early January runs back from mid-December's 1.06: 1 January is 14/31 of a month before 15 January.
    expect(seasonFactor('2026-01-01')).toBeCloseTo(1.12 - (14 / 31) * 0.06, 12);
    const year = { ...options, days: 364, pageviewsPerDay: 40, end: Date.parse('2026-12-31T00:00:00Z'), seasonal: true };
    const views = (month: string, seasonal: boolean) =>
      [...generateDemoEvents({ ...year, seasonal })].filter((e) => e.type === 'pageview' && e.ts.startsWith(month)).length;
    // January against August, with the season over without: about 1.12 / 0.8 = 1.4 (the growth trend cancels out).
    const ratio = (seasonal: boolean) => views('2026-01', seasonal) / views('2026-08', seasonal);
    expect(ratio(true) / ratio(false)).toBeGreaterThan(1.25);
    expect(ratio(true) / ratio(false)).toBeLessThan(1.55);
  });

  it('rejects nonsense options', () => {
    expect(() => generateDemoEvents({ ...options, days: 0 }).next()).toThrow(RangeError);
    expect(() => generateDemoEvents({ ...options, pageviewsPerDay: -1 }).next()).toThrow(RangeError);
  });
});

describe('addDemoSite', () => {
  it('creates ST-demo with 90 days of data every report can show, so that each of three 30-day periods has traffic to compare', async () => {
    const storage = createSqliteStorage(':memory:');
    const now = Date.parse('2026-06-15T10:00:00Z');
    const { site, summary } = await addDemoSite(storage, { now, pageviewsPerDay: 150 });
    expect(site).toMatchObject(DEMO_SITE);
    expect(DEMO_DAYS).toBe(90);
    expect(summary.pageviews).toBeGreaterThan(90 * 150 * 0.75);
    // The default view (30 days to 2026-06-15) against the previous 30 days, and the 30 days before those (Berlin days).
    const compared = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo', compare: 'previous_period' }), { now });
    expect(compared.visitors).toBeGreaterThan(0);
    expect('comparison' in compared && compared.comparison.from).toBe('2026-04-17');
    expect('comparison' in compared && compared.comparison.visitors).toBeGreaterThan(compared.visitors * 0.7);
    const first = await getStats(storage, parseQuery('stats', { site_id: 'ST-demo', from: '2026-03-18', to: '2026-04-16' }), { now });
    expect(first.pageviews).toBeGreaterThan(30 * 150 * 0.6);
    // Nothing before the 90 days: the day before they start (17 March 10:00 UTC is 11:00 in Berlin) has none.
    expect((await getStats(storage, parseQuery('stats', { site_id: 'ST-demo', from: '2026-03-16', to: '2026-03-16' }), { now })).pageviews).toBe(0);
    const query = (endpoint: 'stats' | 'timeseries' | 'channels' | 'campaigns' | 'events') => parseQuery(endpoint, { site_id: 'ST-demo' });
    const stats = await getStats(storage, query('stats'), { now });
    expect(stats.visitors).toBeGreaterThan(0);
    expect(stats.bounce_rate).toBeGreaterThan(20);
    expect(stats.bounce_rate).toBeLessThan(80);
    const { timeseries } = await getTimeseries(storage, query('timeseries'), { now });
    expect(timeseries.filter((d) => d.pageviews > 0).length).toBeGreaterThanOrEqual(29);
    const { channels } = await getChannels(storage, query('channels'), { now });
    expect(channels.map((c) => c.channel)).toEqual(expect.arrayContaining(['Direct', 'Organic Search', 'Paid Search', 'Social', 'Email', 'Referral', 'AI Assistants']));
    const { campaigns } = await getCampaigns(storage, query('campaigns'), { now });
    expect(campaigns.length).toBeGreaterThan(0);
    expect(campaigns.every((c) => c.source && c.medium && c.campaign)).toBe(true);
    expect((await getEvents(storage, query('events'), { now })).events.length).toBe(5);
    // Goals and properties: the quick start shows them.
    const { goals } = await getGoals(storage, parseQuery('goals', { site_id: 'ST-demo' }), { now });
    expect(goals.map((g) => g.goal).sort()).toEqual(['Visit /docs/*', 'Visit /pricing', 'download', 'signup']);
    expect(goals.every((g) => g.visitors > 0 && g.conversions >= g.visitors && g.conversion_rate > 0)).toBe(true);
    const plans = await getProperties(storage, parseQuery('properties', { site_id: 'ST-demo', name: 'signup', property: 'plan' }), { now });
    expect('values' in plans && plans.values[0]!.value).toBe('free');
    // The two demo funnels: the traffic walks them, so every step has visitors, fewer at each.
    for (const name of ['Pricing to signup', 'Docs to download']) {
      const { steps } = await getFunnel(storage, parseQuery('funnels', { site_id: 'ST-demo', funnel: name }), { now });
      expect([name, steps.every((step, i) => step.visitors > 0 && (i === 0 || step.visitors < steps[i - 1]!.visitors))]).toEqual([name, true]);
    }
    await expect(addDemoSite(storage, { now })).rejects.toThrow('already exists');
    await storage.close();
  });
});
