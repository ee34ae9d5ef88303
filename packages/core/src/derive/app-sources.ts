/**
 * Apps, app hosts and short-link hosts, each mapped to the host of the source it belongs to,
 * so that it takes that source's category from the lists (sources.ts). One table for the
 * three, because each is the same fact: a visit from here is a visit from that source.
 *
 * Most need no entry, and are not listed:
 * - a subdomain matches its listed parent (`lm.facebook.com`, `web.whatsapp.com`, `ptb.discord.com`);
 * - an Android package names its publisher's domain backwards (`com.linkedin.android` is
 *   `linkedin.com`, `org.telegram.messenger` is `telegram.org`; host.ts `appPublisherDomain`);
 * - a domain the lists name as a social or video source is that source throughout
 *   (`join.skype.com`, since Google's list names Skype and lists web.skype.com; sources.ts).
 * What is here is what those rules cannot see: an app whose package names another company
 * or the platform's parent (`com.google.android.youtube` would read as google.com, a search
 * engine), an app host on another domain (Teams' desktop client), a short-link domain.
 * Keys are lower-cased, without `www.`; values are keys of the lists (ga4-source-categories.json,
 * Ghost's list or source-supplement.ts).
 */
export const APP_SOURCES: Readonly<Record<string, string>> = {
  // Google's apps: their packages all read as google.com, Google's search engine.
  'com.google.android.youtube': 'youtube.com',
  'com.google.android.apps.youtube.music': 'music.youtube.com',
  'com.google.android.gm': 'mail.google.com', // Gmail
  'com.google.android.apps.messaging': 'messages.google.com', // Google Messages, on GA4's list as social
  'com.google.android.apps.dynamite': 'chat.google.com', // Google Chat
  // Microsoft's apps and app hosts: microsoft.com and office.net are no source of their own.
  'com.microsoft.teams': 'teams.microsoft.com',
  'teams.live.com': 'teams.microsoft.com', // Teams for personal accounts
  'teams.cloud.microsoft': 'teams.microsoft.com', // Teams' newer web host
  'statics.teams.cdn.office.net': 'teams.microsoft.com', // where Teams' desktop client loads its pages from
  'com.microsoft.office.outlook': 'outlook.live.com',
  // Apps published under another company's name.
  'com.zhiliaoapp.musically': 'tiktok.com', // TikTok (the package of Musical.ly, which it replaced)
  'com.ss.android.ugc.trill': 'tiktok.com', // TikTok in Asian markets (ByteDance)
  'jp.naver.line.android': 'line.me', // LINE (Naver's package)
  'com.instagram.barcelona': 'threads.net', // Threads (Instagram's package)
  'com.hammerandchisel.discord': 'discord.com', // Discord's former package
  'com.yahoo.mobile.client.android.mail': 'mail.yahoo.com', // Yahoo Mail (yahoo.com is Yahoo's search)
  // Third-party clients that snowplow's referrer list (the source of Ghost's) files under their site.
  'com.laurencedawson.reddit_sync': 'reddit.com',
  'com.laurencedawson.reddit_sync.pro': 'reddit.com',
  'com.laurencedawson.reddit_sync.dev': 'reddit.com',
  'io.github.hidroh.materialistic': 'news.ycombinator.com',
  // Short links and link redirectors on a domain of their own.
  'm.me': 'messenger.com',
  'wa.me': 'whatsapp.com',
  'ig.me': 'instagram.com',
  'pin.it': 'pinterest.com',
  'redd.it': 'reddit.com',
  'youtu.be': 'youtube.com',
  'lin.ee': 'line.me',
  'telegram.me': 't.me',
  'discord.gg': 'discord.com', // invite links
  'discordapp.com': 'discord.com', // Discord's former domain
  'slack-redir.net': 'slack.com', // Slack's redirector for links in messages
};
