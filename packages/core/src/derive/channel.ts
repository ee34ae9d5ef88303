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
 * - `gclid`/`msclkid` mean Paid Search whatever the tags say (GA4 auto-tagging also
 *   overrides manual tags). `fbclid` is not paid: Facebook adds it to every outbound link,
 *   so it only makes the source Facebook (Social) when nothing else names a source.
 * - No Video, Shopping, Audio, SMS, Push or Unassigned channels: video sites are Social
 *   (the source list counts YouTube and Vimeo as social networks), `utm_medium=organic`
 *   is Organic Search, and tagged or referred traffic matching no rule is Referral (someone
 *   did name a source, so it is not Direct).
 */
import type { Channel } from '../types.js';
import { stripWww } from './host.js';
import { hostCategory, sourceCategory, type SourceCategory } from './sources.js';

/** What {@link classifyChannel} reads. Empty strings count as absent. */
export interface ChannelInput {
  /** Referring host (as from `referrerHost`); `null` for none and for self-referrals. */
  referrerHost: string | null;
  utmSource?: string;
  utmMedium?: string;
  clickIds?: { gclid?: string; msclkid?: string; fbclid?: string };
}

/** The facts the rules test, derived once per call. */
export interface ChannelSignals {
  /** Of `utm_source` if it names a known source, else of the referrer, else `social` for a lone `fbclid`. */
  category: SourceCategory | null;
  /** `utm_medium` lower-cased, runs of `_` and spaces read as `-` (`E_Mail` -> `e-mail`). */
  medium: string;
  /** The medium matches GA4's paid pattern. */
  paid: boolean;
  /** A Google or Microsoft Ads click id is present. */
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
const AFFILIATE_MEDIUMS = new Set(['affiliate', 'affiliates']);
const EMAIL_MEDIUMS = new Set(['email', 'e-mail', 'newsletter']);
const SOCIAL_MEDIUMS = new Set(['social', 'social-network', 'social-media', 'sm', 'organic-social']);

/** The channel rules, in order; the first whose `test` holds decides. */
export const CHANNEL_RULES: readonly ChannelRule[] = [
  { channel: 'Paid Search', when: 'gclid or msclkid present', test: (s) => s.adClick },
  { channel: 'Paid Social', when: 'paid medium and social source', test: (s) => s.paid && s.category === 'social' },
  { channel: 'Paid Search', when: 'paid medium and search source', test: (s) => s.paid && s.category === 'search' },
  { channel: 'Display', when: 'medium display, banner, expandable, interstitial or cpm', test: (s) => DISPLAY_MEDIUMS.has(s.medium) },
  { channel: 'Display', when: 'paid medium, any other source (GA4 "Paid Other")', test: (s) => s.paid },
  { channel: 'Affiliates', when: 'medium affiliate', test: (s) => AFFILIATE_MEDIUMS.has(s.medium) },
  { channel: 'Email', when: 'medium email, e-mail, e_mail, e mail or newsletter', test: (s) => EMAIL_MEDIUMS.has(s.medium) },
  { channel: 'Social', when: 'medium social, social-network, social-media, sm or organic-social', test: (s) => SOCIAL_MEDIUMS.has(s.medium) },
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
  return {
    category,
    medium,
    paid: medium !== '' && PAID_MEDIUM.test(medium),
    adClick: Boolean(clickIds?.gclid || clickIds?.msclkid),
    referredOrTagged: referrer !== '' || source !== '' || medium !== '',
  };
}
