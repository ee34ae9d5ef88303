/**
 * Source categories: what kind of site a referring host or a `utm_source` names (decisions.md
 * section 4: from maintained data lists, read in source-lists.ts: Ghost's referrer list,
 * Google's GA4 source-category list, and our short supplement).
 *
 * How a host is matched to the lists, in order (the first that decides wins):
 * 1. an app, app host or short link is read as the source it belongs to (app-sources.ts:
 *    `com.google.android.youtube` is youtube.com, `m.me` is messenger.com);
 * 2. the host itself is listed (`l.facebook.com`), or names webmail (`mail.ionos.de`);
 * 3. a parent domain is listed, down to the registrable domain and never past it
 *    (`mbasic.facebook.com` is facebook.com; `facebook.com.evil.test` is not: its
 *    registrable domain is evil.test);
 * 4. the registrable domain is wholly a social or video source on the lists (Google's list
 *    names Skype and lists web.skype.com, so join.skype.com is Skype; source-lists.ts
 *    `SITE_DOMAINS`);
 * 5. an Android app's package, which matches none of these as a host, is read as its
 *    publisher's domain, and steps 2-4 run on that (`com.linkedin.android` is linkedin.com;
 *    host.ts `appPublisherDomain`).
 * Look-alikes match nothing: `notfacebook.com`, `facebook.community` and `reddit.tk` are
 * other domains.
 */
import { APP_SOURCES } from './app-sources.js';
import { appPublisherDomain, stripWww } from './host.js';
import { HOSTS, NAMES, NOT_ALPHANUMERIC, SITE_DOMAINS, type SourceCategory } from './source-lists.js';

export { NOT_ALPHANUMERIC, type SourceCategory } from './source-lists.js';

/** What a referring host was matched to. */
export interface HostMatch {
  /** The source's category; `null` when nothing is listed or the entry has no category. */
  category: SourceCategory | null;
  /**
   * The host the lists were asked about: the host itself, the source an app or short link
   * belongs to (`youtube.com` for `com.google.android.youtube`), or an Android package's
   * publisher (`facebook.com` for `com.facebook.katana`). host.ts `siteName` tells whose
   * site it is, which click ids ask.
   */
  host: string;
}

/**
 * A webmail host by its name: `mail.`, `webmail.`, `email.` or `messagerie.` before a
 * domain of at least two labels (`mail.ionos.de`, `email.t-online.de`, `webmail.bluewin.ch`),
 * so the many providers' webmail need not each be listed. Two-label hosts such as
 * `mail.ru` (a portal) do not match.
 */
const WEBMAIL_SUBDOMAIN = /^(?:webmail|email|mail|messagerie)\.[^.]+\.[^.]/;

/** app-sources.ts as a map: a look-up of a missing key in a large object literal is slower. */
const APP_SOURCE_MAP: ReadonlyMap<string, string> = new Map(Object.entries(APP_SOURCES));

/**
 * The source a lower-cased referring host without `www.` belongs to, by the rules above.
 * Plain map look-ups and string cuts: the import runs it on every event, and the public
 * suffix list is needed only where a package is read (rule 5).
 * @example matchHost('com.google.android.youtube') // { category: 'video', host: 'youtube.com' }
 * @example matchHost('notfacebook.com') // { category: null, host: 'notfacebook.com' }
 */
export function matchHost(host: string): HostMatch {
  const mapped = APP_SOURCE_MAP.get(host);
  if (mapped !== undefined) return { category: lookUp(mapped) ?? null, host: mapped };
  const own = lookUp(host);
  if (own !== undefined) return { category: own, host };
  const publisher = appPublisherDomain(host);
  return publisher === null ? { category: null, host } : { category: lookUp(publisher) ?? null, host: publisher };
}

/**
 * Rules 2-4: the host itself, webmail by name, then each parent domain nearest first, each
 * as a listed host and as a registrable domain that is wholly a source. `undefined` when
 * nothing decides (a `null` entry decides: `docs.google.com`). The walk needs no public
 * suffix list: it stops before a single label, and no listed host is a public suffix
 * (sources.test.ts checks), so nothing past a registrable domain can match.
 */
function lookUp(host: string): SourceCategory | null | undefined {
  const own = HOSTS.get(host);
  if (own !== undefined) return own;
  if (WEBMAIL_SUBDOMAIN.test(host)) return 'email';
  for (let candidate = host; candidate.includes('.'); candidate = candidate.slice(candidate.indexOf('.') + 1)) {
    const listed = candidate === host ? undefined : HOSTS.get(candidate);
    if (listed !== undefined) return listed;
    const whole = SITE_DOMAINS.get(candidate);
    if (whole !== undefined) return whole;
  }
  return undefined;
}

/**
 * Category of a lower-cased host without `www.`, by the rules at the top of this file.
 * @example hostCategory('m.facebook.com') // 'social'
 * @example hostCategory('mail.ionos.de') // 'email'
 * @example hostCategory('facebook.com.evil.test') // null
 */
export function hostCategory(host: string): SourceCategory | null {
  return matchHost(host).category;
}

/**
 * Category of a source name (`utm_source` without a host), case-insensitive, as written or
 * letters and digits only (`Hacker News`, `hackernews`); `null` when unknown.
 * @example nameCategory('Facebook') // 'social'
 */
export function nameCategory(name: string): SourceCategory | null {
  const key = name.trim().toLowerCase();
  return NAMES.get(key) ?? NAMES.get(key.replace(NOT_ALPHANUMERIC, '')) ?? null;
}

/**
 * Category of a referrer host or a `utm_source` value, case-insensitive: a value with a
 * dot is first looked up as a host (`chatgpt.com`, `www.facebook.com`), then any value as
 * a source name (`google`, `Facebook`, `fb`). `null` when unknown. An ad platform's name
 * (`google_ads`) is no site and has no category: see `ad-platforms.ts`.
 * @example sourceCategory('Google') // 'search'
 * @example sourceCategory('chatgpt.com') // 'ai'
 * @example sourceCategory('spring-sale') // null
 */
export function sourceCategory(hostOrSource: string): SourceCategory | null {
  const key = hostOrSource.trim().toLowerCase();
  if (key === '') return null;
  if (key.includes('.')) {
    const category = hostCategory(stripWww(key));
    if (category !== null) return category;
  }
  return nameCategory(key);
}
