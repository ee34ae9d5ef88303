import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import {
  APIError,
  ConnectionError,
  ForbiddenError,
  makeError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SitelineError,
  STATUS_ERRORS,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors.js';
import { apiHandler, closedPort, KEY, useRealServers } from './test-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('makeError', () => {
  const headers = new Headers({ 'X-Request-Id': 'req-1', 'Retry-After': '7' });

  it('maps each status to its class, >= 500 to ServerError, the rest to APIError', () => {
    for (const [status, Class] of Object.entries(STATUS_ERRORS)) expect(makeError(Number(status), {}, headers)).toBeInstanceOf(Class);
    expect(makeError(503, {}, headers)).toBeInstanceOf(ServerError);
    const other = makeError(405, { error: 'Method Not Allowed' }, headers);
    expect(other.constructor).toBe(APIError);
    expect(APIError.from(404, {}, headers)).toBeInstanceOf(NotFoundError);
  });

  it('takes the message from the body, the request id and Retry-After from the headers', () => {
    const error = makeError(429, { error: 'Too Many Requests' }, headers) as RateLimitError;
    expect(error).toMatchObject({ name: 'RateLimitError', status: 429, message: 'Too Many Requests', requestId: 'req-1', retryAfter: 7 });
    expect(error).toBeInstanceOf(SitelineError);
    expect(makeError(502, '<html>', new Headers()).message).toBe('HTTP 502 without an error message');
    expect(makeError(502, undefined, new Headers()).requestId).toBeUndefined();
  });
});

describe('errors from the real handler', () => {
  const env = useRealServers();
  const alpha = { site_id: 'ST-alpha', from: '2026-11-02', to: '2026-11-03' };


  it('401 UnauthorizedError for a wrong key, 404 NotFoundError, 422 ValidationError with the exact message', async () => {
    const server = await env.serve(apiHandler({ storage: env.storage }), env.tls);
    const wrong = createClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key', fetch: env.fetch });
    const error = await wrong.stats(alpha).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, message: 'Unauthorized', requestId: expect.stringMatching(UUID) });
    expect((error as APIError).headers.get('www-authenticate')).toBe('Bearer');

    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch });
    await expect(client.stats({ site_id: 'ST-nope' })).rejects.toThrow(NotFoundError);
    await expect(client.stats({ site_id: 'ST-nope' })).rejects.toMatchObject({ status: 404, message: 'Site not found.' });
    const invalid = client.stats({ site_id: 'ST-alpha', from: '2026-11-03', to: '2026-11-02' });
    await expect(invalid).rejects.toThrow(ValidationError);
    await expect(client.pages({ site_id: 'ST-alpha', limit: 101 })).rejects.toMatchObject({
      status: 422,
      message: 'The limit field must be between 1 and 100.',
    });
  });

  it('422 is final: no retry', async () => {
    const server = await env.serve(apiHandler({ storage: env.storage }), env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch, maxRetries: 2 });
    await expect(client.stats({ site_id: '' })).rejects.toMatchObject({ status: 422, message: 'The site_id field is required.' });
    expect(server.hits).toHaveLength(1);
  });

  it('403 ForbiddenError when the server is reached over plain HTTP (loopback allowed explicitly)', async () => {
    const server = await env.serve(apiHandler({ storage: env.storage }));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, allowInsecureLoopback: true });
    await expect(client.stats(alpha)).rejects.toThrow(ForbiddenError);
    await expect(client.stats(alpha)).rejects.toMatchObject({ status: 403, message: 'HTTPS is required.' });
  });

  it('429 RateLimitError with retryAfter; a wait over 30 s is thrown at once, not slept', async () => {
    // The handler's clock sits on a minute boundary: the first request counts until its 0.5 s slot
    // of the sliding window is 60.5 s old, so the second is told to retry after 61 s.
    const server = await env.serve(apiHandler({ storage: env.storage, rateLimit: { limit: 1, windowMs: 60_000 } }), env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch, maxRetries: 2 });
    await client.live({ site_id: 'ST-alpha' });
    const started = Date.now();
    const error = await client.live({ site_id: 'ST-alpha' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, message: 'Too Many Requests', retryAfter: 61 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.hits).toHaveLength(2);
  });

  it('500 ServerError when storage fails, retried maxRetries times', async () => {
    const failing = new Proxy(env.storage, {
      get(target, prop) {
        if (prop === 'summary') return () => Promise.reject(new Error('disk on fire'));
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const server = await env.serve(apiHandler({ storage: failing }), env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch, maxRetries: 1 });
    const error = await client.stats(alpha).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, message: 'Server Error', requestId: expect.stringMatching(UUID) });
    expect(server.hits).toHaveLength(2);
    expect(await client.live({ site_id: 'ST-alpha' })).toEqual({ live: 1 });
  });

  it('ConnectionError when nothing listens', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `https://127.0.0.1:${port}/api/v1`, apiKey: KEY, maxRetries: 0 });
    const error = await client.stats(alpha).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).cause).toBeDefined();
  });

  it('TimeoutError when the server never answers, not retried', async () => {
    const server = await env.serve(() => {}, env.tls);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: env.fetch, timeoutMs: 200, maxRetries: 2 });
    const error = await client.stats(alpha).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('No response within 200 ms.');
    expect(server.hits).toHaveLength(1);
  });
});
