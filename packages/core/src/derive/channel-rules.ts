/**
 * The channel rules of decisions.md section 4: Google Analytics 4's default channel group
 * (support.google.com/analytics/answer/9756891, "GA4" below), read top-down, first match
 * wins, with GA4's channels named as the contract names them. Each rule says where it comes
 * from (`basis`). Where GA4 has a channel the contract lacks, the contract wins:
 * - Organic Video and Paid Video are Social and Paid Social (video sites are social media);
 * - Paid Other and Paid Shopping are Display (paid traffic from no search or social source);
 * - Organic Shopping, Audio, SMS, Mobile Push Notifications, Cross-network and Unassigned
 *   have no rule of their own: such traffic takes the rule it otherwise matches, and at
 *   worst the last two (Referral when anything names a source, else Direct).
 * Rules marked "ours" add what GA4 reads from data we do not have (its Google Ads link) or
 * the contract's AI Assistants channel; docs/derivations.md lists them with their reasons.
 */
import type { Channel } from '../types.js';
import type { AdKind } from './click-ids.js';
import type { SourceCategory } from './sources.js';

/** The facts the rules test, derived once per call of `classifyChannel` (channel.ts). */
export interface ChannelSignals {
  /**
   * Category of the `utm_source`; else of the ad platform it names, when paid; else, when
   * the tags name neither a source nor the channel, of the referrer, or what a click id's
   * platform says (`social` for a lone `fbclid`; see channel.ts).
   */
  category: SourceCategory | null;
  /** `utm_medium` lower-cased, runs of `_` and spaces read as `-` (`Social Media` -> `social-media`). */
  medium: string;
  /** GA4's "source": the `utm_source` lower-cased, else the referring host, else empty. */
  source: string;
  /** `utm_source` lower-cased (empty when absent). */
  utmSource: string;
  /** GA4's paid medium, or an ad platform's name as the source with no other channel's medium. */
  paid: boolean;
  /**
   * The kind of ad click a click id proves where its platform could have placed the click
   * (`gclid` from Google, from YouTube or with no referrer; not from bing.com), else `null`
   * (click-ids.ts).
   */
  adClick: AdKind | null;
  /** A referrer, `utm_source` or `utm_medium` is present. */
  referredOrTagged: boolean;
}

/** One line of the rule list. */
export interface ChannelRule {
  readonly channel: Channel;
  /** The condition, in words. */
  readonly when: string;
  /** Where the rule comes from: GA4's channel of that name, or "ours: <reason>". */
  readonly basis: string;
  readonly test: (signals: ChannelSignals) => boolean;
}

/** GA4's paid-medium pattern (Paid Shopping, Search, Social, Video and Other). */
const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
/** GA4 Display: medium is one of these. */
const DISPLAY_MEDIUMS = new Set(['display', 'banner', 'expandable', 'interstitial', 'cpm']);
/** GA4 Organic Social's mediums (`social network`, `social media` as normalised); `organic-social` is ours. */
const SOCIAL_MEDIUMS = new Set(['social', 'social-network', 'social-media', 'sm', 'organic-social']);
/** GA4 Organic Video: medium matches `^(.*video.*)$`. */
const VIDEO_MEDIUM = /video/;
/** GA4 Referral: medium is one of these. */
const REFERRAL_MEDIUMS = new Set(['referral', 'app', 'link']);
/** GA4 Email: source or medium matches `email|e-mail|e_mail|e mail` (a partial match, as GA4's unanchored patterns are). */
const GA4_EMAIL = /e[-_ ]?mail/;
/** Ours: a tag naming a newsletter or a word starting with `mail` (`mailing`, `mailchimp`, `direct_mail`). */
const NEWSLETTER_OR_MAIL = /newsletter|(?:^|[^a-z0-9])mail/;
/** GA4 Affiliates: `affiliate` (its earlier text: `affiliate|affiliates`); `partnership` is ours, as in PostHog. */
const AFFILIATE_MEDIUMS = new Set(['affiliate', 'affiliates', 'partnership']);

/** A tag naming email: GA4's email pattern, or ours (newsletter, mail). */
const namesEmail = (tag: string) => GA4_EMAIL.test(tag) || NEWSLETTER_OR_MAIL.test(tag);

/** The medium's own statement in GA4's rules, each pattern written once. */
export const MEDIUM_SAYS = {
  paid: (medium: string) => medium !== '' && PAID_MEDIUM.test(medium),
  display: (medium: string) => DISPLAY_MEDIUMS.has(medium),
  social: (medium: string) => SOCIAL_MEDIUMS.has(medium),
  video: (medium: string) => VIDEO_MEDIUM.test(medium),
  organic: (medium: string) => medium === 'organic',
  referral: (medium: string) => REFERRAL_MEDIUMS.has(medium),
  email: namesEmail,
  affiliate: (medium: string) => AFFILIATE_MEDIUMS.has(medium),
};

/**
 * Whether the medium is one that a rule below reads for a channel of its own (`email`,
 * `social`, `referral`, `display`, ...). A paid medium is not: which paid channel it is
 * depends on the source. Then an ad platform's name as the source does not make it paid.
 * @example mediumNamesChannel('email') // true
 * @example mediumNamesChannel('cpc') // false
 */
