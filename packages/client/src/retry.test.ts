import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { backoffDelay, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelay } from './retry.js';
import { apiHandler, KEY, useRealServers } from './test-support.js';

describe('retry timing', () => {
  it('reads Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2026-11-03T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 03 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 03 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off 0.5 s, 1 s, 2 s ... capped at 8 s, minus up to 25 % jitter', () => {
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelay(0, () => 1)).toBe(375);
  });

  it('honours Retry-After up to 30 s and gives up beyond', () => {
    expect(retryDelay(0, '1')).toBe(1000);
    expect(retryDelay(5, String(MAX_RETRY_AFTER_MS / 1000))).toBe(MAX_RETRY_AFTER_MS);
    expect(retryDelay(0, '31')).toBeUndefined();
    expect(retryDelay(1, null)).toBeGreaterThanOrEqual(750);
  });
});

describe('retries against real servers', () => {
  const env = useRealServers();


  it('a 429 with Retry-After: 1 is retried exactly once, after a second', async () => {
    const handler = apiHandler({ storage: env.storage });
    let first = true;
    const server = await env.serve((req, res) => {
      if (!first) return void handler(req, res);
      first = false;
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' }).end('{"error":"Too Many Requests"}');
    }, env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch });
    const started = Date.now();
    expect(await client.live({ site_id: 'ST-alpha' })).toEqual({ live: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.hits).toHaveLength(2);
  });

  it('a dropped connection is retried with backoff', async () => {
    const handler = apiHandler({ storage: env.storage });
    const server = await env.serve((req, res) => (server.hits.length === 1 ? req.socket.destroy() : void handler(req, res)), env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch, maxRetries: 1 });
    expect(await client.live({ site_id: 'ST-alpha' })).toEqual({ live: 1 });
    expect(server.hits).toHaveLength(2);
  });

  it("a caller's abort rejects with its reason, in flight or between retries, and is not retried", async () => {
    const hang = await env.serve(() => {}, env.tls);
    const client = createClient({ baseUrl: hang.baseUrl, apiKey: KEY, fetch: env.fetch });
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(client.live({ site_id: 'ST-alpha' }, { signal: aborted })).rejects.toThrow('stop');
    expect(hang.hits).toHaveLength(0);

    const controller = new AbortController();
    const inFlight = client.live({ site_id: 'ST-alpha' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('changed my mind')), 100);
    await expect(inFlight).rejects.toThrow('changed my mind');
    expect(hang.hits).toHaveLength(1);

    const busy = await env.serve((_req, res) => void res.writeHead(503, { 'Retry-After': '10' }).end('{"error":"busy"}'), env.tls);
    const patient = createClient({ baseUrl: busy.baseUrl, apiKey: KEY, fetch: env.fetch });
    const waiting = new AbortController();
    const retrying = patient.live({ site_id: 'ST-alpha' }, { signal: waiting.signal });
    setTimeout(() => waiting.abort(new Error('too slow')), 200);
    await expect(retrying).rejects.toThrow('too slow');
    expect(busy.hits).toHaveLength(1);
  });
});
