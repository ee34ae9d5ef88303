import { describe, expect, it } from 'vitest';
import list from './ga4-source-categories.json' with { type: 'json' };
import { GA4_SOURCE_LIST, GA4_SOURCES } from './ga4-source-list.js';
import { hostCategory, sourceCategory } from './sources.js';

describe('sourceCategory', () => {
  it.each([
    // hosts from the package, exact and by parent domain
    ['google.com', 'search'],
    ['www.google.com', 'search'],
    ['google.co.uk', 'search'],
    ['news.google.com', 'search'],
    ['m.facebook.com', 'social'],
    ['l.instagram.com', 'social'],
    ['www.youtube.com', 'video'],
    ['mail.google.com', 'email'],
    ['ad.doubleclick.net', 'ads'],
    // hosts the package marks as uncategorised, and supplement entries
    ['maps.google.com', null],
    ['docs.google.com', null],
    ['chatgpt.com', 'ai'],
    ['gemini.google.com', 'ai'],
    ['tiktok.com', 'social'],
    // source names, case-insensitive, with or without punctuation
    ['Google', 'search'],
    ['facebook', 'social'],
    ['Yahoo', 'search'],
    ['hackernews', 'social'],
    ['fb', 'social'],
    ['meta', 'social'],
    ['chatgpt', 'ai'],
    // listed by the package only as www.<host>: the keys lose www. like the lookups do
    ['qwant.com', 'search'],
    ['www.qwant.com', 'search'],
    ['so.com', 'search'],
    ['exalead.com', 'search'],
    ['baidu.com', 'search'],
    ['yahoo.co.jp', 'search'],
    // supplement: issue 14's data gaps
    ['sogou.com', 'search'],
    ['m.sogou.com', 'search'],
    ['msn.com', 'search'],
    ['ntp.msn.com', 'search'],
    ['yandex.com.tr', 'search'],
    ['m.naver.com', 'search'],
    ['mail.naver.com', 'email'],
    ['blog.naver.com', 'social'],
    ['seznam.cz', 'search'],
    ['email.seznam.cz', 'email'],
    ['2bb5cd7f.safeframe.googlesyndication.com', 'ads'],
    ['adclick.g.doubleclick.net', 'ads'],
    ['deref-gmx.net', 'email'],
    ['deref-web.de', 'email'],
    ['medium.com', 'social'],
    ['someone.wordpress.com', 'social'],
    ['blogger.com', 'social'],
    ['pinterest.co.uk', 'social'],
    ['telegram', 'social'],
    ['Snapchat', 'social'],
    ['messenger', 'social'],
    ['twitch', 'video'],
    ['line', 'social'],
    ['WeChat', 'social'],
    // webmail by host name
    ['email.t-online.de', 'email'],
    ['mail.ionos.de', 'email'],
    ['mail.orange.fr', 'email'],
    ['mail.ru', 'search'], // two labels: not webmail by name; the package's entry (the portal's search) holds
    // an ad platform is no site (ad-platforms.ts reads its network), and a word naming
    // email is the channel rules' business, not a category
    ['google_ads', null],
    ['facebook-ads', null],
    ['adwords', null],
    ['newsletter', null],
    // Google's GA4 list: social sites Ghost's list lacks (chat, Q&A and community sites
    // among them), video and shopping sites, names as utm_source writes them
    ['stackoverflow.com', 'social'],
    ['quora', 'social'],
    ['chat.zalo.me', 'social'],
    ['groups.google.com', 'social'],
    ['lnkd.in', 'social'],
    ['Kakao', 'social'],
    ['digg.com', 'social'], // search in Ghost's list; GA4's wins
    ['vimeo', 'video'],
    ['m.youtube.com', 'video'],
    ['youtu.be', 'video'], // supplement: YouTube's short links
    ['amazon.com', 'shopping'],
    ['ebay.de', 'shopping'],
    ['lens.google.com', 'search'],
    ['play.google.com', 'search'],
    ['ecosia.org', 'search'],
    // supplement over GA4's list: webmail that a search company runs
    ['mail.yandex.ru', 'email'],
    ['email.seznam.cz', 'email'],
    // AI assistants, by their chat hosts and their short domains
    ['chat.com', 'ai'],
    ['pplx.ai', 'ai'],
    ['duck.ai', 'ai'],
    ['claude.com', 'ai'],
    ['www.perplexity.com', 'ai'],
    // unknown
    ['weekly-digest', null],
    ['example.org', null],
    ['', null],
  ])('%j -> %s', (value, category) => {
    expect(sourceCategory(value)).toBe(category);
  });
});

describe('hostCategory', () => {
  it('never matches a bare top-level domain', () => {
    expect(hostCategory('com')).toBeNull();
    expect(hostCategory('example.com')).toBeNull();
  });
});

describe('GA4 source-category list', () => {
  it('is loaded whole, with its origin and update date', () => {
    expect(GA4_SOURCES).toHaveLength(819);
    expect(list.entries).toBe(819);
    expect(GA4_SOURCE_LIST.origin).toContain('support.google.com/analytics/answer/9756891');
    expect(GA4_SOURCE_LIST.updated).toBe('2023-11-04');
  });

  it('keeps GA4 categories as ours, lower-cased', () => {
    expect(GA4_SOURCES).toContainEqual(['google shopping', 'shopping']);
    expect(GA4_SOURCES).toContainEqual(['hatena', 'social']);
    expect(GA4_SOURCES).toContainEqual(['youtube.com', 'video']);
    expect(GA4_SOURCES).toContainEqual(['360.cn', 'search']);
  });
});
