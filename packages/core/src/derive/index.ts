/**
 * Derivations of session attributes from raw event inputs (decisions.md sections 4 and 8):
 * page path and campaign parameters, referrer source, channel, device, country, bots.
 * All pure and synchronous apart from the lazily opened country database.
 */
export { parsePageUrl, CAMPAIGN_PARAM_NAMES, type CampaignParams, type PageUrl } from './url.js';
export { referrerHost, referrerSource, DIRECT_NONE } from './referrer.js';
export {
  classifyChannel,
  explainChannel,
  CHANNEL_RULES,
  type ChannelInput,
  type ChannelRule,
  type ChannelSignals,
} from './channel.js';
export { sourceCategory, hostCategory, type SourceCategory } from './sources.js';
export { parseUserAgent, type DeviceInfo, type DeviceType } from './user-agent.js';
export { lookupCountry, countryName, normalizeCountryCode, UNKNOWN_COUNTRY_CODE } from './geo.js';
export { countryCodeOfName } from './country-names.js';
export { isBotUserAgent } from './bots.js';
