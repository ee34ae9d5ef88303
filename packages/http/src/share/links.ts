/** Where a shared link points, below the server's public origin (`PUBLIC_URL`). */

/** Path of shared links, below the server's origin. */
export const SHARE_PATH = '/share/';

/**
 * The address of a shared link: its token in the path (a link without a password must work
 * without a cookie, inside another site's frame too). The dashboard logs it with the token
 * replaced, and its pages load nothing from elsewhere, so it reaches no log or Referer of ours.
 * @example shareUrl('https://stats.example.com', token) // 'https://stats.example.com/share/q3V0…/'
 */
export function shareUrl(origin: string, token: string): string {
  return `${origin}${SHARE_PATH}${token}/`;
}
