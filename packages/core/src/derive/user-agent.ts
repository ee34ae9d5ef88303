/**
 * Device type, browser and OS of a user agent (decisions.md section 4), named as a user
 * reads them. Parsing uses `ua-parser-js` 1.x (MIT; 2.x changed licence, so never 2.x);
 * its names are mapped to the familiar ones below.
 */
import { UAParser } from 'ua-parser-js';
import { memoizeRecent } from './memoize.js';

export type DeviceType = 'Desktop' | 'Mobile' | 'Tablet' | 'Unknown';

/** What a user agent says about the device. Results are cached and shared: do not mutate. */
export interface DeviceInfo {
  readonly deviceType: DeviceType;
  readonly browser: string;
  readonly os: string;
}

const UNKNOWN = 'Unknown';

/** ua-parser browser names that differ from what users call them; others are kept. */
const BROWSER_NAMES: Readonly<Record<string, string>> = {
  'Mobile Safari': 'Safari',
  'Mobile Firefox': 'Firefox',
  'Mobile Chrome': 'Chrome',
  'Chrome Mobile': 'Chrome',
  // Android's in-app browser component (Chrome-based); GA4 calls it "Android Webview".
  'Chrome WebView': 'Android WebView',
  // Automation, not a person; kept apart so it is visible rather than inflating Chrome.
  'Chrome Headless': 'Headless Chrome',
  'Microsoft Edge': 'Edge',
  IE: 'Internet Explorer',
  IEMobile: 'Internet Explorer',
  'Samsung Browser': 'Samsung Internet',
  'Opera Mobi': 'Opera',
  'Opera Tablet': 'Opera',
  'Opera Touch': 'Opera',
  'Opera GX': 'Opera',
  UCBrowser: 'UC Browser',
  Yandex: 'Yandex Browser',
  GSA: 'Google App',
};

/**
 * ua-parser OS names that differ from what users call them. iPads stay `iOS` (as in GA4):
 * iPadOS Safari sends a Mac user agent, so an `iPadOS` row would hold only a few old iPads.
 */
const OS_NAMES: Readonly<Record<string, string>> = {
  'Mac OS': 'macOS',
  'Chromium OS': 'Chrome OS',
  'Android-x86': 'Android',
};

/** Linux distributions ua-parser names (lower case); reported as `Linux`, like GA4 does. */
const LINUX_DISTRIBUTIONS = new Set([
  'linux', 'ubuntu', 'kubuntu', 'xubuntu', 'lubuntu', 'debian', 'suse', 'opensuse', 'gentoo',
  'arch', 'slackware', 'fedora', 'mandriva', 'centos', 'pclinuxos', 'red hat', 'redhat',
  'zenwalk', 'linpus', 'raspbian', 'deepin', 'manjaro', 'elementary os', 'sabayon',
  'linspire', 'mint', 'mageia', 'vectorlinux',
]);

/** Operating systems whose user agents do not always say "mobile" yet are not desktops. */
const HANDHELD_OS = new Set(['iOS', 'Android']);

/** Parsed results by user agent; the same few thousand strings make up most traffic. */
const CACHE_SIZE = 5_000;
const parser = new UAParser();
const parseCached = memoizeRecent(parse, CACHE_SIZE);

/**
 * Device type, browser and OS of a user agent; `Unknown` for what it does not reveal.
 *
 * Device types: ua-parser's `mobile` and `wearable` (watches, and VR headsets, which it
 * files there too) are Mobile, `tablet` Tablet; no type with a recognised OS or browser is
 * Desktop (but Mobile on iOS/Android); consoles, TVs and embedded devices fit none of the
 * four and are Unknown, as is an empty or unrecognised UA.
 *
 * @example
 * parseUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1')
 * // { deviceType: 'Mobile', browser: 'Safari', os: 'iOS' }
 */
export function parseUserAgent(ua: string): DeviceInfo {
  // The type says string, but the importer feeds raw JSON values; never throw on them.
  return parseCached(typeof ua === 'string' ? ua : '');
}

function parse(ua: string): DeviceInfo {
  if (ua.trim() === '') return Object.freeze({ deviceType: 'Unknown', browser: UNKNOWN, os: UNKNOWN });
  const result = parser.setUA(ua).getResult();
  const browser = browserName(result.browser.name);
  const os = osName(result.os.name);
  return Object.freeze({ deviceType: deviceType(result.device.type, browser, os), browser, os });
}

function browserName(name: string | undefined): string {
  if (!name) return UNKNOWN;
  return BROWSER_NAMES[name] ?? name;
}

function osName(name: string | undefined): string {
  if (!name) return UNKNOWN;
  if (LINUX_DISTRIBUTIONS.has(name.toLowerCase())) return 'Linux';
  return OS_NAMES[name] ?? name;
}

function deviceType(type: string | undefined, browser: string, os: string): DeviceType {
  switch (type) {
    case 'mobile':
    case 'wearable':
      return 'Mobile';
    case 'tablet':
      return 'Tablet';
    case undefined:
      if (HANDHELD_OS.has(os)) return 'Mobile';
      return browser === UNKNOWN && os === UNKNOWN ? 'Unknown' : 'Desktop';
    default:
      return 'Unknown';
  }
}
