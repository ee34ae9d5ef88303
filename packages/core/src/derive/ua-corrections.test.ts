import { describe, expect, it } from 'vitest';
import { UA_CORRECTIONS } from './ua-corrections.js';
import { parseUserAgent, type DeviceInfo } from './user-agent.js';

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

/**
 * Issue 14's device-type misses: Chromebooks and Android laptops read as phones or tablets,
 * tablets whose user agent says `Mobile`, and apps that state the device. Each is the form
 * the named device or app sends; "before" is what the derivation said without the fix.
 */
const DEVICE_TYPE_CASES: [string, string, DeviceInfo][] = [
  [
    'an Android app in a Chromebook web view (HP Chromebook x360, Chrome OS build R90) is a Chrome OS desktop (before: Mobile, Android)',
    'Mozilla/5.0 (Linux; Android 9; HP Chromebook x360 14 Build/R90-13816.64.0; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/90.0.4430.91 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Android WebView', os: 'Chrome OS' },
  ],
  [
    'Android Chrome on a Chromebook sending Mobile is still a Chrome OS desktop (before: Mobile, Android)',
    'Mozilla/5.0 (Linux; Android 11; ASUS Chromebook Flip CX5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Chrome OS' },
  ],
  [
    'Android-x86 on an HP EliteBook laptop is a desktop (before: Mobile, from the HP iPAQ pattern)',
    'Mozilla/5.0 (Linux; Android 7.1.2; HP EliteBook 840 G3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.181 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Android' },
  ],
  [
    'Android-x86 on a Dell Inspiron laptop is a desktop (before: Tablet)',
    'Mozilla/5.0 (Linux; Android 9; Inspiron 15-3567) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.104 Safari/537.36',
    { deviceType: 'Desktop', browser: 'Chrome', os: 'Android' },
  ],
  [
    "Facebook's Windows app on an HP Pavilion laptop (FBID/desktop) is a desktop (before: Mobile)",
    'Mozilla/5.0 (Windows NT 10.0.17134.1; osmeta 10.3.3308) AppleWebKit/602.1.1 (KHTML, like Gecko) Version/9.0 Safari/602.1.1 osmeta/10.3.3308 Build/3308 [FBAN/FBW;FBAV/140.0.0.232.179;FBBV/83145113;FBDV/WindowsDevice;FBMD/HP Pavilion Laptop 15-cc1xx;FBSN/Windows;FBSV/10.0.17134.1;FBSS/1;FBCR/;FBID/desktop;FBLC/en_US;FBOP/45;FBRV/0]',
    { deviceType: 'Desktop', browser: 'Facebook', os: 'Windows' },
  ],
  [
    'Edge on a Lumia 950 asking for the desktop site is a phone (before: Desktop)',
    'Mozilla/5.0 (Windows NT 10.0; ARM; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36 Edge/15.15063',
    { deviceType: 'Mobile', browser: 'Edge', os: 'Windows' },
  ],
  [
    "IE on a Lumia 1520 in desktop mode (WPDesktop) is a phone (before: Desktop)",
    'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0; ARM; Touch; WPDesktop; Lumia 1520)',
    { deviceType: 'Mobile', browser: 'Internet Explorer', os: 'Windows' },
  ],
  [
    'a Lenovo Tab M10 (TB-X605L, LTE) saying Mobile is a tablet (before: Mobile)',
    'Mozilla/5.0 (Linux; Android 10; TB-X605L) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.5845.163 Mobile Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    'a Blackview Tab 8 saying Mobile is a tablet (before: Mobile)',
    'Mozilla/5.0 (Linux; Android 8.1.0; Blackview Tab 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.120 Mobile Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    "a generic 7-inch MID tablet's stock browser saying Mobile is a tablet (before: Mobile)",
    'Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; MID7024 Build/IMM76D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30',
    { deviceType: 'Tablet', browser: 'Android Browser', os: 'Android' },
  ],
  [
    'a ThinkPad Tablet is a tablet, not a ThinkPad laptop (the later, more specific entry wins)',
    'Mozilla/5.0 (Linux; U; Android 4.0.3; en-us; ThinkPad Tablet Build/ThinkPadTablet_A400_03) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30',
    { deviceType: 'Tablet', browser: 'Android Browser', os: 'Android' },
  ],
  [
    "Yandex's search app on an Alldocube iPlay50 states /apad: a tablet (before: Mobile)",
    'Mozilla/5.0 (Linux; arm_64; Android 13; iPlay50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.869 YaSearchBrowser/24.42/apad BroPP/1.0 YaSearchApp/24.42/apad webOmni SA/3 Mobile Safari/537.36',
    { deviceType: 'Tablet', browser: 'Yandex Browser', os: 'Android' },
  ],
  [
    "Facebook's iPhone app on an iPad (iPhone platform, FBDV/iPad7,11, FBID/tablet) is a tablet (before: Mobile)",
    'Mozilla/5.0 (iPhone; CPU iPhone OS 13_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPad7,11;FBMD/iPad;FBSN/iOS;FBSV/13.5.1;FBSS/2;FBID/tablet;FBLC/en_US;FBOP/5]',
    { deviceType: 'Tablet', browser: 'Facebook', os: 'iOS' },
  ],
  [
    "Messenger's iPhone build on an iPad says FBID/phone, but the iPad platform wins: a tablet",
    'Mozilla/5.0 (iPad; CPU OS 12_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/235.0.0.41.116;FBBV/179337582;FBDV/iPad6,11;FBMD/iPad;FBSN/iOS;FBSV/12.4;FBSS/2;FBID/phone;FBLC/en_GB;FBOP/5]',
    { deviceType: 'Tablet', browser: 'Facebook', os: 'iOS' },
  ],
  [
    "Instagram's iPhone app on an iPad (iPad5,2 in its own part) is a tablet (before: Mobile)",
    'Mozilla/5.0 (iPhone; CPU iPhone OS 12_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 112.0.0.17.121 (iPad5,2; iOS 12_4_1; ru_RU; ru-RU; scale=2.00; 750x1334; 173391461)',
    { deviceType: 'Tablet', browser: 'Instagram', os: 'iOS' },
  ],
  [
    'Facebook on an iPhone (FBID/phone) stays a phone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.36.108;FBBV/574785536;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
    { deviceType: 'Mobile', browser: 'Facebook', os: 'iOS' },
  ],
  [
    'a Coolpad phone (a brand, not a pad) stays a phone',
    'Mozilla/5.0 (Linux; Android 7.1.1; Coolpad E2C) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.198 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Chrome', os: 'Android' },
  ],
];

