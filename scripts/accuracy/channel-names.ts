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
  'AI Assistants': 'AI Assistants', // Plausible's channel, as ours
  AI: 'AI Assistants', // Rybbit's name for it
  // GA4 "Paid Other" (paid medium, source neither search, social, video nor shopping) is
  // folded into Display by our rules; PostHog calls the same thing "Paid Unknown".
  'Paid Other': 'Display',
  'Paid Unknown': 'Display',
  // The contract has no video channels: our rules (derive/channel-rules.ts) file video
  // sources and a medium containing `video` under Social and Paid Social.
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
  'Paid AI': null, // Rybbit: a paid medium from an AI assistant; our contract has no paid AI channel
  Event: null, // Rybbit: utm_medium event, seminar, webinar
};

/** GA4's source categories (and PostHog's domain types) -> ours, which keep GA4's four. */
export const SOURCE_CATEGORY_NAMES: Readonly<Record<string, SourceCategory | null>> = {
  SOURCE_CATEGORY_SEARCH: 'search',
  SOURCE_CATEGORY_SOCIAL: 'social',
  SOURCE_CATEGORY_VIDEO: 'video',
  SOURCE_CATEGORY_SHOPPING: 'shopping',
  Search: 'search',
  Social: 'social',
  Video: 'video',
  Shopping: 'shopping',
};
