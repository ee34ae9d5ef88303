/**
 * Source categories: what kind of site a referring host or a `utm_source` names (decisions.md
 * section 4: from maintained data lists, read in source-lists.ts: Ghost's referrer list,
 * Google's GA4 source-category list, and our short supplement).
 *
 * How a host is matched to the lists, in order (the first that decides wins):
 * 1. an app, app host or short link is read as the source it belongs to (app-sources.ts:
 *    `com.google.android.youtube` is youtube.com, `m.me` is messenger.com);
 * 2. the host itself is listed (`l.facebook.com`), or names webmail (`mail.ionos.de`,
 *    `deref-gmx.de`);
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
import { appPublisherDomain, registrableDomain, stripWww } from './host.js';
import { referrerHost } from './referrer.js';
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
 * A webmail host by its name, so the many providers' webmail need not each be listed:
 * - a subdomain whose first label has `mail` in it or starts with `messagerie`:
 *   `mail.ionos.de`, `email.t-online.de`, `webmail.bluewin.ch`, and the numbered, branded
 *   and regional forms providers run beside them (`mail01.orange.fr`, `wmail.orange.fr`,
 *   `webmail1m.orange.fr`, `mailbusiness.ionos.mx`, `upcmail.hispeed.ch`,
 *   `lightmailer-bs.web.de`, `messageriepro3.orange.fr`). The label must be a subdomain's:
 *   `mail.ru` (a portal), `mailchimp.com` and `dailymail.co.uk` are sites of that name;
 * - a link dereferrer, the host webmail sends a clicked link through so that the message's
 *   address stays private: a registrable name starting with `deref-` (`deref-gmx.de`,
 *   `deref-web-02.de`, `deref-1und1-02.de`: GMX, Web.de, 1&1 and mail.com in every country).
 * The pattern is a cheap first test; the public suffix list is read only for hosts it
 * matches.
 */
const WEBMAIL_LABEL = /^(?:[a-z0-9-]*mail[a-z0-9-]*|messagerie[a-z0-9-]*|deref-[a-z0-9-]+)\./;

function namesWebmail(host: string): boolean {
  if (!WEBMAIL_LABEL.test(host)) return false;
  const registrable = registrableDomain(host);
  if (registrable === null) return false;
  // A longer host than its registrable domain: the matched first label is a subdomain's.
  return registrable.domain === host ? registrable.name.startsWith('deref-') : true;
}

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
  if (namesWebmail(host)) return 'email';
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
 * Category of a `utm_source` written as a URL, as tools that copy the referrer into the tag
 * write it (`https://facebook.com/`, `//facebook.com/`, `chatgpt.com/c/123`,
 * `android-app://com.google.android.gm/`): the host it names, read as a referrer's.
 */
function urlCategory(url: string): SourceCategory | null {
  const host = referrerHost(url.startsWith('//') ? `https:${url}` : url);
  return host === null ? null : hostCategory(host);
}

/**
 * Category of a referrer host or a `utm_source` value, case-insensitive: a value with a
 * dot is first looked up as a host (`chatgpt.com`, `www.facebook.com`), then any value as
 * a source name (`google`, `Facebook`, `fb`); a value with a slash is read as a URL
 * (`https://facebook.com/`). `null` when unknown. An ad platform's name
 * (`google_ads`) is no site and has no category: see `ad-platforms.ts`.
 * @example sourceCategory('Google') // 'search'
 * @example sourceCategory('chatgpt.com') // 'ai'
 * @example sourceCategory('spring-sale') // null
 */
export function sourceCategory(hostOrSource: string): SourceCategory | null {
  const key = hostOrSource.trim().toLowerCase();
  if (key === '') return null;
  if (key.includes('/')) return urlCategory(key);
  if (key.includes('.')) {
    const category = hostCategory(stripWww(key));
    if (category !== null) return category;
  }
  return nameCategory(key);
}
