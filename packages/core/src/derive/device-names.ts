/**
 * One spelling per browser and OS, as a person reads it: the single table applied wherever
 * a name is derived from a user agent (`user-agent.ts`) or taken from an import line
 * (`import/enrich.ts`), so `android`, `Android` and `ANDROID` are one row everywhere.
 *
 * ua-parser-js returns most names as the user agent spells them (`brave/0.7`, `KAIOS`,
 * `freebsd`), so casing alone is not a name: names are compared lower-cased. A name in
 * neither table keeps its spelling, except that an all-lower-case one gets capital initials
 * (`foo browser` -> `Foo Browser`), so its two common spellings still meet.
 */

/** Lower-cased name -> ours, for names that differ from what users call them. */
const BROWSER_ALIASES: Readonly<Record<string, string>> = {
  'mobile safari': 'Safari',
  'mobile firefox': 'Firefox',
  'mobile chrome': 'Chrome',
  'chrome mobile': 'Chrome',
  // Android's in-app browser component (Chrome-based); GA4 calls it "Android Webview".
  'chrome webview': 'Android WebView',
  // Automation, not a person; kept apart so it is visible rather than inflating Chrome.
  'chrome headless': 'Headless Chrome',
  headlesschrome: 'Headless Chrome',
  'microsoft edge': 'Edge',
  ie: 'Internet Explorer',
  iemobile: 'Internet Explorer',
  'samsung browser': 'Samsung Internet',
  samsungbrowser: 'Samsung Internet',
  'opera mobi': 'Opera',
  'opera tablet': 'Opera',
  'opera touch': 'Opera',
  'opera gx': 'Opera',
  ucbrowser: 'UC Browser',
  yandex: 'Yandex Browser',
  gsa: 'Google App',
  palemoon: 'Pale Moon',
  qqbrowser: 'QQ Browser',
  nokiabrowser: 'Nokia Browser',
  ovibrowser: 'Ovi Browser',
  // Names Umami's exports write (its detect-browser names).
  'edge-chromium': 'Edge',
  'edge-ios': 'Edge',
  crios: 'Chrome',
  fxios: 'Firefox',
  'chromium-webview': 'Android WebView',
  'ios-webview': 'Safari (in-app)',
  samsung: 'Samsung Internet',
};

/** Browser names whose spelling varies only in case between user agents or import files. */
const BROWSER_SPELLINGS = [
  'Chrome', 'Safari', 'Safari (in-app)', 'Firefox', 'Edge', 'Opera', 'Opera Mini', 'Samsung Internet',
  'UC Browser', 'Yandex Browser', 'Internet Explorer', 'Android Browser', 'Android WebView', 'Headless Chrome',
  'Brave', 'Vivaldi', 'Chromium', 'Silk', 'DuckDuckGo', 'Facebook', 'Instagram', 'KakaoTalk', 'WeChat',
  'Weibo', 'Rekonq', 'Whale', 'Google App', 'MIUI Browser', 'Huawei Browser', 'Coc Coc', 'QQ Browser',
];

/** Lower-cased name -> ours. iPads stay `iOS` (as in GA4): iPadOS Safari sends a Mac user agent. */
const OS_ALIASES: Readonly<Record<string, string>> = {
  'mac os': 'macOS',
  'mac os x': 'macOS',
  'os x': 'macOS',
  'chromium os': 'Chrome OS',
  'android-x86': 'Android',
  ipados: 'iOS',
  'windows phone os': 'Windows Phone',
  'rim tablet os': 'BlackBerry Tablet OS',
  series40: 'Nokia Series 40',
  // Names Plausible's, Umami's and GA4's exports write.
  mac: 'macOS',
  macintosh: 'macOS',
  'gnu/linux': 'Linux',
  'android os': 'Android',
  'windows 10': 'Windows',
  'windows 7': 'Windows',
  'windows 8': 'Windows',
  'windows 8.1': 'Windows',
  'windows 11': 'Windows',
};

/** Linux distributions ua-parser names; reported as `Linux`, like GA4 does. */
const LINUX_DISTRIBUTIONS = [
  'ubuntu', 'kubuntu', 'xubuntu', 'lubuntu', 'debian', 'suse', 'opensuse', 'gentoo', 'arch',
  'slackware', 'fedora', 'mandriva', 'centos', 'pclinuxos', 'red hat', 'redhat', 'zenwalk', 'linpus',
  'raspbian', 'deepin', 'manjaro', 'elementary os', 'sabayon', 'linspire', 'mint', 'mageia', 'vectorlinux',
];

/** OS names whose spelling varies only in case between user agents or import files. */
const OS_SPELLINGS = [
  'Windows', 'macOS', 'iOS', 'Android', 'Linux', 'Chrome OS', 'Windows Phone', 'Windows Mobile', 'KaiOS',
  'FreeBSD', 'OpenBSD', 'NetBSD', 'HarmonyOS', 'Tizen', 'webOS', 'watchOS', 'PlayStation', 'BlackBerry',
  'Symbian', 'Firefox OS', 'Fuchsia', 'Solaris', 'BlackBerry Tablet OS', 'Nokia Series 40',
];

const UNKNOWN = 'Unknown';

function namer(aliases: Readonly<Record<string, string>>, spellings: readonly string[]): (name: string | undefined) => string {
  const table = new Map<string, string>(spellings.map((s) => [s.toLowerCase(), s]));
  for (const [alias, name] of Object.entries(aliases)) table.set(alias, name);
  table.set(UNKNOWN.toLowerCase(), UNKNOWN);
  return (name) => {
    const trimmed = typeof name === 'string' ? name.trim().replace(/\s+/g, ' ') : '';
    if (trimmed === '') return UNKNOWN;
    const known = table.get(trimmed.toLowerCase());
    if (known !== undefined) return known;
    return trimmed === trimmed.toLowerCase() ? trimmed.replace(/(^|\s)(\p{Ll})/gu, (_m, space: string, letter: string) => space + letter.toUpperCase()) : trimmed;
  };
}

/**
 * The one spelling of a browser name; `Unknown` for an empty one.
 * @example browserName('Mobile Safari') // 'Safari'
 * @example browserName('brave') // 'Brave'
 */
export const browserName: (name: string | undefined) => string = namer(BROWSER_ALIASES, BROWSER_SPELLINGS);

/**
 * The one spelling of an OS name (Linux distributions are `Linux`); `Unknown` for an empty one.
 * @example osName('android') // 'Android'
 * @example osName('Ubuntu') // 'Linux'
 * @example osName('KAIOS') // 'KaiOS'
 */
export const osName: (name: string | undefined) => string = namer(
  { ...OS_ALIASES, ...Object.fromEntries(LINUX_DISTRIBUTIONS.map((d) => [d, 'Linux'])) },
  OS_SPELLINGS,
);
