/**
 * Click ids: the parameters ad platforms add to the links people click, each mapped to the
 * platform that issues it, in one table. A click id says which platform the click went
 * through; where the visitor came from says whether that is believable:
 * - no referrer (apps and strict referrer policies send none), the platform's own site
 *   (Google's search, YouTube or ad servers for `gclid`), or a site no list knows (a
 *   publisher showing the platform's ads): the click id holds, and the visit is the
 *   platform's paid traffic;
 * - a known source of someone else (`gclid` arriving from bing.com or duckduckgo.com,
 *   `msclkid` from google.com): the link, copied with its id, was found there, and the
 *   referrer decides (Organic Search from Bing). Plausible decides the same way (a `gclid`
 *   counts only from Google, an `msclkid` only from Bing).
 * `fbclid` is not an ad click id: Facebook adds it to every outbound link. It only says the
 * link was clicked on Facebook when nothing else does.
 */
import { siteName } from './host.js';
import type { SourceCategory } from './source-lists.js';
import type { HostMatch } from './sources.js';

/** The kind of ad an ad click is, which decides its paid channel (channel-rules.ts). */
export type AdKind = 'search' | 'social' | 'display';

/** A platform that issues click ids. */
export interface ClickPlatform {
  readonly name: string;
  /** Where its ads run, which decides the paid channel unless the source says more (a YouTube ad, an ad server's frame). */
  readonly kind: AdKind;
  /** Names of the registrable domains of its own sites (`google` for google.de and news.google.com). */
  readonly sites: readonly string[];
  /** `false` for an id added to every link, paid or not (`fbclid`). */
  readonly adsOnly: boolean;
}

const GOOGLE_ADS: ClickPlatform = { name: 'Google Ads', kind: 'search', sites: ['google', 'youtube', 'googlesyndication', 'doubleclick', 'googleadservices'], adsOnly: true };
/** Display & Video 360 and Campaign Manager 360 (`dclid`): display ads, YouTube among the placements. */
const GOOGLE_MARKETING_PLATFORM: ClickPlatform = { name: 'Google Marketing Platform', kind: 'display', sites: ['doubleclick', 'googlesyndication', 'youtube'], adsOnly: true };
const MICROSOFT_ADS: ClickPlatform = { name: 'Microsoft Advertising', kind: 'search', sites: ['bing', 'msn'], adsOnly: true };
const YANDEX_DIRECT: ClickPlatform = { name: 'Yandex Direct', kind: 'search', sites: ['yandex', 'ya'], adsOnly: true };
const META: ClickPlatform = { name: 'Meta', kind: 'social', sites: ['facebook', 'instagram', 'messenger', 'threads'], adsOnly: false };
const TIKTOK: ClickPlatform = { name: 'TikTok Ads', kind: 'social', sites: ['tiktok'], adsOnly: true };
const LINKEDIN: ClickPlatform = { name: 'LinkedIn Ads', kind: 'social', sites: ['linkedin', 'lnkd'], adsOnly: true };
const X_ADS: ClickPlatform = { name: 'X Ads', kind: 'social', sites: ['twitter', 'x', 't'], adsOnly: true };
const SNAPCHAT: ClickPlatform = { name: 'Snapchat Ads', kind: 'social', sites: ['snapchat'], adsOnly: true };
const PINTEREST: ClickPlatform = { name: 'Pinterest Ads', kind: 'social', sites: ['pinterest', 'pin'], adsOnly: true };
const REDDIT: ClickPlatform = { name: 'Reddit Ads', kind: 'social', sites: ['reddit', 'redd'], adsOnly: true };

/**
 * Every click id read from a landing URL, as the platforms spell it, with its issuer. The
 * order is the order of precedence when a URL carries several.
 */
export const CLICK_IDS = {
  gclid: GOOGLE_ADS,
  gbraid: GOOGLE_ADS, // iOS clicks from Google's apps to the web
  wbraid: GOOGLE_ADS, // iOS clicks from the web to apps, and in apps
  gad_source: GOOGLE_ADS, // set beside gclid; browsers that strip gclid (Safari, Firefox) keep it
  dclid: GOOGLE_MARKETING_PLATFORM,
  msclkid: MICROSOFT_ADS,
  yclid: YANDEX_DIRECT,
  ttclid: TIKTOK,
  li_fat_id: LINKEDIN,
  twclid: X_ADS,
  ScCid: SNAPCHAT,
  epik: PINTEREST,
  rdt_cid: REDDIT,
  fbclid: META,
} as const satisfies Readonly<Record<string, ClickPlatform>>;

export type ClickIdParam = keyof typeof CLICK_IDS;
/** Click ids from a landing URL; empty strings count as absent. */
export type ClickIds = Partial<Record<ClickIdParam, string>>;
/** The names of {@link CLICK_IDS}, in their order. */
export const CLICK_ID_PARAMS = Object.keys(CLICK_IDS) as ClickIdParam[];

/** What a platform's kind says about the site a lone click id was clicked on. */
const KIND_CATEGORY: Readonly<Record<AdKind, SourceCategory>> = { search: 'search', social: 'social', display: 'ads' };

/**
 * The kind of ad click the click ids prove, given where the visitor came from (`null` for
 * no referrer): the first ad click id, in table order, that holds by the rules at the top.
 * @example adClick({ gclid: 'x' }, null) // 'search'
 * @example adClick({ gclid: 'x' }, { category: 'search', host: 'bing.com' }) // null: Bing's organic result
 * @example adClick({ gclid: 'x' }, { category: 'video', host: 'm.youtube.com' }) // 'search' (channel-rules.ts makes a YouTube ad Paid Social)
 */
export function adClick(clickIds: ClickIds | undefined, referrer: HostMatch | null): AdKind | null {
  if (!hasClickId(clickIds)) return null;
  let site: string | null | undefined; // whose site the referrer is, looked up once if asked
  for (const param of CLICK_ID_PARAMS) {
    const platform: ClickPlatform = CLICK_IDS[param];
    if (!clickIds[param] || !platform.adsOnly) continue;
    if (referrer === null || referrer.category === null) return platform.kind;
    if (site === undefined) site = siteName(referrer.host);
    if (site !== null && platform.sites.includes(site)) return platform.kind;
  }
  return null;
}

/**
 * Where the link was clicked, as the first click id's platform tells it: `social` for a
 * lone `fbclid`. For a visit whose referrer names no source.
 * @example clickedOnCategory({ fbclid: 'x' }) // 'social'
 */
export function clickedOnCategory(clickIds: ClickIds | undefined): SourceCategory | null {
  if (!hasClickId(clickIds)) return null;
  for (const param of CLICK_ID_PARAMS) if (clickIds[param]) return KIND_CATEGORY[CLICK_IDS[param].kind];
  return null;
}

const IS_CLICK_ID: ReadonlySet<string> = new Set(CLICK_ID_PARAMS);

/** Whether any key is a click id: most visits carry none, and their few keys are cheaper to read than 14 absent ones. */
function hasClickId(clickIds: ClickIds | undefined): clickIds is ClickIds {
  if (clickIds === undefined) return false;
  for (const key in clickIds) if (IS_CLICK_ID.has(key)) return true;
  return false;
}
