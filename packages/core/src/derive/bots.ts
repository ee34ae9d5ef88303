/**
 * Bot detection for the import and the collector, so crawlers do not count as visitors.
 * The pattern list is `isbot`'s (Unlicense), maintained from several public bot lists.
 */
import { isBot } from 'isbot';
import { memoizeRecent } from './memoize.js';

/** isbot's single large pattern costs ~3 µs a test; the same user agents keep coming. */
const isBotCached = memoizeRecent(isBot, 5_000);

/**
 * Whether a user agent belongs to a crawler, monitor, headless browser or HTTP library.
 * An empty user agent is not called a bot (as in `isbot`): imports often lack the field,
 * and that says nothing about the visitor.
 * @example isBotUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)') // true
 * @example isBotUserAgent('') // false
 */
export function isBotUserAgent(ua: string): boolean {
  return typeof ua === 'string' && isBotCached(ua);
}
