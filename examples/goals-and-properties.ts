/**
 * Custom event properties and goals with the core directly: import events that carry
 * `props`, add an event goal and a page goal, then read signups by plan, the goals'
 * conversion rates, and the stats of the sessions that converted.
 *
 * Run: npx tsx examples/goals-and-properties.ts
 */
import { addGoal, createSite, createSqliteStorage, getGoals, getProperties, getStats, importEvents, parseQuery, type Storage } from '@siteline/core';

/** The example's store with its events and goals: five visitors, three signups, two thank-you pages. */
export async function exampleStore(): Promise<Storage> {
  const storage = createSqliteStorage(':memory:');
  await createSite(storage, { id: 'ST-shop', name: 'Shop', timezone: 'UTC' });
  const line = (visitor: string, minute: number, fields: object) =>
    JSON.stringify({ site_id: 'ST-shop', visitor_id: visitor, ts: `2026-11-02T10:0${minute}:00Z`, type: 'pageview', ...fields });
  await importEvents(storage, [
    line('a', 0, { url: '/pricing' }),
    line('a', 1, { type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'pro', seats: 5 } }),
    line('a', 2, { url: '/thanks' }),
    line('b', 0, { url: '/pricing' }),
    line('b', 1, { type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'free' } }),
    line('c', 0, { url: '/pricing' }),
    line('c', 1, { type: 'event', name: 'Signup', url: '/pricing', props: { plan: 'pro' } }),
    line('c', 2, { url: '/thanks/' }),
    line('d', 0, { url: '/' }),
    line('e', 0, { url: '/blog' }),
  ]);
  await addGoal(storage, 'ST-shop', { type: 'event', value: 'Signup' });
  await addGoal(storage, 'ST-shop', { type: 'page', value: '/thanks*' }); // shown as "Visit /thanks*"
  return storage;
}

/** What the example prints: signups by plan, the goals, and the visitors who reached a thank-you page. */
export async function report(storage: Storage) {
  const day = { site_id: 'ST-shop', from: '2026-11-02', to: '2026-11-02' };
  return {
    plans: await getProperties(storage, parseQuery('properties', { ...day, name: 'Signup', property: 'plan' })),
    goals: await getGoals(storage, parseQuery('goals', day)),
    thanked: await getStats(storage, parseQuery('stats', { ...day, filters: JSON.stringify([['is', 'goal', ['Visit /thanks*']]]) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const storage = await exampleStore();
  console.log(JSON.stringify(await report(storage), null, 2));
  await storage.close();
}
