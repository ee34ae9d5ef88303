import { describe, expect, it } from 'vitest';
import { UnsupportedQueryError } from '../errors.js';
import { addFunnel, listFunnels } from '../funnels/funnels.js';
import { addGoal } from '../goals/goals.js';
import { parseQuery } from '../query/parse.js';
import { createSite } from '../sites/sites.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { Storage } from '../storage/types.js';
import { REPORTS } from './index.js';

describe('a storage without an optional part of the contract', () => {
  it('refuses filters and interval=hour with an error instead of unfiltered or empty numbers', async () => {
    const sqlite = createSqliteStorage(':memory:');
    await createSite(sqlite, { id: 'ST-a', name: 'A' });
    const plain: Storage = { ...sqlite, capabilities: undefined, hourBuckets: undefined };
    const filtered = parseQuery('stats', { site_id: 'ST-a', filters: '[["is","country",["DE"]]]' });
    await expect(REPORTS.stats(plain, filtered)).rejects.toThrow(new UnsupportedQueryError('The sqlite storage does not implement filters (Storage.capabilities.selection).'));
    const hours = parseQuery('timeseries', { site_id: 'ST-a', interval: 'hour', period: '1d' });
    await expect(REPORTS.timeseries(plain, hours)).rejects.toBeInstanceOf(UnsupportedQueryError);
    // What needs no optional part still works: an empty filter list, compare, week buckets.
    expect(await REPORTS.stats(plain, parseQuery('stats', { site_id: 'ST-a', filters: '[]', compare: 'previous_period', from: '2026-11-01', to: '2026-11-01' }))).toEqual({
      visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0,
      comparison: { from: '2026-10-31', to: '2026-10-31', visitors: 0, pageviews: 0, sessions: 0, bounce_rate: 0, avg_duration: 0 },
    });
    await sqlite.close();
  });

  it('refuses /properties, /goals, prop: and goal filters and goal management without capabilities.properties and .goals', async () => {
    const sqlite = createSqliteStorage(':memory:');
    await createSite(sqlite, { id: 'ST-a', name: 'A' });
    const older: Storage = { ...sqlite, capabilities: { selection: true } };
    const refused = (what: string, capability: string) => new UnsupportedQueryError(`The sqlite storage does not implement ${what} (Storage.capabilities.${capability}).`);
    await expect(REPORTS.properties(older, parseQuery('properties', { site_id: 'ST-a', name: 'Signup' }))).rejects.toThrow(refused('properties', 'properties'));
    await expect(REPORTS.goals(older, parseQuery('goals', { site_id: 'ST-a' }))).rejects.toThrow(refused('goals', 'goals'));
    await expect(REPORTS.stats(older, parseQuery('stats', { site_id: 'ST-a', filters: '[["is","prop:plan",["pro"]]]' }))).rejects.toThrow(refused('prop: filters', 'properties'));
    await expect(REPORTS.events(older, parseQuery('events', { site_id: 'ST-a', filters: '[["is","goal",["Signup"]]]' }))).rejects.toThrow(refused('goals', 'goals'));
    await expect(addGoal(older, 'ST-a', { type: 'event', value: 'Signup' })).rejects.toThrow(refused('goals', 'goals'));
    // The rest still works on it.
    expect(await REPORTS.stats(older, parseQuery('stats', { site_id: 'ST-a', filters: '[["is","event",["Signup"]]]', from: '2026-11-01', to: '2026-11-01' }))).toMatchObject({ sessions: 0 });
    await sqlite.close();
  });

  it('refuses /funnels and funnel management without capabilities.funnels, before looking the funnel up', async () => {
    const sqlite = createSqliteStorage(':memory:');
    await createSite(sqlite, { id: 'ST-a', name: 'A' });
    const older: Storage = { ...sqlite, capabilities: { selection: true, properties: true, goals: true } };
    const refused = new UnsupportedQueryError('The sqlite storage does not implement funnels (Storage.capabilities.funnels).');
    await expect(REPORTS.funnels(older, parseQuery('funnels', { site_id: 'ST-a', steps: '[{"page":"/a"},{"page":"/b"}]' }))).rejects.toThrow(refused);
    await expect(REPORTS.funnels(older, parseQuery('funnels', { site_id: 'ST-a', funnel: 'Nope' }))).rejects.toThrow(refused);
    await expect(addFunnel(older, 'ST-a', { name: 'F', steps: [{ page: '/a' }, { page: '/b' }] })).rejects.toThrow(refused);
    await expect(listFunnels(older, 'ST-a')).rejects.toThrow(refused);
    // Declaring it without the read is refused too, never answered with zeros.
    const half: Storage = { ...sqlite, funnelVisitors: undefined };
    await expect(REPORTS.funnels(half, parseQuery('funnels', { site_id: 'ST-a', steps: '[{"page":"/a"},{"page":"/b"}]' }))).rejects.toBeInstanceOf(UnsupportedQueryError);
    await sqlite.close();
  });
});
