/**
 * The written mapping from uap-core's browser and OS families to our names, and what
 * "mainstream" means for the browser and OS figures. Only naming differences are mapped
 * (the same product spelt two ways); a family whose product we name differently on purpose
 * says why. docs/derivations.md explains the choices.
 */

/** uap-core browser family -> our name, where they differ. Families not listed must match as they are. */
export const BROWSER_FAMILY_NAMES: Readonly<Record<string, string>> = {
  // uap-core names mobile builds apart; we count a browser as one whatever the device.
  'Chrome Mobile': 'Chrome',
  'Chrome Mobile iOS': 'Chrome',
  'Mobile Safari': 'Safari',
  'Firefox Mobile': 'Firefox',
  'Firefox iOS': 'Firefox',
  'Edge Mobile': 'Edge',
  'IE Mobile': 'Internet Explorer',
  'Opera Mobile': 'Opera',
  IE: 'Internet Explorer',
  // Android's web view component (GA4: "Android Webview").
  'Chrome Mobile WebView': 'Android WebView',
  // A page inside an iOS app's web view, not Safari itself (GA4: "Safari (in-app)").
  'Mobile Safari UI/WKWebView': 'Safari (in-app)',
  // uap-core's "Android" is Android's own pre-Chrome browser.
  Android: 'Android Browser',
};

/**
 * Mainstream browser families: the browsers that held at least about half a percent of
 * worldwide page views (StatCounter) in the past decade, in every build uap-core tells
 * apart, plus Brave and Vivaldi, the two named by issue 14 among browsers our users see.
 */
export const MAINSTREAM_BROWSERS = new Set([
  'Chrome', 'Chrome Mobile', 'Chrome Mobile iOS', 'Chrome Mobile WebView',
  'Safari', 'Mobile Safari', 'Mobile Safari UI/WKWebView',
  'Firefox', 'Firefox Mobile', 'Firefox iOS',
  'Edge', 'Edge Mobile', 'IE', 'IE Mobile',
  'Opera', 'Opera Mobile', 'Opera Mini',
  'Samsung Internet', 'UC Browser', 'Yandex Browser', 'Android', 'Brave', 'Vivaldi',
]);

/** Linux distributions uap-core names; we report them all as `Linux`, as GA4 does. */
const LINUX_DISTRIBUTIONS = ['Ubuntu', 'Debian', 'Fedora', 'Red Hat', 'Gentoo', 'Mandriva', 'Kubuntu', 'Mint', 'SUSE', 'openSUSE', 'CentOS', 'Arch Linux'];

/** uap-core OS family -> our name, where they differ. */
export const OS_FAMILY_NAMES: Readonly<Record<string, string>> = {
  'Mac OS X': 'macOS',
  'Mac OS': 'macOS',
  WatchOS: 'watchOS', // Apple's spelling
  'Web0S': 'webOS', // LG's TV build of webOS
  'Symbian OS': 'Symbian',
  // Symbian^3 and its Anna and Belle updates are versions of Symbian, not other systems.
  'Symbian^3': 'Symbian',
  'Symbian^3 Anna': 'Symbian',
  'Symbian^3 Belle': 'Symbian',
  'BlackBerry OS': 'BlackBerry',
  // uap-core names Chromecast builds by their base system; we name the device's OS once.
  'Chromecast Linux': 'Chromecast',
  'Chromecast Fuchsia': 'Chromecast',
  'Chromecast SmartSpeaker': 'Chromecast',
  ...Object.fromEntries(LINUX_DISTRIBUTIONS.map((name) => [name, 'Linux'])),
};

/** Mainstream operating systems: the desktop and mobile platforms of nearly all web traffic. */
export const MAINSTREAM_OSES = new Set(['Windows', 'Mac OS X', 'Mac OS', 'iOS', 'Android', 'Chrome OS', 'Linux', ...LINUX_DISTRIBUTIONS]);

/**
 * The user-agent shape of a current browser: every mainstream browser of the past decade
 * sends `Mozilla/5.0 (platform...)`, and that is what a page tag sees. Strings of another
 * shape (native apps' HTTP libraries such as CFNetwork or okhttp, `UCWEB/2.0`, Presto-era
 * `Opera/9.80`, server logs that wrote spaces as `+`) are left out of the mainstream
 * figures, counted and listed.
 */
export const BROWSER_SHAPE = /^Mozilla\/5\.0 \(/;
