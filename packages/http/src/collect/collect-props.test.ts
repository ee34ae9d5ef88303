import { createSite, getProperties, parseQuery, PROPS_MESSAGES } from '@siteline/core';
import { afterEach, describe, expect, it } from 'vitest';
import { COLLECT_MESSAGES, MAX_BODY_BYTES } from './payload.js';
import { startCollector, type TestCollector } from './test-helpers.js';

const NOW = Date.parse('2026-11-01T10:00:00Z');
const event = (props: unknown, name = 'Signup') => ({ site_id: 'ST-blog', type: 'event', name, url: 'https://blog.example/pricing', referrer: '', props });
const stored = (c: TestCollector) =>
  c.db.prepare('SELECT type, name, props FROM events ORDER BY ts, seq').all() as { type: number; name: string; props: string | null }[];

describe.each([
  { mode: 'in the request thread', worker: false },
  { mode: 'on the worker thread', worker: true },
])('POST /collect with props (properties-goals.md section 1), $mode', ({ worker }) => {
  let c: TestCollector;
  afterEach(() => c.close());

  it('stores a custom event\'s props exactly; numbers and booleans as String() writes them; null and \'\' dropped', async () => {
    c = await startCollector({ now: () => NOW, worker, batch: { maxEvents: 100 } });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example' });
    const props = { plan: 'Pro ', seats: 3, ratio: 0.5, trial: false, coupon: null, note: '', 'ключ "q"': 'значение\n\\' };
    expect((await c.beacon(event(props))).status).toBe(202);
    expect((await c.beacon(event(null))).status).toBe(202);
    expect((await c.beacon(event(undefined, 'Download'))).status).toBe(202);
    // A pageview's props are accepted and ignored, even when they would be an error on an event.
    expect((await c.beacon({ ...event('not an object'), type: 'pageview', name: undefined })).status).toBe(202);
    await c.handler.flush();
    expect(stored(c)).toEqual([
      { type: 1, name: 'Signup', props: JSON.stringify([['plan', 'Pro '], ['seats', '3'], ['ratio', '0.5'], ['trial', 'false'], ['ключ "q"', 'значение\n\\']]) },
      { type: 1, name: 'Signup', props: null },
      { type: 1, name: 'Download', props: null },
      { type: 0, name: '', props: null },
    ]);
    const { values } = (await getProperties(c.storage, parseQuery('properties', { site_id: 'ST-blog', period: '1d', name: 'Signup', property: 'seats' }), { now: NOW })) as {
      values: unknown[];
    };
    expect(values).toEqual([{ value: '3', count: 1, visitors: 1 }]);
  });

  it('answers 400 with the rule\'s message and stores nothing for props that break a rule', async () => {
    c = await startCollector({ now: () => NOW, worker, batch: { maxEvents: 100 } });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example' });
    expect(COLLECT_MESSAGES.props).toBe('The props field must be an object of at most 30 properties.');
    expect(COLLECT_MESSAGES.property).toBe('Each property needs a name of 1 to 300 characters and a string, number or boolean value of at most 2000 characters.');
    const cases: [unknown, string][] = [
      [['plan', 'pro'], PROPS_MESSAGES.shape],
      ['plan=pro', PROPS_MESSAGES.shape],
      [Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, null])), PROPS_MESSAGES.shape],
      [{ '': 'x' }, PROPS_MESSAGES.entry],
      [{ ['k'.repeat(301)]: 'x' }, PROPS_MESSAGES.entry],
      [{ plan: 'v'.repeat(2001) }, PROPS_MESSAGES.entry],
      [{ plan: { tier: 'pro' } }, PROPS_MESSAGES.entry],
      [{ plan: ['pro'] }, PROPS_MESSAGES.entry],
    ];
    for (const [props, message] of cases) {
      const reply = await c.beacon(event(props));
      expect([reply.status, JSON.parse(reply.body)]).toEqual([400, { error: message }]);
    }
    await c.handler.flush();
    expect(stored(c)).toEqual([]);
    expect(c.handler.stats.totals().invalid).toBe(cases.length);
  });

  it('takes the largest props within the limits (30 keys of 300, values of 2,000 characters, 3 UTF-8 bytes each)', async () => {
    c = await startCollector({ now: () => NOW, worker, batch: { maxEvents: 100 } });
    await createSite(c.storage, { id: 'ST-blog', name: 'Blog', domain: 'blog.example' });
    const largest = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${String(i).padStart(2, '0')}${'ключ'.repeat(75)}`.slice(0, 300), '€'.repeat(2000)]));
    const body = JSON.stringify(event(largest));
    expect(Buffer.byteLength(body)).toBeGreaterThan(180_000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect((await c.beacon(body)).status).toBe(202);
    await c.handler.flush();
    expect(JSON.parse(stored(c)[0]!.props!)).toEqual(Object.entries(largest));
  });
});
