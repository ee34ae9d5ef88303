/**
 * Ad platforms named in `utm_source` (`google_ads`, `fb_ad`, `ads.tiktok.com`): a tag that
 * names the advertising side of a network rather than the network's site. GA4's source list
 * has no such names, so GA4 reads `utm_source=facebook_ads` without a paid medium as
 * Unassigned; we read it as the paid traffic it is (channel.ts).
 */
import { AD_PLATFORM_NAMES } from './source-supplement.js';
import { nameCategory, NOT_ALPHANUMERIC } from './sources.js';

/** The networks ads are placed on, by the source category of the network's name. */
export type AdNetwork = 'search' | 'social' | 'video';

/** Words that, beside a network's name, make a source its ad platform (`meta_ads`, `linkedin-sponsored`). */
const AD_WORDS = new Set(['ad', 'ads', 'advert', 'adverts', 'advertising', 'sponsored', 'promoted', 'paid', 'cpc', 'ppc']);
/** `<network>ads` or `<network>ad` written as one word (`bingads`, `facebookads`, `fbad`); longest first. */
const AD_SUFFIXES = ['ads', 'ad'];

/**
 * The network of an ad platform named by a `utm_source`: a platform listed by name
 * (`adwords`, `yandex direct`), a network's name written together with `ads` or `ad`
 * (`bingads`, `fbad`),
 * or a source whose words include a network's name and an ad word (`google_ads`,
 * `Facebook-Ads`, `fb_ad`, `tiktok ads`, `linkedin-sponsored`, `ads.tiktok.com`).
 * `null` for anything else, a network's own name included.
 * @example adPlatformCategory('google_ads') // 'search'
 * @example adPlatformCategory('fb_ad') // 'social'
 * @example adPlatformCategory('google') // null
 */
export function adPlatformCategory(source: string): AdNetwork | null {
  const words = source.trim().toLowerCase().split(NOT_ALPHANUMERIC).filter((word) => word !== '');
  const compact = words.join('');
  const listed = AD_PLATFORM_NAMES[compact];
  if (listed !== undefined) return listed;
  for (const suffix of AD_SUFFIXES) {
    const network = compact.endsWith(suffix) ? networkOf(compact.slice(0, -suffix.length)) : null;
    if (network !== null) return network;
  }
  if (!words.some((word) => AD_WORDS.has(word))) return null;
  for (const word of words) {
    const network = AD_WORDS.has(word) ? null : networkOf(word);
    if (network !== null) return network;
  }
  return null;
}

function networkOf(name: string): AdNetwork | null {
  const category = name === '' ? null : nameCategory(name);
  return category === 'search' || category === 'social' || category === 'video' ? category : null;
}
