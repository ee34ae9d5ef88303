import type { ENDPOINT_PATHS } from '@siteline/core';

/**
 * Path of each endpoint below the base URL. A local copy, because the client
 * has no runtime dependencies; `satisfies` checks it against the type of
 * core's `ENDPOINT_PATHS`, so a missing, extra or different path fails to
 * compile.
 */
export const PATHS = {
  stats: '/stats',
  timeseries: '/stats/timeseries',
  pages: '/pages',
  referrers: '/referrers',
  channels: '/channels',
  locations: '/locations',
  devices: '/devices',
  events: '/events',
  campaigns: '/campaigns',
  live: '/live',
  properties: '/properties',
  goals: '/goals',
  funnels: '/funnels',
} as const satisfies typeof ENDPOINT_PATHS;
