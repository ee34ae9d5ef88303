import { describe, expect, it } from 'vitest';
import list from './ga4-source-categories.json' with { type: 'json' };
import { GA4_SOURCE_LIST, GA4_SOURCES } from './ga4-source-list.js';
import { registrableDomain } from './host.js';
import { HOSTS, SITE_DOMAINS } from './source-lists.js';
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
    // numbered, branded and regional webmail hosts: `mail` anywhere in a subdomain's first label
    ['mail01.orange.fr', 'email'],
    ['wmail.orange.fr', 'email'],
    ['webmail1m.orange.fr', 'email'],
    ['mailbusiness.ionos.mx', 'email'],
    ['upcmail.hispeed.ch', 'email'],
    ['lightmailer-bs.web.de', 'email'],
    ['messageriepro3.orange.fr', 'email'],
    ['e.mail.ru', 'email'],
    // ... but not in a site's own name, nor in a label further in
    ['dailymail.co.uk', null],
    ['mailchimp.com', null],
    ['us5.admin.mailchimp.com', null],
    ['news.mailonline.example', null],
    // webmail link dereferrers in every country, and mail.com's hosts
    ['deref-gmx.de', 'email'],
    ['deref-gmx.co.uk', 'email'],
    ['deref-1und1-02.de', 'email'],
    ['deref.example.com', null],
    ['3c-lxa.mail.com', 'email'],
    ['character.ai', 'ai'],
    ['beta.character.ai', 'ai'],
    // a utm_source written as a URL names the host in it
    ['https://facebook.com/', 'social'],
    ['//facebook.com/', 'social'],
    ['https://user@facebook.com/', 'social'],
    ['chatgpt.com/c/123', 'ai'],
    ['android-app://com.google.android.gm/', 'email'],
    ['https://unknown.example/', null],
    ['spring/sale', null],
    ['steamcommunity.com', 'social'],
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

/** [host as referrerHost gives it, category, the host the lists were asked about]; each checked by hand against the rule its group names. */
type MatchCase = [string, string | null, string];

describe('matchHost', () => {
  it.each<MatchCase>([
    // 1. apps, app hosts and short links through app-sources.ts
    ['com.google.android.youtube', 'video', 'youtube.com'], // read as google.com (search) without the table
    ['com.google.android.gm', 'email', 'mail.google.com'],
    ['com.microsoft.teams', 'social', 'teams.microsoft.com'],
    ['statics.teams.cdn.office.net', 'social', 'teams.microsoft.com'],
    ['jp.naver.line.android', 'social', 'line.me'],
    ['m.me', 'social', 'messenger.com'],
    ['wa.me', 'social', 'whatsapp.com'],
    ['youtu.be', 'video', 'youtube.com'],
    ['discordapp.com', 'social', 'discord.com'],
  ])('an app, app host or short link: %s -> %s', (host, category, asked) => {
    expect(matchHost(host)).toEqual({ category, host: asked });
  });

  it.each<MatchCase>([
    // 2. the host itself, or webmail by its name; an entry without category decides too
    ['l.facebook.com', 'social', 'l.facebook.com'],
    ['lnkd.in', 'social', 'lnkd.in'],
    ['mail.ionos.de', 'email', 'mail.ionos.de'],
    ['docs.google.com', null, 'docs.google.com'], // listed as no category: google.com (search) does not apply
    ['com.google.android.googlequicksearchbox', 'search', 'com.google.android.googlequicksearchbox'], // a package Ghost's list has as it is
    // 3. a parent domain, down to the registrable domain
    ['mbasic.facebook.com', 'social', 'mbasic.facebook.com'],
    ['app.slack.com', 'social', 'app.slack.com'],
    ['ptb.discord.com', 'social', 'ptb.discord.com'],
    ['web.yammer.com', 'social', 'web.yammer.com'],
    ['math.stackexchange.com', 'social', 'math.stackexchange.com'],
    ['someone.blogspot.com', 'social', 'someone.blogspot.com'],
    // 4. a domain the lists name as a social source throughout (Google's list: skype and web.skype.com, zalo and chat.zalo.me)
    ['join.skype.com', 'social', 'join.skype.com'],
    ['zalo.me', 'social', 'zalo.me'],
    ['id.zalo.me', 'social', 'id.zalo.me'],
  ])('a listed host, parent or site: %s -> %s', (host, category, asked) => {
    expect(matchHost(host)).toEqual({ category, host: asked });
  });

  it.each<MatchCase>([
    // 5. an Android package read as its publisher's domain
    ['com.facebook.katana', 'social', 'facebook.com'],
    ['com.slack', 'social', 'slack.com'],
    ['org.telegram.messenger', 'social', 'telegram.org'],
    ['com.skype.raider', 'social', 'skype.com'],
    ['com.whatsapp.w4b', 'social', 'whatsapp.com'],
    ['tv.twitch.android.app', 'video', 'twitch.tv'],
  ])('an Android package: %s -> %s', (host, category, asked) => {
    expect(matchHost(host)).toEqual({ category, host: asked });
  });

  it.each<MatchCase>([
    ['notfacebook.com', null, 'notfacebook.com'],
    ['thefacebook.com', null, 'thefacebook.com'],
    ['facebook.com.evil.test', null, 'facebook.com.evil.test'], // a listed host as a subdomain of someone else's
    ['facebook.community', null, 'facebook.community'], // a source's name under another suffix
    ['reddit.tk', null, 'reddit.tk'],
    ['xt.co', null, 'xt.co'], // not t.co
    ['t.co.uk', null, 't.co.uk'],
    ['slack.example.org', null, 'slack.example.org'],
    ['com.slackers', null, 'slackers.com'], // a package whose publisher is no listed site
    ['org.telegramm.scam', null, 'telegramm.org'],
    ['youtube.co.uk', null, 'youtube.co.uk'], // no list names this domain
    ['notion.so', null, 'notion.so'], // documents are not chat
  ])('a look-alike or unlisted host matches nothing: %s', (host, category, asked) => {
    expect(matchHost(host)).toEqual({ category, host: asked });
  });

  it('never needs to stop at a registrable domain: no listed host or site domain is a public suffix', () => {
    const suffixes = [...HOSTS.keys(), ...SITE_DOMAINS.keys()].filter((host) => registrableDomain(host) === null && registrableDomain(`x.${host}`)?.domain === `x.${host}`);
    expect(suffixes).toEqual([]);
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
