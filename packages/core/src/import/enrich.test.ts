import { describe, expect, it } from 'vitest';
import type { Channel, Site } from '../types.js';
import { enrichEvent, type IncomingEvent } from './enrich.js';

const SITE: Site = { id: 'ST-s', name: 'S', timezone: 'UTC', domain: 'site.example', accountId: null } as Site;
const enrich = (event: Partial<IncomingEvent>) => enrichEvent(SITE, { ts: 0, type: 'pageview', url: '/', ...event }, () => 'salt', 0);

/**
 * Issue 14's channel defects, each from the landing URL and Referer a browser would send,
 * through the same code the import and the collector run. [what, landing URL, referrer, channel]
 */
const CHANNEL_CASES: [string, string, string, Channel][] = [
  // msclkid alone was skipped by the URL parser's pre-check (it tested `clid`): Organic Search.
  ['Bing ad click with only msclkid', 'https://site.example/?msclkid=8f3c', 'https://www.bing.com/', 'Paid Search'],
  // The package lists these only as www.<host> while lookups strip www.: they were Referral.
  ['Qwant', 'https://site.example/', 'https://www.qwant.com/?q=x', 'Organic Search'],
  ['360 Search (www.so.com)', 'https://site.example/', 'https://www.so.com/s?q=x', 'Organic Search'],
  ['Exalead', 'https://site.example/', 'https://www.exalead.com/search/web/results/?q=x', 'Organic Search'],
  ['Baidu (its hand-added patch is gone)', 'https://site.example/', 'https://www.baidu.com/link?url=abc', 'Organic Search'],
  ['Yahoo Japan (its hand-added patch is gone)', 'https://site.example/', 'https://www.yahoo.co.jp/', 'Organic Search'],
  // Ad-platform names without a paid medium were Organic Search or Social.
  ['utm_source=google_ads', 'https://site.example/?utm_source=google_ads', '', 'Paid Search'],
  ['utm_source=Google-ads', 'https://site.example/?utm_source=Google-ads', '', 'Paid Search'],
  ['utm_source=adwords', 'https://site.example/?utm_source=adwords', '', 'Paid Search'],
  ['utm_source=facebook-ads', 'https://site.example/?utm_source=facebook-ads', 'https://l.facebook.com/', 'Paid Social'],
  // Data gaps.
  ['Sogou', 'https://site.example/', 'https://www.sogou.com/web?query=x', 'Organic Search'],
  ['MSN', 'https://site.example/', 'https://www.msn.com/en-us/news', 'Organic Search'],
  ["Edge's new-tab page", 'https://site.example/', 'https://ntp.msn.com/edge/ntp?query=x', 'Organic Search'],
  ['display ad in a SafeFrame, untagged', 'https://site.example/', 'https://2bb5cd7f10ba63d8.safeframe.googlesyndication.com/', 'Display'],
  ['doubleclick host the package does not list', 'https://site.example/', 'https://adclick.g.doubleclick.net/', 'Display'],
  ['GMX webmail (its link redirector)', 'https://site.example/', 'https://deref-gmx.net/mail/client/abc/dereferrer/?redirectUrl=x', 'Email'],
  ['Web.de webmail (its link redirector)', 'https://site.example/', 'https://deref-web.de/mail/client/abc/dereferrer/?redirectUrl=x', 'Email'],
  ['T-Online webmail', 'https://site.example/', 'https://email.t-online.de/em', 'Email'],
  ['Ionos webmail', 'https://site.example/', 'https://mail.ionos.de/', 'Email'],
  ['Orange webmail', 'https://site.example/', 'https://mail.orange.fr/appsuite/', 'Email'],
  ['utm_source=telegram', 'https://site.example/?utm_source=telegram', '', 'Social'],
  ['utm_source=snapchat', 'https://site.example/?utm_source=snapchat', '', 'Social'],
  ['utm_source=messenger', 'https://site.example/?utm_source=messenger', '', 'Social'],
  ['utm_source=twitch', 'https://site.example/?utm_source=twitch', '', 'Social'],
  ['utm_source=line', 'https://site.example/?utm_source=line', '', 'Social'],
  ['utm_source=wechat', 'https://site.example/?utm_source=wechat', '', 'Social'],
  ['Medium', 'https://site.example/', 'https://medium.com/@someone/a-post-1a2b3c', 'Social'],
  ['a WordPress.com blog', 'https://site.example/', 'https://someone.wordpress.com/2026/01/01/post/', 'Social'],
  ['Blogger', 'https://site.example/', 'https://www.blogger.com/', 'Social'],
  ['Pinterest UK', 'https://site.example/', 'https://www.pinterest.co.uk/', 'Social'],
  // gad_source survives where browsers strip gclid.
  ['gad_source alone', 'https://site.example/shoes?gad_source=1', '', 'Paid Search'],
  ['gad_source with an unpaid-looking medium (Performance Max)', 'https://site.example/shoes?gad_source=1&utm_source=google&utm_medium=pmax', '', 'Paid Search'],
  // Where an auto-tagged click came from names its channel.
  ['gclid from a display ad frame', 'https://site.example/?gclid=EAIaIQob', 'https://2bb5cd7f10ba63d8.safeframe.googlesyndication.com/', 'Display'],
  ['gclid from YouTube', 'https://site.example/?gclid=CjwKCAiA', 'https://www.youtube.com/', 'Paid Social'],
  ['gclid from Google', 'https://site.example/?gclid=CjwKCAiA', 'https://www.google.com/', 'Paid Search'],
];

describe('enrichEvent channel from real landing URLs and referrers (issue 14)', () => {
  it.each(CHANNEL_CASES)('%s', (_what, url, referrer, channel) => {
    expect(enrich({ url, referrer }).channel).toBe(channel);
  });
});

describe('enrichEvent browser and OS names', () => {
  it('gives names from an import line the same one spelling as derived names', () => {
    expect(enrich({ device_type: 'Mobile', browser: 'brave', os: 'android' })).toMatchObject({ deviceType: 'Mobile', browser: 'Brave', os: 'Android' });
    expect(enrich({ device_type: 'Mobile', browser: 'Brave', os: 'Android' })).toMatchObject({ browser: 'Brave', os: 'Android' });
    expect(enrich({ browser: 'Mobile Safari', os: 'KAIOS' })).toMatchObject({ browser: 'Safari', os: 'KaiOS' });
    expect(enrich({ browser: '', os: 'freebsd' })).toMatchObject({ browser: 'Unknown', os: 'FreeBSD' });
  });

  it('derives the same names from a user agent whose parser spells them in lower case', () => {
    const ua = 'DAVdroid/1.11.4-ose (2018/06/21; dav4android; okhttp3) Android/8.0.0';
    expect(enrich({ user_agent: ua })).toMatchObject({ deviceType: 'Mobile', os: 'Android' });
  });
});
