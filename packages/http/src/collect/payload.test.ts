import { describe, expect, it } from 'vitest';
import { COLLECT_MESSAGES, hostBelongsTo, MAX_URL_CHARS, pageHost, parseCollectBody } from './payload.js';

const ok = { site_id: 'ST-blog', type: 'pageview', url: 'https://blog.example/a?b=1', referrer: 'https://t.co/x' };
const reason = (body: unknown) => {
  const r = parseCollectBody(typeof body === 'string' ? body : JSON.stringify(body));
  return r.ok ? 'ok' : r.reason;
};

describe('parseCollectBody', () => {
  it('accepts a pageview and a custom event, ignoring unknown fields', () => {
    expect(parseCollectBody(JSON.stringify({ ...ok, extra: 1 }))).toEqual({ ok: true, payload: ok, host: 'blog.example' });
    expect(parseCollectBody(JSON.stringify({ ...ok, type: 'event', name: 'signup' }))).toEqual({
      ok: true,
      payload: { ...ok, type: 'event', name: 'signup' },
      host: 'blog.example',
    });
    expect(parseCollectBody(JSON.stringify({ site_id: 'ST-a', type: 'pageview', url: 'http://A.Example.:8080/' }))).toEqual({
      ok: true,
      payload: { site_id: 'ST-a', type: 'pageview', url: 'http://A.Example.:8080/', referrer: '' },
      host: 'a.example', // as pageHost reads it, from the one parse of the URL
    });
  });

  it('names the first bad field', () => {
    expect(reason('{not json')).toBe(COLLECT_MESSAGES.json);
    expect(reason('[1]')).toBe(COLLECT_MESSAGES.json);
    expect(reason('null')).toBe(COLLECT_MESSAGES.json);
    expect(reason({ ...ok, site_id: 'blog' })).toBe(COLLECT_MESSAGES.siteId);
    expect(reason({ ...ok, site_id: `ST-${'a'.repeat(70)}` })).toBe(COLLECT_MESSAGES.siteId);
    expect(reason({ ...ok, type: 'click' })).toBe(COLLECT_MESSAGES.type);
    expect(reason({ ...ok, type: 'event' })).toBe(COLLECT_MESSAGES.name);
    expect(reason({ ...ok, type: 'event', name: 'x'.repeat(201) })).toBe(COLLECT_MESSAGES.name);
    expect(reason({ ...ok, url: '/a' })).toBe(COLLECT_MESSAGES.url);
    expect(reason({ ...ok, url: 'javascript:alert(1)' })).toBe(COLLECT_MESSAGES.url);
    expect(reason({ ...ok, url: `https://a.example/${'a'.repeat(MAX_URL_CHARS)}` })).toBe(COLLECT_MESSAGES.url);
    expect(reason({ ...ok, referrer: 5 })).toBe(COLLECT_MESSAGES.referrer);
  });
});

describe('hosts', () => {
  it('accepts the domain and its subdomains only', () => {
    expect(pageHost('https://WWW.Example.com.:8080/a')).toBe('www.example.com');
    expect(hostBelongsTo('example.com', 'example.com')).toBe(true);
    expect(hostBelongsTo('www.example.com', 'example.com')).toBe(true);
    expect(hostBelongsTo('badexample.com', 'example.com')).toBe(false);
    expect(hostBelongsTo('example.com.evil.test', 'example.com')).toBe(false);
    expect(hostBelongsTo('anything.test', null)).toBe(true);
  });
});
