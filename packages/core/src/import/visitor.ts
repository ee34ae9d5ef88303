import { createHmac } from 'node:crypto';

/**
 * The daily visitor id of decisions.md section 2: a keyed hash of
 * (daily salt, site, IP, user agent). Nothing is stored on the device and
 * the IP is never stored: only this hash is. Once the salt is gone, the id
 * cannot be linked back to the IP.
 * @example deriveVisitorId(saltOfToday, 'ST-blog', '203.0.113.7', 'Mozilla/5.0 ...')
 */
export function deriveVisitorId(salt: string, siteId: string, ip: string, userAgent: string): string {
  return createHmac('sha256', salt).update(`${siteId}\u0000${ip}\u0000${userAgent}`).digest('base64url').slice(0, 22);
}
