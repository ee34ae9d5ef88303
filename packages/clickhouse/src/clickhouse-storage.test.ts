import { createSite, parseQuery, REPORTS, type StoredEvent } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterCases } from './testing/adapter-cases.js';
import { funnelVisitorCases } from './testing/funnel-visitor-cases.js';
import { goalVisitorCases } from './testing/goal-visitor-cases.js';
import { propertyCountCases } from './testing/property-count-cases.js';
import { createClickHouseStorage, type ClickHouseStorage } from './clickhouse-storage.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from './testing/test-server.js';

warnIfUnavailable('ClickHouse adapter on one server');

describe.skipIf(!clickhouseAvailable)('ClickHouse adapter, one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startClickHouse();
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Visitor counts come from builds for settled days and from raw rows for hot ones: both paths run the same cases.
  // 2030: every day of the data is settled (built at the first read). 2026-11-03 04:00Z: 11-03 and 11-02 are
  // hot for the UTC sites (read raw), 11-01 is built.
  describe.each([
    ['every day settled', 'adapter_cases', '2030-01-01T00:00:00Z'],
    ['11-02 and 11-03 hot', 'adapter_cases_hot', '2026-11-03T04:00:00Z'],
  ])('%s', (_name, database, now) => {
    let storage: ClickHouseStorage;
    beforeAll(async () => {
      storage = createClickHouseStorage({ url: server.url, database, now: () => Date.parse(now) });
      await storage.migrate();
      await storage.migrate(); // idempotent
    });
    afterAll(async () => {
      await storage?.close();
    });
    adapterCases(() => storage);
  });

  goalVisitorCases((database, now) => createClickHouseStorage({ url: server.url, database, now }));
  funnelVisitorCases((database, now) => createClickHouseStorage({ url: server.url, database, now }));
  propertyCountCases((database, now) => createClickHouseStorage({ url: server.url, database, now }));

  it('records exactly the sessions whose stored events carry other attributes than theirs (stale_sessions), and filters them by their own', async () => {
    const storage = createClickHouseStorage({ url: server.url, database: 'stale_cases' });
    await storage.migrate();
    await createSite(storage, { id: 'ST-stale', name: 'Stale', timezone: 'UTC' });
    let seq = 0;
    const pv = (session: string, time: string, stamp: Partial<StoredEvent> = {}): StoredEvent => ({
      siteId: 'ST-stale', sessionId: session, visitorId: `v-${session}`, ts: Date.parse(`2026-11-02T${time}Z`), day: '2026-11-02', seq: ++seq,
      type: 'pageview', name: '', path: '/b', entryPath: '/b', referrerSource: '', channel: 'Direct', utmSource: '', utmMedium: '', utmCampaign: '',
      countryCode: 'DE', deviceType: 'Desktop', browser: 'Firefox', os: 'Linux', ...stamp,
    });
    // A: two writes, one stamp. B: one write, its second event stamped AT. C: an earlier event arrives later with
    // the same stamp (the start moves, the attributes do not). D: an earlier event from AT arrives later.
    await storage.writeEvents([pv('A', '10:00:00'), pv('B', '10:00:00'), pv('B', '10:05:00', { countryCode: 'AT' }), pv('C', '10:00:00'), pv('D', '10:00:00')]);
    await storage.writeEvents([pv('A', '10:10:00'), pv('C', '09:55:00'), pv('D', '09:50:00', { countryCode: 'AT', entryPath: '/a', path: '/a' })]);
    const stale = await storage.client.query({ query: "SELECT DISTINCT session_id FROM stale_cases.stale_sessions WHERE site_id = 'ST-stale' ORDER BY session_id", format: 'JSONEachRow' });
    expect(await stale.json()).toEqual([{ session_id: 'B' }, { session_id: 'D' }]);
    // DE: A, B and C (B's first event is from DE), 2 pageviews each; AT: D alone, not B's second pageview.
    const stats = (country: string) => REPORTS.stats(storage, parseQuery('stats', { site_id: 'ST-stale', from: '2026-11-02', to: '2026-11-02', filters: JSON.stringify([['is', 'country', [country]]]) }));
    expect(await stats('DE')).toEqual({ visitors: 3, pageviews: 6, sessions: 3, bounce_rate: 0, avg_duration: 400 });
    expect(await stats('AT')).toEqual({ visitors: 1, pageviews: 2, sessions: 1, bounce_rate: 0, avg_duration: 600 });
    await storage.close();
  });

  it('creates exactly the documented tables', async () => {
    const storage = createClickHouseStorage({ url: server.url, database: 'adapter_cases' });
    const result = await storage.client.query({
      query: "SELECT name, engine FROM system.tables WHERE database = 'adapter_cases' ORDER BY name",
      format: 'JSONEachRow',
    });
    expect(await result.json()).toEqual([
      { name: 'accounts', engine: 'MergeTree' },
      { name: 'api_key_revocations', engine: 'MergeTree' },
      { name: 'api_key_uses', engine: 'ReplacingMergeTree' },
      { name: 'api_keys', engine: 'MergeTree' },
      { name: 'custom_events', engine: 'MergeTree' },
      { name: 'day_marks', engine: 'SummingMergeTree' },
      { name: 'day_totals', engine: 'SummingMergeTree' },
      { name: 'dim_totals', engine: 'SummingMergeTree' },
      { name: 'event_totals', engine: 'SummingMergeTree' },
      { name: 'events', engine: 'MergeTree' },
      { name: 'events_custom_mv', engine: 'MaterializedView' },
      { name: 'events_names_mv', engine: 'MaterializedView' },
      { name: 'events_pages_mv', engine: 'MaterializedView' },
      { name: 'events_totals_mv', engine: 'MaterializedView' },
      { name: 'funnels', engine: 'ReplacingMergeTree' },
      { name: 'goals', engine: 'ReplacingMergeTree' },
      { name: 'imported_datasets', engine: 'ReplacingMergeTree' },
      { name: 'imported_rows', engine: 'MergeTree' },
      { name: 'imports', engine: 'MergeTree' },
      { name: 'key_sessions', engine: 'MergeTree' },
      { name: 'page_totals', engine: 'SummingMergeTree' },
      { name: 'pageview_gaps', engine: 'SummingMergeTree' },
      { name: 'pageview_gaps_mv', engine: 'MaterializedView' },
      { name: 'property_counts', engine: 'MergeTree' },
      { name: 'recovery_uses', engine: 'MergeTree' },
      { name: 'report_sends', engine: 'MergeTree' },
      { name: 'report_subscriptions', engine: 'ReplacingMergeTree' },
      { name: 'salts', engine: 'MergeTree' },
      { name: 'schema_migrations', engine: 'MergeTree' },
      { name: 'session_state', engine: 'ReplacingMergeTree' },
      { name: 'sessions', engine: 'CollapsingMergeTree' },
      { name: 'sessions_dims_mv', engine: 'MaterializedView' },
      { name: 'sessions_state_mv', engine: 'MaterializedView' },
      { name: 'sessions_totals_mv', engine: 'MaterializedView' },
      { name: 'shared_links', engine: 'ReplacingMergeTree' },
      { name: 'sign_ins', engine: 'MergeTree' },
      { name: 'sites', engine: 'ReplacingMergeTree' },
      { name: 'stale_sessions', engine: 'ReplacingMergeTree' },
      { name: 'totp_steps', engine: 'MergeTree' },
      { name: 'user_changes', engine: 'ReplacingMergeTree' },
      { name: 'user_link_uses', engine: 'MergeTree' },
      { name: 'user_links', engine: 'MergeTree' },
      { name: 'users', engine: 'ReplacingMergeTree' },
      { name: 'value_breakdowns', engine: 'MergeTree' },
      { name: 'value_goals', engine: 'MergeTree' },
      { name: 'value_pages', engine: 'MergeTree' },
      { name: 'visitor_rollups', engine: 'MergeTree' },
      { name: 'web_sessions', engine: 'ReplacingMergeTree' },
    ]);
    // Version 4: a custom event's properties as two parallel arrays on its events row.
    const columns = await storage.client.query({
      query: "SELECT name, type FROM system.columns WHERE database = 'adapter_cases' AND table = 'events' AND name LIKE 'prop%' ORDER BY name",
      format: 'JSONEachRow',
    });
    expect(await columns.json()).toEqual([{ name: 'prop_keys', type: 'Array(String)' }, { name: 'prop_values', type: 'Array(String)' }]);
    // Version 6: each session state's pageview paths and custom event names.
    const arrays = await storage.client.query({
      query: "SELECT name, type FROM system.columns WHERE database = 'adapter_cases' AND table = 'sessions' AND name IN ('paths', 'names') ORDER BY name",
      format: 'JSONEachRow',
    });
    expect(await arrays.json()).toEqual([{ name: 'names', type: 'Array(String)' }, { name: 'paths', type: 'Array(String)' }]);
    // Version 9: custom_events holds every custom event of events (the cases above wrote some), and nothing else.
    const copies = await storage.client.query({
      query: `SELECT (SELECT count() FROM adapter_cases.events WHERE type = 'event') AS events, (SELECT count() FROM adapter_cases.custom_events) AS copies,
        (SELECT countIf(type = 'event') FROM adapter_cases.custom_events) AS custom`,
      format: 'JSONEachRow',
    });
    const [kept] = await copies.json<{ events: string; copies: string; custom: string }>();
    expect(Number(kept!.events)).toBeGreaterThan(0);
    expect([kept!.copies, kept!.custom]).toEqual([kept!.events, kept!.events]);
    await storage.close();
  });

  it('refuses bad options before touching the server', () => {
    expect(() => createClickHouseStorage({ url: server.url, database: 'x; DROP DATABASE y' })).toThrow(TypeError);
    expect(() => createClickHouseStorage({ url: server.url, cluster: 'a`b' })).toThrow(TypeError);
    expect(() => createClickHouseStorage({ url: server.url, maxSessionDays: -1 })).toThrow(TypeError);
    expect(() => createClickHouseStorage({})).toThrow(TypeError);
  });
});
