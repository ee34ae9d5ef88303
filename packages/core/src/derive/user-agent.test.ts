import { describe, expect, it } from 'vitest';
import { UA_CORRECTIONS } from './ua-corrections.js';
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

/**
 * Issue 14's user-agent defects, one case each, with what a person reading the string
 * would say. Where a string is from a real app, the comment names it.
 */
const ISSUE_14_CASES: [string, string, DeviceInfo][] = [
  [
    'Chrome on iPad in desktop mode sends a Mac user agent but keeps CriOS: an iOS tablet',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Version/17.0 Safari/605.1.15',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'iOS' },
  ],
  [
    'Edge on iPad in desktop mode (EdgiOS in a Mac user agent): an iOS tablet',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/131.0.2903.68 Version/17.0 Safari/605.1.15',
    { deviceType: 'Tablet', browser: 'Edge', os: 'iOS' },
  ],
  [
    "a native macOS app through CFNetwork on an Intel Mac (the form Apple's Mail sends): a Mac, not an iPhone",
    'Mail/3774.500.171 CFNetwork/1494.0.7 Darwin/23.4.0 (x86_64)',
    { deviceType: 'Desktop', browser: 'Unknown', os: 'macOS' },
  ],
  [
    'an iPhone app through CFNetwork (no Mac architecture) stays an iOS phone',
    'MyApp/12 CFNetwork/1494.0.7 Darwin/23.4.0',
    { deviceType: 'Mobile', browser: 'Unknown', os: 'iOS' },
  ],
  [
    'lower-case android (DAVdroid, the CalDAV app) is Android and a handheld, not a Desktop',
    'DAVdroid/1.11.4-ose (2018/06/21; dav4android; okhttp3) Android/8.0.0',
    { deviceType: 'Mobile', browser: 'Unknown', os: 'Android' },
  ],
  [
    'lower-case brave (early Brave builds) is Brave',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) brave/0.7.12 Chrome/47.0.2526.110 Brave/0.36.7 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Brave', os: 'Windows' },
  ],
  [
    'Brave on iPhone names itself after Safari/',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 Brave',
    { deviceType: 'Mobile', browser: 'Brave', os: 'iOS' },
  ],
  [
    'KAIOS in capitals (Nokia 8110 4G) is KaiOS',
    'Mozilla/5.0 (Mobile; Nokia_8110_4G; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
    { deviceType: 'Mobile', browser: 'Firefox', os: 'KaiOS' },
  ],
  [
    'lower-case freebsd is FreeBSD',
    'Mozilla/5.0 (X11; freebsd amd64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'FreeBSD' },
  ],
  [
    'UC Browser sending UCMobile/ is UC Browser, not the Android browser',
    'Mozilla/5.0 (Linux; U; Android 13; en-US; SM-A515F Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.80 UCMobile/15.0.7.1383 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'UC Browser', os: 'Android' },
  ],
  [
    'Version/4.0 with a Chrome/ token is the Android WebView, not the pre-Chrome Android browser',
    'Mozilla/5.0 (Linux; Android 4.4.4; SM-G850F Build/KTU84P) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/33.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Android WebView', os: 'Android' },
  ],
  [
    "a page in an iOS app's web view (no browser token) is Safari (in-app)",
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    { deviceType: 'Mobile', browser: 'Safari (in-app)', os: 'iOS' },
  ],
  [
    'Silk on a Fire tablet, whose user agent leaves Android out, is Android',
    'Mozilla/5.0 (Linux; U; en-us; KFTT Build/IML74K) AppleWebKit/535.19 (KHTML, like Gecko) Silk/3.68 Safari/535.19 Silk-Accelerated=true',
    { deviceType: 'Tablet', browser: 'Silk', os: 'Android' },
  ],
  [
    "Meta Quest's browser sends a Linux desktop user agent; its OS is Android-based (a headset counts as Mobile)",
    'Mozilla/5.0 (X11; Linux x86_64; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) OculusBrowser/33.0.0.8.52 SamsungBrowser/4.0 Chrome/126.0.6478.122 VR Safari/537.36',
    { deviceType: 'Mobile', browser: 'Oculus Browser', os: 'Android' },
  ],
  [
    'Citrix Workspace on a Chromebook writes Windows in place of CrOS',
    'Mozilla/5.0 (X11; Windows x86_64 15183.51.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Safari/537.36 CitrixChromeApp',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Chrome OS' },
  ],
  [
    "an iOS app's own user agent (the form Deezer sends) is iOS",
    'Deezer/9.20.0 (iOS; 17.4; Mobile; en)',
    { deviceType: 'Mobile', browser: 'Unknown', os: 'iOS' },
  ],
  [
    'a Windows user agent without a version (an Adobe AIR app) is Windows',
    'Mozilla/5.0 (Windows; U; en-US) AppleWebKit/533.19.4 (KHTML, like Gecko) AdobeAIR/32.0',
    { deviceType: 'Desktop', browser: 'WebKit', os: 'Windows' },
  ],
  [
    'an iPhone whose OS version is malformed is iOS, not macOS (then its web view is Safari (in-app))',
    'Mozilla/5.0 (iPhone; U; CPU iPhone 6_1_4 like Mac OS X; en-us) AppleWebKit/528.18 (KHTML, like Gecko) Mobile/7E18',
    { deviceType: 'Mobile', browser: 'Safari (in-app)', os: 'iOS' },
  ],
];

describe('parseUserAgent, issue 14 cases', () => {
  it.each(ISSUE_14_CASES)('%s', (_what, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it('has a case for every entry of UA_CORRECTIONS', () => {
    const unused = UA_CORRECTIONS.filter((fix) => !ISSUE_14_CASES.some(([, ua]) => fix.test.test(ua))).map((fix) => fix.why);
    expect(unused).toEqual([]);
  });
});

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
