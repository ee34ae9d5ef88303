import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type TestDashboard } from './test-helpers.js';

/** The sign-in `Origin` check with `PUBLIC_URL` set, as `siteline start` now sets it. */
describe('sign-in Origin with a configured public origin', () => {
  let t: TestDashboard;
  beforeAll(async () => {
    t = await startDashboard({ dashboard: { publicOrigin: 'https://stats.example.com' } });
  });
  afterAll(() => t?.close());

  const post = (origin: string) =>
    t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ key: t.key, view: '' }).toString(),
    });

  it('accepts the public origin and the address the request was sent to; refuses every other origin', async () => {
    expect((await post('https://stats.example.com')).status).toBe(303);
    expect((await post(t.origin)).status).toBe(303); // https://127.0.0.1:<port>, the Host of these requests
    for (const other of ['https://evil.example', 'https://stats.example.com.evil.example', t.origin.replace('https:', 'http:'), 'null']) {
      const reply = await post(other);
      expect([other, reply.status, reply.headers['set-cookie']]).toEqual([other, 403, undefined]);
    }
  });
});
