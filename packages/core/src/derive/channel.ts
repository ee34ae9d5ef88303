/**
 * Channel of a session (decisions.md section 4), modelled on Google Analytics 4's default
 * channel grouping (support.google.com/analytics/answer/9756891).
 *
 * The inputs are reduced to signals (see {@link ChannelSignals}); then {@link CHANNEL_RULES},
 * the one ordered rule list, is read top-down and the first matching rule decides.
 * Where this departs from GA4, on purpose:
 * - Explicit mediums (`email`, `affiliate`, `social`) beat source categories. GA4 checks its
 *   social and search source lists first, so `utm_source=facebook&utm_medium=email` is
 *   Social there and Email here: the medium is the site owner's own statement of how the
 *   link was sent, while the source only says whose site it was on.
 * - AI Assistants (no GA4 channel) ranks right after the explicit mediums and before the
 *   other source categories, so `utm_source=chatgpt.com&utm_medium=referral` is AI.
 * - GA4's Paid Other (paid medium, source neither search nor social) is folded into
 *   Display, the channel for ad networks; so is an untagged visit from an ad server.
 * - An ad click id (`gclid`, `gad_source`, `msclkid`) means a paid click whatever the tags
 *   say (GA4 auto-tagging also overrides manual tags): Display when the source is an ad
 *   server (a Google Display Network click; GA4 also reads those as Display), Paid Social
 *   when it is a social or video site (a YouTube ad; GA4 Paid Video), else Paid Search.
 *   `fbclid` is not paid: Facebook adds it to every outbound link, so it only makes the
 *   source Facebook (Social) when nothing else names a source.
 * - A `utm_source` naming an ad platform (`google_ads`, `facebook-ads`, `adwords`) is paid
 *   even without a paid medium; GA4 would call `google_ads` with no medium Organic Search.
 * - `utm_medium=partnership` is Affiliates (as PostHog has it; GA4 knows `affiliate` only).
 * - No Video, Shopping, Audio, SMS, Push or Unassigned channels: video sites are Social
 *   (the source list counts YouTube and Vimeo as social networks, and a medium containing
 *   `video` is Social), `utm_medium=organic` is Organic Search, and tagged or referred
 *   traffic matching no rule is Referral (someone did name a source, so it is not Direct).
 * docs/derivations.md measures these rules against GA4's and PostHog's own test cases.
 */
import type { Channel } from '../types.js';
import { stripWww } from './host.js';
import type { CampaignParams } from './url.js';
import { adPlatformCategory, hostCategory, sourceCategory, type SourceCategory } from './sources.js';

/** What {@link classifyChannel} reads. Empty strings count as absent. */
export interface ChannelInput {
  /** Referring host (as from `referrerHost`); `null` for none and for self-referrals. */
  referrerHost: string | null;
  utmSource?: string;
  utmMedium?: string;
  /** Click ids from the landing URL (`parsePageUrl(...).params` can be passed as it is). */
  clickIds?: Pick<CampaignParams, 'gclid' | 'msclkid' | 'fbclid' | 'gad_source'>;
}

/** The facts the rules test, derived once per call. */
export interface ChannelSignals {
  /** Of `utm_source` if it names a known source, else of the referrer, else `social` for a lone `fbclid`. */
  category: SourceCategory | null;
  /** `utm_medium` lower-cased, runs of `_` and spaces read as `-` (`E_Mail` -> `e-mail`). */
  medium: string;
  /**
   * The medium matches GA4's paid pattern, or `utm_source` names an ad platform
   * (`google_ads`, `facebook-ads`, `adwords`) and the medium names no other channel.
   */
  paid: boolean;
  /** A Google Ads (`gclid`, `gad_source`) or Microsoft Ads (`msclkid`) click id is present. */
  adClick: boolean;
  /** A referrer, `utm_source` or `utm_medium` is present. */
  referredOrTagged: boolean;
}

/** One line of the rule list; `when` is its human-readable condition. */
export interface ChannelRule {
  readonly channel: Channel;
  readonly when: string;
  readonly test: (signals: ChannelSignals) => boolean;
}

/** GA4's paid-medium pattern. */
const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
const DISPLAY_MEDIUMS = new Set(['display', 'banner', 'expandable', 'interstitial', 'cpm']);
/** GA4 has `affiliate` only; `partnership` is PostHog's addition, the same traffic under another word. */
const AFFILIATE_MEDIUMS = new Set(['affiliate', 'affiliates', 'partnership']);
const EMAIL_MEDIUMS = new Set(['email', 'e-mail', 'newsletter']);
const SOCIAL_MEDIUMS = new Set(['social', 'social-network', 'social-media', 'sm', 'organic-social']);
/** GA4's Organic Video medium pattern; video sites are social networks here (see above). */
const VIDEO_MEDIUM = /video/;
/** Mediums that name a channel themselves, so an ad-platform source does not make them paid. */
const CHANNEL_MEDIUMS = new Set([...DISPLAY_MEDIUMS, ...AFFILIATE_MEDIUMS, ...EMAIL_MEDIUMS, ...SOCIAL_MEDIUMS, 'organic', 'referral']);

