/**
 * Channel of a session (decisions.md section 4): the inputs are reduced to signals (see
 * {@link ChannelSignals}); then {@link CHANNEL_RULES} (channel-rules.ts), GA4's default
 * channel group in the contract's names, is read top-down and the first matching rule decides.
 *
 * The source category is GA4's "source" read as GA4 reads it: a `utm_source` names the
 * source and the referrer is then ignored (GA4's manual tags replace the referrer). Where
 * GA4 would be left without a source category, where the link was clicked fills in: the
 * referrer's category (sources.ts matches hosts, apps and subdomains to the lists), else
 * what a click id's platform says (`fbclid`: Facebook, social, never paid: Facebook adds it
 * to every outbound link). Only when the `utm_source` is absent or names nothing we know,
 * and the tags do not name the channel themselves (`utm_medium=email`, `affiliate`,
 * `social`, `utm_source=newsletter`; see `tagsNameChannel`): `utm_medium=cpc` from bing.com
 * is Paid Search, `utm_source=spring` from l.facebook.com is Social. An ad platform's name
 * (`utm_source=google_ads`, ad-platforms.ts) is paid traffic on its network unless the
 * medium names another channel. An ad click id counts where its platform could have placed
 * the click (click-ids.ts): `gclid` from bing.com is Bing's organic result.
 * docs/derivations.md measures these rules against other projects' own test cases.
 */
import type { Channel } from '../types.js';
import { adPlatformCategory } from './ad-platforms.js';
import { CHANNEL_RULES, MEDIUM_SAYS, mediumNamesChannel, tagsNameChannel, type ChannelRule, type ChannelSignals } from './channel-rules.js';
import { adClick, clickedOnCategory, type ClickIds } from './click-ids.js';
import { stripWww } from './host.js';
import { matchHost, sourceCategory } from './sources.js';

export { CHANNEL_RULES, type ChannelRule, type ChannelSignals } from './channel-rules.js';

/** What {@link classifyChannel} reads. Empty strings count as absent. */
export interface ChannelInput {
  /** Referring host (as from `referrerHost`); `null` for none and for self-referrals. */
  referrerHost: string | null;
  utmSource?: string;
  utmMedium?: string;
  /** Click ids from the landing URL (`parsePageUrl(...).params` can be passed as it is). */
  clickIds?: ClickIds;
}

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
  const source = utmSource?.trim().toLowerCase() ?? '';
  const medium = (utmMedium?.trim() ?? '').toLowerCase().replace(/[\s_]+/g, '-');
  const referrer = stripWww(referrerHost?.trim().toLowerCase() ?? '');
  const referrerMatch = referrer === '' ? null : matchHost(referrer);
  const platform = source === '' ? null : adPlatformCategory(source);
  // An ad platform's name makes the traffic paid unless the medium names another channel.
  const adNetwork = mediumNamesChannel(medium) ? null : platform;
  // Where the link was clicked counts only when the tags name neither a source nor the channel.
  const clickedOn = platform !== null || tagsNameChannel(source, medium) ? null : (referrerMatch?.category ?? clickedOnCategory(clickIds));
  const paid = MEDIUM_SAYS.paid(medium) || adNetwork !== null;
  const category = (source === '' ? null : sourceCategory(source)) ?? adNetwork ?? clickedOn;
  return {
    category,
    medium,
    source: source || referrer,
    utmSource: source,
    paid,
    adClick: adClick(clickIds, referrerMatch),
    referredOrTagged: referrer !== '' || source !== '' || medium !== '',
  };
}
