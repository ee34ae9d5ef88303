/**
 * Referrer `source` of decisions.md section 4: the referring host, lower-cased, without a
 * leading `www.`, or `Direct / None` for no referrer and for self-referrals.
 */
import { hostFromAuthority, splitAbsoluteUrl, stripWww } from './host.js';

/** The source of sessions without an outside referrer. */
export const DIRECT_NONE = 'Direct / None';

/**
 * A host written without a scheme (`google.com/search`), as some analytics exports record
 * referrers. A dot is required so that words such as `(direct)` or `null` are not hosts.
 */
const BARE_HOST = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+\.?(?::\d*)?(?=[/?#]|$)/u;

/**
 * The referring host: lower-cased, one leading `www.` removed; `null` when the referrer is
 * empty or not a URL. Apps referring as `android-app://<package>` give the package name,
 * which the channel data knows (e.g. `com.google.android.gm` is Gmail).
 * @example referrerHost('https://WWW.Google.co.uk/search?q=x') // 'google.co.uk'
 */
export function referrerHost(referrer: string): string | null {
  const input = typeof referrer === 'string' ? referrer.trim() : '';
  if (input === '') return null;
  const split = splitAbsoluteUrl(input);
  if (split !== undefined) return split.host === null ? null : stripWww(split.host);
  const bare = BARE_HOST.exec(input);
  const host = bare === null ? undefined : hostFromAuthority(bare[0]);
  return host ? stripWww(host) : null;
}

/**
 * The `source` of a session: its referrer host, or {@link DIRECT_NONE} when there is no
 * referrer or the referrer is one of the site's own hosts (`www.` ignored on both sides).
 * Own hosts may be written as hosts (`example.com`, `localhost:3000`) or URLs.
 * @example referrerSource('https://www.example.com/blog', ['example.com']) // 'Direct / None'
 * @example referrerSource('https://news.ycombinator.com/', ['example.com']) // 'news.ycombinator.com'
 */
export function referrerSource(referrer: string, ownHosts: readonly string[]): string {
  const host = referrerHost(referrer);
  if (host === null) return DIRECT_NONE;
  for (const own of ownHosts) {
    if (ownHostKey(own) === host) return DIRECT_NONE;
  }
  return host;
}

/** An own host in the form {@link referrerHost} produces; also accepts dotless hosts. */
function ownHostKey(own: string): string | null {
  return referrerHost(own) ?? stripWww(hostFromAuthority(own.trim()) ?? '');
}
