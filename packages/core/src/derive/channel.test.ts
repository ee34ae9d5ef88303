import { describe, expect, it } from 'vitest';
import type { Channel } from '../types.js';
import { CHANNEL_RULES, classifyChannel, explainChannel, type ChannelInput } from './channel.js';

const none = { referrerHost: null };

/** [what the case shows, input, expected channel], each checked by hand against the rules. */
const CASES: [string, ChannelInput, Channel][] = [
  // Direct and plain referrers
  ['nothing at all', none, 'Direct'],
  ['empty strings count as absent', { referrerHost: '', utmSource: '', utmMedium: ' ', clickIds: { gclid: '' } }, 'Direct'],
  ['unknown referrer', { referrerHost: 'blog.example.org' }, 'Referral'],
  ['package host without category (maps.google.com)', { referrerHost: 'maps.google.com' }, 'Referral'],
  ['supplement stops google.com for docs.google.com', { referrerHost: 'docs.google.com' }, 'Referral'],
  ['wikipedia is a referral in the package', { referrerHost: 'en.wikipedia.org' }, 'Referral'],
  // Search
  ['search engine host', { referrerHost: 'google.com' }, 'Organic Search'],
  ['country domain', { referrerHost: 'google.co.uk' }, 'Organic Search'],
  ['subdomain of a listed host', { referrerHost: 'news.google.com' }, 'Organic Search'],
  ['www. and case are ignored', { referrerHost: 'WWW.Bing.com' }, 'Organic Search'],
  ['utm_source names a search engine, any case', { referrerHost: null, utmSource: 'DuckDuckGo' }, 'Organic Search'],
  ['medium organic with an unknown source', { referrerHost: null, utmSource: 'spring', utmMedium: 'organic' }, 'Organic Search'],
  // Social
  ['social host', { referrerHost: 'm.facebook.com' }, 'Social'],
  ['link shim subdomain', { referrerHost: 'l.instagram.com' }, 'Social'],
  ['t.co', { referrerHost: 't.co' }, 'Social'],
  ['utm_source short form fb', { referrerHost: null, utmSource: 'fb' }, 'Social'],
  ['social medium beats a search source', { referrerHost: null, utmSource: 'google', utmMedium: 'social' }, 'Social'],
  ['fbclid alone is Facebook, not paid', { referrerHost: null, clickIds: { fbclid: 'IwAR0' } }, 'Social'],
  ['fbclid does not override a known referrer', { referrerHost: 'google.com', clickIds: { fbclid: 'x' } }, 'Organic Search'],
  ['social source beats medium organic (GA4 order)', { referrerHost: null, utmSource: 'facebook', utmMedium: 'organic' }, 'Social'],
  // Paid
  ['gclid', { referrerHost: 'google.com', clickIds: { gclid: 'abc' } }, 'Paid Search'],
  ['msclkid without referrer', { referrerHost: null, clickIds: { msclkid: 'abc' } }, 'Paid Search'],
  ['gad_source alone (gclid stripped by the browser)', { referrerHost: null, clickIds: { gad_source: '1' } }, 'Paid Search'],
  ['gclid from an ad server frame is a Display Network click', { referrerHost: 'abc.safeframe.googlesyndication.com', clickIds: { gclid: 'x' } }, 'Display'],
  ['gclid from YouTube is a video ad (GA4 Paid Video)', { referrerHost: 'youtube.com', clickIds: { gclid: 'x' } }, 'Paid Social'],
  ['ad platform as source without medium', { referrerHost: null, utmSource: 'google_ads' }, 'Paid Search'],
  ['ad platform spelt Google-ads', { referrerHost: null, utmSource: 'Google-ads' }, 'Paid Search'],
  ['adwords without medium', { referrerHost: null, utmSource: 'adwords' }, 'Paid Search'],
  ['facebook-ads without medium', { referrerHost: null, utmSource: 'facebook-ads' }, 'Paid Social'],
  ['an explicit medium still names the channel of an ad-platform source', { referrerHost: null, utmSource: 'google_ads', utmMedium: 'email' }, 'Email'],
  ['plain google without medium stays organic', { referrerHost: null, utmSource: 'google' }, 'Organic Search'],
  ['gclid beats any tags', { referrerHost: null, utmSource: 'newsletter', utmMedium: 'email', clickIds: { gclid: 'a' } }, 'Paid Search'],
  ['cpc from google', { referrerHost: null, utmSource: 'google', utmMedium: 'cpc' }, 'Paid Search'],
  ['paid medium, source from the referrer', { referrerHost: 'bing.com', utmMedium: 'PPC' }, 'Paid Search'],
  ['google_ads source name', { referrerHost: null, utmSource: 'Google Ads', utmMedium: 'cpc' }, 'Paid Search'],
  ['cpm counts as paid before display', { referrerHost: null, utmSource: 'google', utmMedium: 'cpm' }, 'Paid Search'],
  ['paid social', { referrerHost: null, utmSource: 'facebook', utmMedium: 'paid_social' }, 'Paid Social'],
  ['fbclid plus paid medium', { referrerHost: null, utmMedium: 'paid', clickIds: { fbclid: 'x' } }, 'Paid Social'],
  ['retargeting on instagram', { referrerHost: 'l.instagram.com', utmMedium: 'retargeting' }, 'Paid Social'],
  // Display, affiliates
  ['display medium', { referrerHost: null, utmSource: 'spring', utmMedium: 'banner' }, 'Display'],
  ['display medium with a social source is not Paid Social', { referrerHost: null, utmSource: 'facebook', utmMedium: 'display' }, 'Display'],
  ['paid medium, unknown source (GA4 Paid Other)', { referrerHost: null, utmSource: 'partner-x', utmMedium: 'cpc' }, 'Display'],
  ['ad server referrer', { referrerHost: 'ad.doubleclick.net' }, 'Display'],
  ['affiliate medium', { referrerHost: 'coupons.example', utmMedium: 'Affiliate' }, 'Affiliates'],
  ['partnership medium (as PostHog)', { referrerHost: 'foo.example', utmSource: 'foo', utmMedium: 'partnership' }, 'Affiliates'],
  ['video medium is Social (GA4 Organic Video folded in)', { referrerHost: null, utmSource: 'some-source', utmMedium: 'video' }, 'Social'],
  // Email
  ['email medium', { referrerHost: null, utmSource: 'weekly-digest', utmMedium: 'email' }, 'Email'],
  ['e_mail spelling', { referrerHost: null, utmMedium: 'E_Mail' }, 'Email'],
  ['e mail spelling', { referrerHost: null, utmMedium: 'e mail' }, 'Email'],
  ['newsletter medium', { referrerHost: null, utmMedium: 'newsletter' }, 'Email'],
  ['email medium beats a social source (departs from GA4)', { referrerHost: null, utmSource: 'linkedin', utmMedium: 'email' }, 'Email'],
  ['webmail referrer', { referrerHost: 'mail.google.com' }, 'Email'],
  ['utm_source newsletter', { referrerHost: null, utmSource: 'newsletter' }, 'Email'],
  ['utm_source names the source even with another referrer', { referrerHost: 'l.facebook.com', utmSource: 'newsletter' }, 'Email'],
  // AI assistants
  ['chatgpt.com referrer', { referrerHost: 'chatgpt.com' }, 'AI Assistants'],
  ['perplexity subdomain', { referrerHost: 'www.perplexity.ai' }, 'AI Assistants'],
  ['gemini is AI although google.com is search', { referrerHost: 'gemini.google.com' }, 'AI Assistants'],
  ['utm_source chatgpt.com, as ChatGPT tags links', { referrerHost: null, utmSource: 'chatgpt.com' }, 'AI Assistants'],
  ['AI source beats medium referral', { referrerHost: null, utmSource: 'claude', utmMedium: 'referral' }, 'AI Assistants'],
  // Fallbacks of tagged traffic
  ['unknown source name without referrer', { referrerHost: null, utmSource: 'spring-sale' }, 'Referral'],
  ['unknown source falls back to the referrer category', { referrerHost: 'l.facebook.com', utmSource: 'spring-sale' }, 'Social'],
  ['medium referral from an unknown source', { referrerHost: null, utmSource: 'partner', utmMedium: 'referral' }, 'Referral'],
];

describe('classifyChannel', () => {
  it.each(CASES)('%s', (_what, input, expected) => {
    expect(classifyChannel(input)).toBe(expected);
  });

  it('has a case for every rule of CHANNEL_RULES', () => {
    const used = new Set(CASES.map(([, input]) => explainChannel(input)));
    const unused = CHANNEL_RULES.filter((rule) => !used.has(rule)).map((rule) => rule.when);
    expect(unused).toEqual([]);
  });

  it('names a rule whose channel is the result', () => {
    for (const [, input] of CASES) expect(explainChannel(input).channel).toBe(classifyChannel(input));
  });
});
