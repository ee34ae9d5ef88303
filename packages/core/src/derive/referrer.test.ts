import { describe, expect, it } from 'vitest';
import { DIRECT_NONE, referrerHost, referrerSource } from './referrer.js';

describe('referrerHost', () => {
  it.each([
    ['https://www.google.com/search?q=x', 'google.com'],
    ['HTTPS://WWW.Google.co.UK/', 'google.co.uk'],
    ['https://news.ycombinator.com/item?id=1', 'news.ycombinator.com'],
    ['http://www2.example.com/', 'www2.example.com'],
    ['https://user@example.com:8443/x', 'example.com'],
    ['https://example.com./x', 'example.com'],
    ['android-app://com.google.android.gm/', 'com.google.android.gm'],
    ['google.com/search', 'google.com'],
    ['www.reddit.com', 'reddit.com'],
  ])('%s -> %s', (referrer, host) => {
    expect(referrerHost(referrer)).toBe(host);
  });

  it.each(['', '   ', '(direct)', 'null', 'about:blank', 'not a url', 'http://', 'http://a b.com/'])(
    '%j -> null',
    (referrer) => {
      expect(referrerHost(referrer)).toBeNull();
    },
  );
});

describe('referrerSource', () => {
  const own = ['example.com'];

  it('is the referring host', () => {
    expect(referrerSource('https://www.bing.com/search?q=a', own)).toBe('bing.com');
  });

  it('is Direct / None without referrer', () => {
    expect(referrerSource('', own)).toBe(DIRECT_NONE);
    expect(DIRECT_NONE).toBe('Direct / None');
  });

  it('is Direct / None for the site itself, www. ignored on both sides', () => {
    expect(referrerSource('https://www.example.com/blog', own)).toBe(DIRECT_NONE);
    expect(referrerSource('https://example.com/', ['www.example.com'])).toBe(DIRECT_NONE);
    expect(referrerSource('https://EXAMPLE.com/', ['https://www.Example.com/'])).toBe(DIRECT_NONE);
    expect(referrerSource('http://localhost:3000/a', ['localhost:3000'])).toBe(DIRECT_NONE);
  });

  it('treats other subdomains of the site as referrers', () => {
    expect(referrerSource('https://blog.example.com/', own)).toBe('blog.example.com');
  });
});
