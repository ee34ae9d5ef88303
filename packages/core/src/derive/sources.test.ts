import { describe, expect, it } from 'vitest';
import list from './ga4-source-categories.json' with { type: 'json' };
import { GA4_SOURCE_LIST, GA4_SOURCES } from './ga4-source-list.js';
import { hostCategory, matchHost, sourceCategory } from './sources.js';

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
    ['yt', 'video'],
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

/** [host as referrerHost gives it, category, site]; each checked by hand against the rule its group names. */
type MatchCase = [string, string | null, string | null];

describe('matchHost', () => {
  it.each<MatchCase>([
    // 1. apps, app hosts and short links through app-sources.ts
    ['com.google.android.youtube', 'video', 'youtube'], // read as google.com (search) without the table
    ['com.google.android.gm', 'email', 'google'],
    ['com.microsoft.teams', 'social', 'microsoft'],
    ['statics.teams.cdn.office.net', 'social', 'microsoft'],
    ['jp.naver.line.android', 'social', 'line'],
    ['m.me', 'social', 'messenger'],
    ['wa.me', 'social', 'whatsapp'],
    ['youtu.be', 'video', 'youtube'],
    ['discordapp.com', 'social', 'discord'],
  ])('an app, app host or short link: %s -> %s', (host, category, site) => {
    expect(matchHost(host)).toEqual({ category, site });
  });

  it.each<MatchCase>([
    // 2. the host itself, or webmail by its name; an entry without category decides too
    ['l.facebook.com', 'social', 'facebook'],
    ['lnkd.in', 'social', 'lnkd'],
    ['mail.ionos.de', 'email', 'ionos'],
    ['docs.google.com', null, 'google'], // listed as no category: google.com (search) does not apply
    // 3. a parent domain, down to the registrable domain
    ['mbasic.facebook.com', 'social', 'facebook'],
    ['app.slack.com', 'social', 'slack'],
    ['ptb.discord.com', 'social', 'discord'],
    ['web.yammer.com', 'social', 'yammer'],
    ['math.stackexchange.com', 'social', 'stackexchange'],
    ['someone.blogspot.com', 'social', 'blogspot'],
    // 4. a domain the lists name as a social source throughout (Google's list: skype and web.skype.com, zalo and chat.zalo.me)
    ['join.skype.com', 'social', 'skype'],
    ['zalo.me', 'social', 'zalo'],
    ['id.zalo.me', 'social', 'zalo'],
  ])('a listed host, parent or site: %s -> %s', (host, category, site) => {
    expect(matchHost(host)).toEqual({ category, site });
  });

  it.each<MatchCase>([
    // 5. an Android package read as its publisher's domain
    ['com.facebook.katana', 'social', 'facebook'],
    ['com.slack', 'social', 'slack'],
    ['org.telegram.messenger', 'social', 'telegram'],
    ['com.skype.raider', 'social', 'skype'],
    ['com.whatsapp.w4b', 'social', 'whatsapp'],
    ['tv.twitch.android.app', 'video', 'twitch'],
    // a package the lists know as it is keeps their category and takes its publisher's site
    ['com.google.android.googlequicksearchbox', 'search', 'google'],
  ])('an Android package: %s -> %s', (host, category, site) => {
    expect(matchHost(host)).toEqual({ category, site });
  });

  it.each<MatchCase>([
    ['notfacebook.com', null, 'notfacebook'],
    ['thefacebook.com', null, 'thefacebook'],
    ['facebook.com.evil.test', null, null], // a listed host as a subdomain of someone else's
    ['facebook.community', null, 'facebook'], // a source's name under another suffix
    ['reddit.tk', null, 'reddit'],
    ['xt.co', null, 'xt'], // not t.co
    ['t.co.uk', null, 't'],
    ['slack.example.org', null, 'example'],
    ['com.slackers', null, 'slackers'], // a package whose publisher is no listed site
    ['org.telegramm.scam', null, 'telegramm'],
    ['youtube.co.uk', null, 'youtube'], // no list names this domain
    ['notion.so', null, 'notion'], // documents are not chat
  ])('a look-alike or unlisted host matches nothing: %s', (host, category, site) => {
    expect(matchHost(host)).toEqual({ category, site });
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
