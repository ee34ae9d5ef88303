/**
 * Device type, browser and OS of a user agent (decisions.md section 4), named as a user
 * reads them. Parsing uses `ua-parser-js` 1.x (MIT; 2.x changed licence, so never 2.x);
 * its names get our one spelling (`device-names.ts`), then `ua-corrections.ts` fixes what
 * it gets wrong.
 */
import { UAParser } from 'ua-parser-js';
import { browserName, osName } from './device-names.js';
import { memoizeRecent } from './memoize.js';
import { UA_CORRECTIONS } from './ua-corrections.js';

export type DeviceType = 'Desktop' | 'Mobile' | 'Tablet' | 'Unknown';

/** What a user agent says about the device. Results are cached and shared: do not mutate. */
export interface DeviceInfo {
  readonly deviceType: DeviceType;
  readonly browser: string;
  readonly os: string;
}

const UNKNOWN = 'Unknown';

/** Operating systems whose user agents do not always say "mobile" yet are not desktops. */
const HANDHELD_OS = new Set(['iOS', 'Android']);

/**
 * An Android browser's user agent without the `Mobile` token: Chrome, the WebView and the
 * browsers built on them send `Mobile` on phones and leave it out on tablets (Google's
 * documented convention). Only a user agent with a browser part (`Safari/`) says this; an
 * app's own string without one says nothing either way.
 */
function androidTabletByToken(ua: string, os: string): boolean {
  return os === 'Android' && /\bSafari\/\d/.test(ua) && !/Mobile/.test(ua);
}

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
 * four and are Unknown, as is an empty or unrecognised UA. An Android browser that leaves
 * out `Mobile` is a Tablet whatever ua-parser says, and `ua-corrections.ts` overrides the
 * type where the user agent says more (a Chromebook, a PC's model, a tablet's model name,
 * an app's own statement of the device).
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
  let browser = browserName(result.browser.name);
  let os = osName(result.os.name);
  let forcedType: DeviceType | undefined;
  for (const fix of UA_CORRECTIONS) {
    if ((fix.ifBrowser !== undefined && fix.ifBrowser !== browser) || (fix.ifOs !== undefined && fix.ifOs !== os)) continue;
    const match = fix.test.exec(ua);
    if (match === null) continue;
    browser = fix.browser ?? browser;
    os = fix.os ?? os;
    forcedType = fix.deviceTypeOf?.[match[1] ?? ''] ?? fix.deviceType ?? forcedType;
  }
  return Object.freeze({ deviceType: forcedType ?? deviceType(result.device.type, ua, browser, os), browser, os });
}

function deviceType(type: string | undefined, ua: string, browser: string, os: string): DeviceType {
  switch (type) {
    case 'mobile':
      // ua-parser-js says phone for models its vendor patterns know as phones, yet a browser
      // that leaves out `Mobile` is on a tablet (or an unfolded foldable, a tablet-sized screen).
      return androidTabletByToken(ua, os) ? 'Tablet' : 'Mobile';
    case 'wearable':
      return 'Mobile';
    case 'tablet':
      return 'Tablet';
    case undefined:
      if (HANDHELD_OS.has(os)) return androidTabletByToken(ua, os) ? 'Tablet' : 'Mobile';
      return browser === UNKNOWN && os === UNKNOWN ? 'Unknown' : 'Desktop';
    default:
      return 'Unknown';
  }
}
