import { describe, expect, it } from 'vitest';
import type { Channel } from '../types.js';
import { CHANNEL_RULES, classifyChannel, explainChannel, type ChannelInput } from './channel.js';

const none = { referrerHost: null };

/**
 * [what the case shows, input, expected channel]. Each is checked by hand against GA4's
 * published rules (support.google.com/analytics/answer/9756891), read top-down, with the
 * contract's names (Organic Social/Video = Social, Paid Video = Paid Social, Paid Other =
 * Display), or against the rule marked "ours" that it names.
 */
const CASES: [string, ChannelInput, Channel][] = [
  // Direct and plain referrers
  ['nothing at all', none, 'Direct'],
  ['empty strings count as absent', { referrerHost: '', utmSource: '', utmMedium: ' ', clickIds: { gclid: '' } }, 'Direct'],
  ['unknown referrer', { referrerHost: 'blog.example.org' }, 'Referral'],
  ['host without category in Ghost\'s list (maps.google.com)', { referrerHost: 'maps.google.com' }, 'Referral'],
  ['supplement stops google.com for docs.google.com', { referrerHost: 'docs.google.com' }, 'Referral'],
  ['shopping site (GA4 Organic Shopping, no channel of ours)', { referrerHost: 'amazon.com' }, 'Referral'],
  // GA4 Organic Search: search source, or medium organic
  ['search engine host', { referrerHost: 'google.com' }, 'Organic Search'],
  ['country domain', { referrerHost: 'google.co.uk' }, 'Organic Search'],
  ['subdomain of a listed host', { referrerHost: 'news.google.com' }, 'Organic Search'],
  ['www. and case are ignored', { referrerHost: 'WWW.Bing.com' }, 'Organic Search'],
  ['utm_source names a search engine, any case', { referrerHost: null, utmSource: 'DuckDuckGo' }, 'Organic Search'],
  ['medium organic with an unknown source', { referrerHost: null, utmSource: 'spring', utmMedium: 'organic' }, 'Organic Search'],
  ['a search source beats an email medium (Organic Search comes before Email)', { referrerHost: null, utmSource: 'google', utmMedium: 'email' }, 'Organic Search'],
  // GA4 Organic Social: social source, or a social medium
  ['social host', { referrerHost: 'm.facebook.com' }, 'Social'],
  ['link shim subdomain', { referrerHost: 'l.instagram.com' }, 'Social'],
  ['community site GA4 lists as social', { referrerHost: 'stackoverflow.com' }, 'Social'],
  ['chat site GA4 lists as social', { referrerHost: 'chat.zalo.me' }, 'Social'],
  ['utm_source as GA4 lists it', { referrerHost: null, utmSource: 'Quora' }, 'Social'],
  ['social medium, space read as hyphen', { referrerHost: null, utmSource: 'spring', utmMedium: 'Social Media' }, 'Social'],
  ['social medium beats a search source (Organic Social comes first)', { referrerHost: null, utmSource: 'google', utmMedium: 'social' }, 'Social'],
  ['social source beats an email medium (GA4 order)', { referrerHost: null, utmSource: 'linkedin', utmMedium: 'email' }, 'Social'],
  ['social source beats medium referral', { referrerHost: null, utmSource: 'facebook', utmMedium: 'referral' }, 'Social'],
  ['fbclid alone is Facebook, not paid (ours)', { referrerHost: null, clickIds: { fbclid: 'IwAR0' } }, 'Social'],
  ['fbclid does not override a known referrer', { referrerHost: 'google.com', clickIds: { fbclid: 'x' } }, 'Organic Search'],
  ['fbclid names Facebook where the referrer names nothing', { referrerHost: 'in-app.example', clickIds: { fbclid: 'x' } }, 'Social'],
  // GA4 Organic Video: video source, or medium containing video
  ['video site', { referrerHost: 'm.youtube.com' }, 'Social'],
  // Subdomains, apps and app hosts of listed sources (sources.ts)
  ['LinkedIn\'s Android app', { referrerHost: 'com.linkedin.android' }, 'Social'],
  ['Facebook\'s Android app, by its publisher', { referrerHost: 'com.facebook.katana' }, 'Social'],
  ['YouTube\'s Android app (its package reads as google.com)', { referrerHost: 'com.google.android.youtube' }, 'Social'],
  ['Gmail\'s Android app', { referrerHost: 'com.google.android.gm' }, 'Email'],
  ['Slack\'s Android app', { referrerHost: 'com.slack' }, 'Social'],
  ['Slack in the browser', { referrerHost: 'app.slack.com' }, 'Social'],
  ['Teams\' desktop client', { referrerHost: 'statics.teams.cdn.office.net' }, 'Social'],
  ['Skype, named on Google\'s list', { referrerHost: 'join.skype.com' }, 'Social'],
  ['Messenger\'s short links', { referrerHost: 'm.me' }, 'Social'],
  ['a listed host under someone else\'s domain', { referrerHost: 'facebook.com.evil.test' }, 'Referral'],
  ['a look-alike domain', { referrerHost: 'notfacebook.com' }, 'Referral'],
  ['a package no list knows', { referrerHost: 'com.slackers' }, 'Referral'],
  ['documents are not chat', { referrerHost: 'notion.so' }, 'Referral'],
  ['video medium', { referrerHost: null, utmSource: 'some-source', utmMedium: 'video' }, 'Social'],
  // Ad click ids (ours: auto-tagging beats manual tags)
  ['gclid', { referrerHost: 'google.com', clickIds: { gclid: 'abc' } }, 'Paid Search'],
  ['msclkid without referrer', { referrerHost: null, clickIds: { msclkid: 'abc' } }, 'Paid Search'],
  ['gclid beats any tags', { referrerHost: null, utmSource: 'newsletter', utmMedium: 'email', clickIds: { gclid: 'a' } }, 'Paid Search'],
  ['gclid from an ad server frame is a Display Network click', { referrerHost: 'abc.safeframe.googlesyndication.com', clickIds: { gclid: 'x' } }, 'Display'],
  ['gclid from YouTube is a video ad (GA4 Paid Video)', { referrerHost: 'youtube.com', clickIds: { gclid: 'x' } }, 'Paid Social'],
  ['gclid with a video utm_source is a video ad', { referrerHost: null, utmSource: 'youtube', clickIds: { gclid: 'x' } }, 'Paid Social'],
  ['gbraid (Google Ads on iOS) without referrer', { referrerHost: null, clickIds: { gbraid: 'x' } }, 'Paid Search'],
  ['msclkid from Bing', { referrerHost: 'bing.com', clickIds: { msclkid: 'x' } }, 'Paid Search'],
  ['dclid is a display ad (Display & Video 360)', { referrerHost: null, clickIds: { dclid: 'x' } }, 'Display'],
  ['ttclid without referrer is a TikTok ad', { referrerHost: null, clickIds: { ttclid: 'x' } }, 'Paid Social'],
  ['ttclid from the TikTok app', { referrerHost: 'com.zhiliaoapp.musically', clickIds: { ttclid: 'x' } }, 'Paid Social'],
  ['li_fat_id from a site no list knows (a publisher showing LinkedIn ads)', { referrerHost: 'news.example', clickIds: { li_fat_id: 'x' } }, 'Paid Social'],
  // Click ids arriving from a known source of someone else: the link was copied there, the referrer decides
  ['gclid from Bing is Bing\'s organic result', { referrerHost: 'bing.com', clickIds: { gclid: 'x' } }, 'Organic Search'],
  ['gclid from DuckDuckGo', { referrerHost: 'duckduckgo.com', clickIds: { gclid: 'x' } }, 'Organic Search'],
  ['msclkid from Google', { referrerHost: 'google.de', clickIds: { msclkid: 'x' } }, 'Organic Search'],
  ['gclid from Facebook', { referrerHost: 'l.facebook.com', clickIds: { gclid: 'x' } }, 'Social'],
  ['msclkid from DuckDuckGo with the tags Microsoft adds', { referrerHost: 'duckduckgo.com', utmSource: 'bing', utmMedium: 'cpc', clickIds: { msclkid: 'x' } }, 'Paid Search'],
  // GA4 Paid Search / Paid Social / Paid Video: source category and ^(.*cp.*|ppc|retargeting|paid.*)$
  ['cpc from google', { referrerHost: null, utmSource: 'google', utmMedium: 'cpc' }, 'Paid Search'],
  ['paid medium, source from the referrer (ours)', { referrerHost: 'bing.com', utmMedium: 'PPC' }, 'Paid Search'],
  ['cpm is paid, and Paid Search comes before Display', { referrerHost: null, utmSource: 'google', utmMedium: 'cpm' }, 'Paid Search'],
  ['paid social', { referrerHost: null, utmSource: 'facebook', utmMedium: 'paid_social' }, 'Paid Social'],
  ['retargeting on instagram', { referrerHost: 'l.instagram.com', utmMedium: 'retargeting' }, 'Paid Social'],
  ['fbclid plus paid medium', { referrerHost: null, utmMedium: 'paid', clickIds: { fbclid: 'x' } }, 'Paid Social'],
  ['paid video', { referrerHost: null, utmSource: 'youtube.com', utmMedium: 'paid-something' }, 'Paid Social'],
  // Ad platforms in utm_source (ours): paid on their network unless the medium names another channel
  ['google_ads without medium', { referrerHost: null, utmSource: 'google_ads' }, 'Paid Search'],
  ['adwords without medium', { referrerHost: null, utmSource: 'adwords' }, 'Paid Search'],
  ['fb_ad without medium', { referrerHost: null, utmSource: 'fb_ad' }, 'Paid Social'],
  ['tiktok_ads with an unknown medium', { referrerHost: null, utmSource: 'tiktok_ads', utmMedium: 'feed' }, 'Paid Social'],
  ['ad platform with a paid medium', { referrerHost: null, utmSource: 'linkedin-ads', utmMedium: 'cpc' }, 'Paid Social'],
  ['an email medium names the channel of an ad-platform source', { referrerHost: null, utmSource: 'google_ads', utmMedium: 'email' }, 'Email'],
  ['an ad platform\'s name beats the referrer', { referrerHost: 'google.com', utmSource: 'facebook-ads' }, 'Paid Social'],
  ['plain google without medium stays organic', { referrerHost: null, utmSource: 'google' }, 'Organic Search'],
  // GA4 Display, Paid Other, Paid Shopping
  ['display medium', { referrerHost: null, utmSource: 'spring', utmMedium: 'banner' }, 'Display'],
  ['display medium with a video source (Display before Paid Other)', { referrerHost: null, utmSource: 'youtube.com', utmMedium: 'display' }, 'Display'],
  ['paid medium, unknown source (GA4 Paid Other)', { referrerHost: null, utmSource: 'partner-x', utmMedium: 'cpc' }, 'Display'],
  ['paid medium, shopping source (GA4 Paid Shopping)', { referrerHost: null, utmSource: 'ebay', utmMedium: 'ppc' }, 'Display'],
  ['ad server referrer without tags (ours)', { referrerHost: 'ad.doubleclick.net' }, 'Display'],
  // AI assistants (ours), ranked with the organic source categories
  ['chatgpt.com referrer', { referrerHost: 'chatgpt.com' }, 'AI Assistants'],
  ['short domain', { referrerHost: 'pplx.ai' }, 'AI Assistants'],
  ['gemini is AI although google.com is search', { referrerHost: 'gemini.google.com' }, 'AI Assistants'],
  ['utm_source chatgpt.com, as ChatGPT tags links', { referrerHost: null, utmSource: 'chatgpt.com' }, 'AI Assistants'],
  ['AI source beats medium referral', { referrerHost: null, utmSource: 'claude', utmMedium: 'referral' }, 'AI Assistants'],
  ['AI referrer with medium referral', { referrerHost: 'chatgpt.com', utmMedium: 'referral' }, 'AI Assistants'],
  // GA4 Referral: medium referral, app or link
  ['medium referral from an unknown source', { referrerHost: null, utmSource: 'partner', utmMedium: 'referral' }, 'Referral'],
  ['medium app', { referrerHost: null, utmMedium: 'app' }, 'Referral'],
  ['Referral comes before Email', { referrerHost: null, utmSource: 'newsletter', utmMedium: 'referral' }, 'Referral'],
  // GA4 Email: source or medium contains email, e-mail, e_mail or e mail
  ['email medium', { referrerHost: null, utmSource: 'weekly-digest', utmMedium: 'email' }, 'Email'],
  ['e_mail spelling', { referrerHost: null, utmMedium: 'E_Mail' }, 'Email'],
  ['e mail spelling', { referrerHost: null, utmMedium: 'e mail' }, 'Email'],
  ['medium containing email', { referrerHost: null, utmMedium: 'email-campaign' }, 'Email'],
  ['source containing email', { referrerHost: null, utmSource: 'hs_email' }, 'Email'],
  ['source email', { referrerHost: null, utmSource: 'email' }, 'Email'],
  ['email medium: the referrer has no say', { referrerHost: 'l.facebook.com', utmMedium: 'email' }, 'Email'],
  ['unknown source with email medium: the referrer has no say', { referrerHost: 'bing.com', utmSource: 'weekly-digest', utmMedium: 'email' }, 'Email'],
  // Email (ours): webmail or email-service sources, tags naming a newsletter or mail
  ['webmail referrer', { referrerHost: 'mail.google.com' }, 'Email'],
  ['webmail by its subdomain', { referrerHost: 'mail.ionos.de' }, 'Email'],
  ['email service by name', { referrerHost: null, utmSource: 'Klaviyo' }, 'Email'],
  ['utm_source newsletter', { referrerHost: null, utmSource: 'newsletter' }, 'Email'],
  ['utm_source naming a newsletter, with a social referrer', { referrerHost: 'l.facebook.com', utmSource: 'weekly-newsletter' }, 'Email'],
  ['medium newsletter', { referrerHost: null, utmMedium: 'newsletter' }, 'Email'],
  ['medium mail', { referrerHost: null, utmSource: 'spring', utmMedium: 'mail' }, 'Email'],
  ['source starting with mail', { referrerHost: null, utmSource: 'mailchimp' }, 'Email'],
  ['mail inside a word is not mail', { referrerHost: null, utmSource: 'dailymail' }, 'Referral'],
  // GA4 Affiliates
  ['affiliate medium', { referrerHost: 'coupons.example', utmMedium: 'Affiliate' }, 'Affiliates'],
  ['partnership medium (ours, as PostHog)', { referrerHost: 'foo.example', utmSource: 'foo', utmMedium: 'partnership' }, 'Affiliates'],
  ['affiliate medium: a search referrer has no say', { referrerHost: 'bing.com', utmSource: 'foo', utmMedium: 'affiliate' }, 'Affiliates'],
  // GA4 Unassigned, which the contract lacks (ours: Referral)
  ['unknown source name without referrer', { referrerHost: null, utmSource: 'spring-sale' }, 'Referral'],
  ['unknown medium without referrer (GA4 SMS)', { referrerHost: null, utmMedium: 'sms' }, 'Referral'],
  ['unknown source: the referrer decides (ours)', { referrerHost: 'l.facebook.com', utmSource: 'spring-sale' }, 'Social'],
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

  it('cites where every rule comes from', () => {
    for (const rule of CHANNEL_RULES) expect(rule.basis).toMatch(/^(GA4 default channel group: |ours: )/);
  });
});
