/**
 * The written mapping from peers' channel and source-category names to ours
 * (decisions.md section 4 lists our ten channels). A peer's name maps to ours when both
 * mean the same traffic under our rules; a name with no counterpart in our contract is not
 * comparable and its cases are left out, counted and listed. docs/derivations.md explains
 * each line.
 */
import type { Channel } from '../../packages/core/src/types.js';
import type { SourceCategory } from '../../packages/core/src/derive/sources.js';

/** GA4 (dbt-ga4) and PostHog channel names -> ours; `null` = no counterpart in our contract. */
export const CHANNEL_NAMES: Readonly<Record<string, Channel | null>> = {
  Direct: 'Direct',
  'Organic Search': 'Organic Search',
  'Paid Search': 'Paid Search',
  'Organic Social': 'Social',
  'Paid Social': 'Paid Social',
  Email: 'Email',
  Referral: 'Referral',
  Display: 'Display',
  Affiliates: 'Affiliates',
  Affiliate: 'Affiliates', // PostHog's spelling
  // GA4 "Paid Other" (paid medium, source neither search, social, video nor shopping) is
  // folded into Display by our rules; PostHog calls the same thing "Paid Unknown".
  'Paid Other': 'Display',
  'Paid Unknown': 'Display',
  // Video platforms are social networks in our source list (YouTube, Vimeo, Twitch), so
  // GA4's video channels are our social ones.
  'Organic Video': 'Social',
  'Paid Video': 'Paid Social',
  // No counterpart: our contract has no shopping, cross-network, audio, SMS, push or
  // "unassigned" channel, and PostHog's "Unknown" is its label for sessions with no
  // attribution data at all (server-side events), which a page view always has.
  'Paid Shopping': null,
  'Organic Shopping': null,
  'Cross-network': null,
  'Cross Network': null,
  Audio: null,
  SMS: null,
  'Mobile Push Notifications': null,
  Unassigned: null,
  Unknown: null,
};

/** GA4's source categories (and PostHog's domain types) -> ours; `null` = no counterpart. */
export const SOURCE_CATEGORY_NAMES: Readonly<Record<string, SourceCategory | null>> = {
  SOURCE_CATEGORY_SEARCH: 'search',
  SOURCE_CATEGORY_SOCIAL: 'social',
  // Video sites are social networks in our list (see CHANNEL_NAMES).
  SOURCE_CATEGORY_VIDEO: 'social',
  // We have no shopping category: shopping sites are referrals.
  SOURCE_CATEGORY_SHOPPING: null,
  Search: 'search',
  Social: 'social',
  Video: 'social',
  Shopping: null,
};