export function mediumNamesChannel(medium: string): boolean {
  if (medium === '' || MEDIUM_SAYS.paid(medium)) return false;
  return Object.values(MEDIUM_SAYS).some((says) => says(medium));
}

/**
 * Whether the tags name the channel so plainly that where the link was clicked (the
 * referrer, a lone `fbclid`) has no say: a medium naming a channel other than `organic`
 * and `referral` (GA4 gives those two to untagged search and referral visits, whose channel
 * still follows the source), or an unpaid `utm_source` naming email (`newsletter`).
 * Both arguments lower-cased, the medium normalised as {@link ChannelSignals.medium}.
 * @example tagsNameChannel('', 'email') // true
 * @example tagsNameChannel('weekly-newsletter', '') // true
 * @example tagsNameChannel('', 'referral') // false
 */
export function tagsNameChannel(utmSource: string, medium: string): boolean {
  if (MEDIUM_SAYS.paid(medium)) return false;
  if (namesEmail(utmSource)) return true;
  return mediumNamesChannel(medium) && !MEDIUM_SAYS.organic(medium) && !MEDIUM_SAYS.referral(medium);
}

const GA4 = 'GA4 default channel group';
const isSocialOrVideo = (s: ChannelSignals) => s.category === 'social' || s.category === 'video';

/** The channel rules, in order; the first whose `test` holds decides. */
export const CHANNEL_RULES: readonly ChannelRule[] = [
  { channel: 'Display', when: 'ad click id of a display platform (dclid), or any ad click id from an ad server', basis: 'ours: auto-tagged click from the Google Display Network (GA4 reads its network from Google Ads: Display)', test: (s) => s.adClick === 'display' || (s.adClick !== null && s.category === 'ads') },
  { channel: 'Paid Social', when: 'ad click id of a social platform (ttclid, li_fat_id, ...), or any ad click id from a social or video source', basis: 'ours: auto-tagged click on a YouTube ad (GA4 reads its network from Google Ads: Paid Video) or a social network\'s ad', test: (s) => s.adClick === 'social' || (s.adClick !== null && isSocialOrVideo(s)) },
  { channel: 'Paid Search', when: 'any other ad click id: a search platform\'s (gclid, gbraid, wbraid, gad_source, msclkid, yclid)', basis: 'ours: an auto-tagged ad click beats manual tags, as in GA4 (support.google.com/analytics/answer/11259997)', test: (s) => s.adClick !== null },
  { channel: 'Paid Search', when: 'search source and paid medium', basis: `${GA4}: Paid Search`, test: (s) => s.paid && s.category === 'search' },
  { channel: 'Paid Social', when: 'social or video source and paid medium', basis: `${GA4}: Paid Social, Paid Video`, test: (s) => s.paid && isSocialOrVideo(s) },
  { channel: 'Display', when: 'medium display, banner, expandable, interstitial or cpm', basis: `${GA4}: Display`, test: (s) => MEDIUM_SAYS.display(s.medium) },
  { channel: 'Display', when: 'paid medium, any other source', basis: `${GA4}: Paid Other, Paid Shopping`, test: (s) => s.paid },
  { channel: 'AI Assistants', when: 'AI assistant source', basis: 'ours: the contract\'s channel GA4 lacks, ranked with the organic source categories', test: (s) => s.category === 'ai' },
  { channel: 'Social', when: 'social source, or medium social, social-network, social-media, sm', basis: `${GA4}: Organic Social`, test: (s) => s.category === 'social' || MEDIUM_SAYS.social(s.medium) },
  { channel: 'Social', when: 'video source, or medium containing video', basis: `${GA4}: Organic Video`, test: (s) => s.category === 'video' || MEDIUM_SAYS.video(s.medium) },
  { channel: 'Organic Search', when: 'search source, or medium organic', basis: `${GA4}: Organic Search`, test: (s) => s.category === 'search' || MEDIUM_SAYS.organic(s.medium) },
  { channel: 'Referral', when: 'medium referral, app or link', basis: `${GA4}: Referral`, test: (s) => MEDIUM_SAYS.referral(s.medium) },
  { channel: 'Email', when: 'source or medium containing email, e-mail, e_mail or e mail', basis: `${GA4}: Email`, test: (s) => GA4_EMAIL.test(s.source) || GA4_EMAIL.test(s.medium) },
  { channel: 'Email', when: 'webmail or email-service source, or a tag naming a newsletter or mail', basis: 'ours: GA4 leaves these Referral or Unassigned', test: (s) => s.category === 'email' || NEWSLETTER_OR_MAIL.test(s.utmSource) || NEWSLETTER_OR_MAIL.test(s.medium) },
  { channel: 'Affiliates', when: 'medium affiliate, affiliates or partnership', basis: `${GA4}: Affiliates`, test: (s) => MEDIUM_SAYS.affiliate(s.medium) },
  { channel: 'Display', when: 'ad-server source without a paid medium', basis: 'ours: a click in an ad frame', test: (s) => s.category === 'ads' },
  { channel: 'Referral', when: 'any other referrer or UTM tag', basis: `ours: GA4 Unassigned (the contract has none); someone named a source, so it is not Direct`, test: (s) => s.referredOrTagged },
  { channel: 'Direct', when: 'no referrer, no UTM tag, no click id', basis: `${GA4}: Direct`, test: () => true },
];
