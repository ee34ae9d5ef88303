import { describe, expect, it } from 'vitest';
import { parseUserAgent, type DeviceInfo } from './user-agent.js';

/** Real user agents of current browsers, with what a person reading them would say. */
const CASES: [string, string, DeviceInfo][] = [
  [
    'Chrome on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Windows' },
  ],
  [
    'Safari on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    { deviceType: 'Mobile', browser: 'Safari', os: 'iOS' },
  ],
  [
    'Safari on iPad (older iPadOS UA)',
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    { deviceType: 'Tablet', browser: 'Safari', os: 'iOS' },
  ],
  [
    'Safari on macOS',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    { deviceType: 'Desktop', browser: 'Safari', os: 'macOS' },
  ],
  [
    'Firefox on Linux',
    'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
    { deviceType: 'Desktop', browser: 'Firefox', os: 'Linux' },
  ],
  [
    'Firefox on Ubuntu counts as Linux',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0',
    { deviceType: 'Desktop', browser: 'Firefox', os: 'Linux' },
  ],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
    { deviceType: 'Desktop', browser: 'Edge', os: 'Windows' },
  ],
  [
    'Samsung Internet on Android',
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Samsung Internet', os: 'Android' },
  ],
  [
    'Chrome on an Android tablet',
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    'Chrome on ChromeOS',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Chrome OS' },
  ],
  [
    'Android WebView',
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Android WebView', os: 'Android' },
  ],
  [
    'Opera on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 OPR/109.0.0.0',
    { deviceType: 'Desktop', browser: 'Opera', os: 'Windows' },
  ],
  [
    'Internet Explorer 11',
    'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
    { deviceType: 'Desktop', browser: 'Internet Explorer', os: 'Windows' },
  ],
  ['empty', '', { deviceType: 'Unknown', browser: 'Unknown', os: 'Unknown' }],
  ['unrecognised', 'curl/8.4.0', { deviceType: 'Unknown', browser: 'Unknown', os: 'Unknown' }],
];


describe('parseUserAgent', () => {
  it.each(CASES)('%s', (_what, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it('returns the cached result for a repeated user agent', () => {
    const ua = CASES[0]![1];
    expect(parseUserAgent(ua)).toBe(parseUserAgent(ua));
  });

  it('keeps answering correctly after the cache has evicted entries', () => {
    for (let i = 0; i < 5_100; i++) parseUserAgent(`Mozilla/5.0 (Windows NT 10.0) Firefox/${i}.0`);
    expect(parseUserAgent(CASES[1]![1])).toEqual(CASES[1]![2]);
  });
});
