/** Where an email report's links point, below the server's public origin (`PUBLIC_URL`). */
import type { ReportFigures } from '@siteline/core';

/** Path of the unsubscribe page (below the dashboard's). */
export const UNSUBSCRIBE_PATH = '/dashboard/unsubscribe';

/**
 * The dashboard opened on the report's site and days (a sign-in first, when needed).
 * @example dashboardUrl('https://stats.example.com', figures) // 'https://stats.example.com/?site_id=ST-blog&from=2026-11-16&to=2026-11-22'
 */
export function dashboardUrl(origin: string, f: Pick<ReportFigures, 'site' | 'period'>): string {
  return `${origin}/?${new URLSearchParams({ site_id: f.site.id, from: f.period.from, to: f.period.to })}`;
}

/**
 * The recipient's unsubscribe page: works without signing in, for the token's address, site and kind.
 * @example unsubscribeUrl('https://stats.example.com', token) // 'https://stats.example.com/dashboard/unsubscribe?token=…'
 */
export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}${UNSUBSCRIBE_PATH}?token=${token}`;
}
