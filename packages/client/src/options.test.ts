import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.js';
import { SitelineError } from './errors.js';
import { buildUrl } from './request.js';

const apiKey = 'k'.repeat(40);

describe('createClient options', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('refuses http:// base URLs, except loopback when allowed explicitly', () => {
    expect(() => createClient({ baseUrl: 'http://analytics.example.com/api/v1', apiKey })).toThrow(/must use https:\/\//);
    expect(() => createClient({ baseUrl: 'http://analytics.example.com/api/v1', apiKey, allowInsecureLoopback: true })).toThrow(SitelineError);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:8080/api/v1', apiKey })).toThrow(/allowInsecureLoopback/);
    for (const host of ['127.0.0.1:8080', 'localhost', '[::1]:3000']) {
      expect(() => createClient({ baseUrl: `http://${host}/api/v1`, apiKey, allowInsecureLoopback: true })).not.toThrow();
    }
    expect(() => createClient({ baseUrl: 'ftp://analytics.example.com/api/v1', apiKey })).toThrow(/https/);
    expect(() => createClient({ baseUrl: 'analytics.example.com', apiKey })).toThrow(/not a valid URL/);
    expect(() => createClient({ baseUrl: 'https://analytics.example.com/api/v1?api_key=x', apiKey })).toThrow(/query/);
  });

  it('needs a non-empty key without spaces, and sane limits', () => {
    const baseUrl = 'https://analytics.example.com/api/v1';
    expect(() => createClient({ baseUrl, apiKey: '' })).toThrow(/apiKey is required/);
    expect(() => createClient({ baseUrl, apiKey: '   ' })).toThrow(/apiKey is required/);
    expect(() => createClient({ baseUrl, apiKey: 'a\r\nX-Evil: 1' })).toThrow(/control characters/);
    expect(() => createClient({ baseUrl, apiKey, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => createClient({ baseUrl, apiKey, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('refuses to run in a browser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => createClient({ baseUrl: 'https://analytics.example.com/api/v1', apiKey })).toThrow(
      /keys must not be used in client-side code/,
    );
  });
});

describe('buildUrl', () => {
  it('encodes numbers, omits undefined, escapes values', () => {
    expect(buildUrl('https://a.example/api/v1', '/pages', { site_id: 'ST-a', limit: 5, period: undefined })).toBe(
      'https://a.example/api/v1/pages?site_id=ST-a&limit=5',
    );
    expect(buildUrl('https://a.example/api/v1', '/events', { site_id: 'ST-a', name: 'a b&c' })).toBe(
      'https://a.example/api/v1/events?site_id=ST-a&name=a+b%26c',
    );
    expect(() => buildUrl('https://a.example/api/v1', '/live', { site_id: 'ST-a', api_key: 'k' })).toThrow(/apiKey option/);
  });
});
