/**
 * Where a one-time link points, and how it reaches its person: the address printed by the
 * command (or shown to the owner who invited), and mailed when `SMTP_URL` is set.
 */
import type { EnvVars } from '../config.js';

/** Path of the set-password page, below the server's origin. */
export const SET_PASSWORD_PATH = '/dashboard/set-password';

/**
 * The origin people reach the server at: `PUBLIC_URL` when set (behind a proxy, a real host
 * name), else `https://localhost:<PORT>` as the development certificate names it.
 * @example publicOrigin({ PUBLIC_URL: 'https://stats.example.com/' }) // 'https://stats.example.com'
 */
export function publicOrigin(vars: EnvVars): string {
  if (vars.PUBLIC_URL) {
    const url = new URL(vars.PUBLIC_URL);
    if (url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an https:// address, got ${JSON.stringify(vars.PUBLIC_URL)}.`);
    return url.origin;
  }
  return `https://localhost:${vars.PORT ?? '8443'}`;
}

/**
 * The address of a one-time set-password link. The dashboard logs paths without their query,
 * and its pages load nothing from elsewhere, so the token goes into no log or Referer of ours.
 * @example setPasswordUrl('https://stats.example.com', token) // 'https://stats.example.com/dashboard/set-password?token=…'
 */
export function setPasswordUrl(origin: string, token: string): string {
  return `${origin}${SET_PASSWORD_PATH}?token=${token}`;
}
