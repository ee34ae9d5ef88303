/**
 * Type-level tests, checked by `tsc -p tsconfig.json` (never run): each
 * `@ts-expect-error` must hit a real error, or the build fails.
 */
import type { EndpointName, EndpointResponses } from '@siteline/core';
import type { SitelineClient } from './client.js';
import { PATHS } from './endpoints.js';

declare const client: SitelineClient;

// @ts-expect-error limit is a number
void client.pages({ site_id: 'ST-a', limit: '5' });
// @ts-expect-error breakdown is device_type, browser or os
void client.devices({ site_id: 'x', breakdown: 'country' });
// @ts-expect-error site_id is required
void client.stats({ from: '2026-11-01', to: '2026-11-30' });
// @ts-expect-error params are required
void client.referrers();
// @ts-expect-error period is 30d, 7d or 1d
void client.channels({ site_id: 'ST-a', period: '90d' });
// @ts-expect-error /live takes no dates
void client.live({ site_id: 'ST-a', from: '2026-11-01' });
// @ts-expect-error the key is an option of createClient, not a parameter
void client.events({ site_id: 'ST-a', api_key: 'k' });

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

check<Equal<keyof SitelineClient, EndpointName>>();
check<Equal<keyof typeof PATHS, EndpointName>>();
check<Equal<Awaited<ReturnType<SitelineClient['devices']>>, EndpointResponses['devices']>>();
check<Equal<Awaited<ReturnType<SitelineClient['stats']>>['bounce_rate'], number>>();
// @ts-expect-error a wrong response type is caught
check<Equal<Awaited<ReturnType<SitelineClient['live']>>, { live: string }>>();

async function _usage(): Promise<number> {
  const { devices, breakdown } = await client.devices({ site_id: 'ST-a', breakdown: 'os', period: '7d' });
  const name: 'device_type' | 'browser' | 'os' = breakdown;
  void name;
  return devices.length + (await client.pages({ site_id: 'ST-a', limit: 5 })).pages[0]!.pageviews;
}
void _usage;
