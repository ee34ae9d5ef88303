/**
 * Google's GA4 source-category list, the data GA4's default channel group reads to tell
 * search, social, video and shopping sites apart (support.google.com/analytics/answer/9756891).
 * It is shipped unchanged as `ga4-source-categories.json`, whose header names its origin,
 * the copy it was taken from, its licence and the date it last changed; bundled into the
 * build by the import below and read once, when this module loads.
 */
import list from './ga4-source-categories.json' with { type: 'json' };
import type { SourceCategory } from './sources.js';

/** GA4's category names and ours. Video and shopping keep their own categories here; channel.ts maps them to channels. */
const FROM_GA4 = {
  SOURCE_CATEGORY_SEARCH: 'search',
  SOURCE_CATEGORY_SOCIAL: 'social',
  SOURCE_CATEGORY_VIDEO: 'video',
  SOURCE_CATEGORY_SHOPPING: 'shopping',
} as const satisfies Record<keyof typeof list.categories, SourceCategory>;

/** Where the list came from and when it last changed, as its file's header says. */
export const GA4_SOURCE_LIST = { origin: list.origin, copiedFrom: list.copiedFrom, updated: list.updated, licence: list.licence };

/**
 * Every entry of the list, lower-cased (GA4 compares sources case-insensitively), with our
 * category. Entries with a dot are hosts (`l.facebook.com`), the others `utm_source` names
 * (`facebook`, `google shopping`).
 * @example GA4_SOURCES.find(([source]) => source === 'reddit.com') // ['reddit.com', 'social']
 */
export const GA4_SOURCES: readonly (readonly [source: string, category: SourceCategory])[] = Object.entries(list.categories).flatMap(
  ([name, sources]) => sources.map((source) => [source.toLowerCase(), FROM_GA4[name as keyof typeof FROM_GA4]] as const),
);
