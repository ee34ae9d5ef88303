/**
 * Using the core directly inside your own back end: no HTTP at all.
 *
 * Run: npx tsx examples/core-direct.ts
 */
import { createSite, createSqliteStorage, getPages, getStats, importEvents, parseQuery } from '@siteline/core';

const storage = createSqliteStorage(':memory:');
await createSite(storage, { id: 'ST-example', name: 'Example', timezone: 'Europe/Berlin' });
await importEvents(storage, [
  '{"site_id":"ST-example","ts":"2026-11-02T10:00:00Z","type":"pageview","url":"/","visitor_id":"a"}',
  '{"site_id":"ST-example","ts":"2026-11-02T10:01:00Z","type":"pageview","url":"/pricing","visitor_id":"a"}',
]);
const query = parseQuery('stats', { site_id: 'ST-example', from: '2026-11-02', to: '2026-11-02' });
console.log(await getStats(storage, query));
console.log(await getPages(storage, parseQuery('pages', { site_id: 'ST-example', from: '2026-11-02', to: '2026-11-02', limit: '5' })));
await storage.close();