/**
 * Android browsers send `Mobile` on phones and leave it out on tablets; this holds even where
 * ua-parser-js's vendor patterns call the model a phone. No correction entry: `user-agent.ts`.
 */
const MOBILE_TOKEN_CASES: [string, string, DeviceInfo][] = [
  [
    'Chrome on a Lenovo A7600 tablet (no Mobile) is a tablet (before: Mobile, from the Lenovo phone pattern)',
    'Mozilla/5.0 (Linux; Android 4.4.2; Lenovo A7600-F Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.98 Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    'Chrome on an LG G Pad 8.3 (LG-V500, no Mobile) is a tablet (before: Mobile)',
    'Mozilla/5.0 (Linux; Android 5.0.2; LG-V500 Build/LRX22G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/61.0.3163.98 Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    'Chrome on an unfolded Galaxy Z Fold6 leaves out Mobile: a tablet-sized screen, Tablet',
    'Mozilla/5.0 (Linux; Android 14; SM-F956B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    'the same Galaxy Z Fold6 folded sends Mobile: a phone',
    'Mozilla/5.0 (Linux; Android 14; SM-F956B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Chrome', os: 'Android' },
  ],
  [
    "Chrome's reduced user agent (model K) without Mobile is a tablet",
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    { deviceType: 'Tablet', browser: 'Chrome', os: 'Android' },
  ],
  [
    "Chrome's reduced user agent with Mobile is a phone",
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Chrome', os: 'Android' },
  ],
  [
    'a Realme web view that writes Mobile without a space before it (`96Mobile Safari`) is a phone',
    'Mozilla/5.0 (Linux; Android 10; RMX2040 Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.96Mobile Safari/537.36',
    { deviceType: 'Mobile', browser: 'Android WebView', os: 'Android' },
  ],
];

describe('parseUserAgent, issue 14 cases', () => {
  it.each(ISSUE_14_CASES)('%s', (_what, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });
});

describe('parseUserAgent, issue 14 device types', () => {
  it.each([...DEVICE_TYPE_CASES, ...MOBILE_TOKEN_CASES])('%s', (_what, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });
});

describe('UA_CORRECTIONS', () => {
  it('has a case for every entry', () => {
    const cases = [...ISSUE_14_CASES, ...DEVICE_TYPE_CASES];
    const unused = UA_CORRECTIONS.filter((fix) => !cases.some(([, ua]) => fix.test.test(ua))).map((fix) => fix.why);
    expect(unused).toEqual([]);
  });
});