/** The channel rules, in order; the first whose `test` holds decides. */
export const CHANNEL_RULES: readonly ChannelRule[] = [
  { channel: 'Display', when: 'ad click id from an ad server (Google Display Network)', test: (s) => s.adClick && s.category === 'ads' },
  { channel: 'Paid Social', when: 'ad click id from a social or video site (YouTube ads)', test: (s) => s.adClick && s.category === 'social' },
  { channel: 'Paid Search', when: 'gclid, gad_source or msclkid present', test: (s) => s.adClick },
  { channel: 'Paid Social', when: 'paid medium and social source', test: (s) => s.paid && s.category === 'social' },
  { channel: 'Paid Search', when: 'paid medium and search source', test: (s) => s.paid && s.category === 'search' },
  { channel: 'Display', when: 'medium display, banner, expandable, interstitial or cpm', test: (s) => DISPLAY_MEDIUMS.has(s.medium) },
  { channel: 'Display', when: 'paid medium, any other source (GA4 "Paid Other")', test: (s) => s.paid },
  { channel: 'Affiliates', when: 'medium affiliate, affiliates or partnership', test: (s) => AFFILIATE_MEDIUMS.has(s.medium) },
  { channel: 'Email', when: 'medium email, e-mail, e_mail, e mail or newsletter', test: (s) => EMAIL_MEDIUMS.has(s.medium) },
  { channel: 'Social', when: 'medium social, social-network, social-media, sm or organic-social', test: (s) => SOCIAL_MEDIUMS.has(s.medium) },
  { channel: 'Social', when: 'medium containing video (GA4 Organic Video)', test: (s) => VIDEO_MEDIUM.test(s.medium) },
  { channel: 'AI Assistants', when: 'AI assistant source', test: (s) => s.category === 'ai' },
  { channel: 'Email', when: 'email source (webmail referrer, utm_source email or newsletter)', test: (s) => s.category === 'email' },
  { channel: 'Social', when: 'social source, or fbclid alone', test: (s) => s.category === 'social' },
  { channel: 'Organic Search', when: 'search source, or medium organic', test: (s) => s.category === 'search' || s.medium === 'organic' },
  { channel: 'Display', when: 'ad-server source without a paid medium', test: (s) => s.category === 'ads' },
  { channel: 'Referral', when: 'any other referrer or UTM tag', test: (s) => s.referredOrTagged },
  { channel: 'Direct', when: 'no referrer, no UTM tag, no click id', test: () => true },
];

/**
 * The channel of a session.
 * @example classifyChannel({ referrerHost: 'news.google.com' }) // 'Organic Search'
 * @example classifyChannel({ referrerHost: null, utmSource: 'facebook', utmMedium: 'cpc' }) // 'Paid Social'
 * @example classifyChannel({ referrerHost: null }) // 'Direct'
 */
export function classifyChannel(input: ChannelInput): Channel {
  return explainChannel(input).channel;
}

/**
 * The rule of {@link CHANNEL_RULES} that decides a session's channel, for debugging and tests.
 * @example explainChannel({ referrerHost: 'chatgpt.com' }).when // 'AI assistant source'
 */
export function explainChannel(input: ChannelInput): ChannelRule {
  const signals = channelSignals(input);
  for (const rule of CHANNEL_RULES) if (rule.test(signals)) return rule;
  return CHANNEL_RULES[CHANNEL_RULES.length - 1]!; // unreachable: the last rule always holds
}

function channelSignals({ referrerHost, utmSource, utmMedium, clickIds }: ChannelInput): ChannelSignals {
  const source = utmSource?.trim() ?? '';
  const medium = (utmMedium?.trim() ?? '').toLowerCase().replace(/[\s_]+/g, '-');
  const referrer = referrerHost?.trim() ?? '';
  const category =
    (source === '' ? null : sourceCategory(source)) ??
    (referrer === '' ? null : hostCategory(stripWww(referrer.toLowerCase()))) ??
    (clickIds?.fbclid ? 'social' : null);
  // An ad platform's category is its network's (search or social), so other sources need no second look.
  const adPlatform =
    (category === 'search' || category === 'social') && source !== '' && !CHANNEL_MEDIUMS.has(medium) && adPlatformCategory(source) !== null;
  return {
    category,
    medium,
    paid: (medium !== '' && PAID_MEDIUM.test(medium)) || adPlatform,
    adClick: Boolean(clickIds?.gclid || clickIds?.gad_source || clickIds?.msclkid),
    referredOrTagged: referrer !== '' || source !== '' || medium !== '',
  };
}
