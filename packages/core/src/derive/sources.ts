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
 *    (`mbasic.facebook.com` is facebook.com; `facebook.com.evil.test` is not);
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
import { memoizeRecent } from './memoize.js';
import { HOSTS, NAMES, NOT_ALPHANUMERIC, SITE_DOMAINS, type SourceCategory } from './source-lists.js';

export { NOT_ALPHANUMERIC, type SourceCategory } from './source-lists.js';

/** What a referring host was matched to. */
export interface HostMatch {
  /** The source's category; `null` when nothing is listed or the entry has no category. */
  category: SourceCategory | null;
  /**
   * The name of the registrable domain the host was read as (`google` for `news.google.co.uk`,
   * `youtube` for the YouTube app, `facebook` for `com.facebook.katana`): which company's
   * site the visitor came from. `null` when the host has no registrable domain.
   */
  site: string | null;
}

/**
 * A webmail host by its name: `mail.`, `webmail.`, `email.` or `messagerie.` before a
 * domain of at least two labels (`mail.ionos.de`, `email.t-online.de`, `webmail.bluewin.ch`),
 * so the many providers' webmail need not each be listed. Two-label hosts such as
 * `mail.ru` (a portal) do not match.
 */
const WEBMAIL_SUBDOMAIN = /^(?:webmail|email|mail|messagerie)\.[^.]+\.[^.]/;

/** Referrer hosts repeat on every session of an import; matching one costs a suffix-list parse. */
const MATCH_CACHE_SIZE = 5_000;

/**
 * The source a lower-cased referring host without `www.` belongs to, by the rules above.
 * @example matchHost('com.google.android.youtube') // { category: 'video', site: 'youtube' }
 * @example matchHost('notfacebook.com') // { category: null, site: 'notfacebook' }
 */
export const matchHost: (host: string) => HostMatch = memoizeRecent(matchUncached, MATCH_CACHE_SIZE);

function matchUncached(host: string): HostMatch {
  const mapped = APP_SOURCES[host];
  if (mapped !== undefined) return matchAsHost(mapped).match;
  const asHost = matchAsHost(host);
  const publisher = appPublisherDomain(host);
  if (publisher === null) return asHost.match;
  if (!asHost.listed) return matchAsHost(publisher).match;
  // A package the lists know as it is (`com.google.android.googlequicksearchbox`): its site is its publisher's.
  return asHost.match.site === null ? { ...asHost.match, site: registrableDomain(publisher)?.name ?? null } : asHost.match;
}

/** Steps 2-4; `listed` tells whether an entry decided (a `null` entry decides too: `docs.google.com`). */
function matchAsHost(host: string): { match: HostMatch; listed: boolean } {
  const registrable = registrableDomain(host);
  const site = registrable?.name ?? null;
  const decided = (category: SourceCategory | null) => ({ match: { category, site }, listed: true });
  const own = HOSTS.get(host);
  if (own !== undefined) return decided(own);
  if (WEBMAIL_SUBDOMAIN.test(host)) return decided('email');
  for (const parent of parentDomains(host, registrable?.domain)) {
    const category = HOSTS.get(parent);
    if (category !== undefined) return decided(category);
  }
  const whole = registrable === null ? undefined : SITE_DOMAINS.get(registrable.domain);
  return whole === undefined ? { match: { category: null, site }, listed: false } : decided(whole);
}

/**
 * The parents of a host, nearest first, down to its registrable domain when it has one;
 * otherwise down to the last two labels (an Android package, `localhost.localdomain`).
 */
function* parentDomains(host: string, registrable: string | undefined): Generator<string> {
  let candidate = host;
  while (candidate !== registrable) {
    const dot = candidate.indexOf('.');
    if (dot < 0) return;
    candidate = candidate.slice(dot + 1);
    if (!candidate.includes('.')) return;
    yield candidate;
  }
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
