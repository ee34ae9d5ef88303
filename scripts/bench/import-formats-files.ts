/**
 * The same generated traffic written three ways, for the import-format bench: our NDJSON
 * lines, an Umami `website_event` CSV (session attributes joined, as Umami Cloud's export)
 * and a GA4 BigQuery export (NDJSON rows of `events_YYYYMMDD`). Every file carries the same
 * events with the same visitors, sessions, pages, referrers, device names and countries, so
 * the three imports do the same work after reading their rows. The demo traffic's user agents
 * are parsed here, once, so no import pays for user-agent parsing the others skip.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { demoNdjson } from '../../packages/core/src/demo/index.js';
import { countryName } from '../../packages/core/src/derive/geo.js';
import { parseUserAgent } from '../../packages/core/src/derive/user-agent.js';
import { csvField } from '../../packages/core/src/csv/csv-writer.js';
import { SESSION_GAP_MS } from '../../packages/core/src/import/sessionize.js';
import type { BenchSite } from './dataset.js';

interface DemoLine {
  ts: string;
  type: 'pageview' | 'event';
  url: string;
  name?: string;
  visitor_id: string;
  country_code?: string;
  device_type?: string;
  browser?: string;
  os?: string;
  user_agent?: string;
  referrer?: string;
  props?: Record<string, string | number | boolean>;
}

const UMAMI_HEADER = 'website_id,session_id,visit_id,event_id,hostname,browser,os,device,screen,language,country,subdivision1,subdivision2,city,url_path,url_query,referrer_path,referrer_query,referrer_domain,page_title,event_type,event_name,tag,created_at';

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** Writes `events` events of the site's generated traffic to the three files. */
export async function writeFormats(site: BenchSite, events: number, files: { ndjson: string; umami: string; ga4: string }, o: { days: number; seed: number; endMs: number }): Promise<void> {
  const ndjson = createWriteStream(files.ndjson);
  const umami = createWriteStream(files.umami);
  const ga4 = createWriteStream(files.ga4);
  await write(umami, `${UMAMI_HEADER}\n`);
  const sessions = new Map<string, { id: string; last: number }>();
  let n = 0;
  for (const text of demoNdjson({ siteId: site.id, days: o.days, pageviewsPerDay: (events * 1.1) / o.days, seed: o.seed, end: o.endMs, timezone: site.timezone, domain: site.domain })) {
    const e = JSON.parse(text) as DemoLine;
    const ms = Date.parse(e.ts);
    const device = e.device_type && e.browser && e.os ? { deviceType: e.device_type, browser: e.browser, os: e.os } : parseUserAgent(e.user_agent ?? '');
    let session = sessions.get(e.visitor_id);
    if (!session || ms - session.last > SESSION_GAP_MS) sessions.set(e.visitor_id, (session = { id: `${e.visitor_id}-${ms.toString(36)}`, last: ms }));
    session.last = ms;
    const country = e.country_code ?? 'XX';
    const props = Object.fromEntries(Object.entries(e.props ?? {}).map(([k, v]) => [k, String(v)]));
    const line = {
      site_id: site.id, ts: e.ts, type: e.type, url: e.url, ...(e.name ? { name: e.name } : {}), visitor_id: e.visitor_id, session_id: session.id,
      referrer: e.referrer ?? '', country_code: country, device_type: device.deviceType, browser: device.browser, os: device.os,
      ...(e.type === 'event' && e.props ? { props } : {}),
    };
    await write(ndjson, `${JSON.stringify(line)}\n`);
    const [path, query = ''] = e.url.split('?');
    const ref = e.referrer ? new URL(e.referrer) : undefined;
    await write(umami, `${[
      'w', e.visitor_id, session.id, `e${n}`, site.domain ?? '', device.browser, device.os, device.deviceType.toLowerCase(), '1920x1080', 'en-US',
      country === 'XX' ? '' : country, '', '', '', path, query, ref?.pathname ?? '', ref?.search.slice(1) ?? '', ref?.host ?? '', 'Title',
      e.type === 'pageview' ? '1' : '2', e.name ?? '', '', new Date(ms).toISOString().slice(0, 19).replace('T', ' '),
    ].map((f) => csvField(f)).join(',')}\n`);
    const params = [
      { key: 'page_location', value: { string_value: `https://${site.domain}${e.url}` } },
      { key: 'ga_session_id', value: { int_value: session.id } },
      ...(e.referrer ? [{ key: 'page_referrer', value: { string_value: e.referrer } }] : []),
      ...Object.entries(props).map(([key, value]) => ({ key, value: { string_value: value } })),
    ];
    await write(ga4, `${JSON.stringify({
      event_date: e.ts.slice(0, 10).replaceAll('-', ''), event_timestamp: `${ms}000`, event_name: e.type === 'pageview' ? 'page_view' : e.name,
      event_params: params, user_pseudo_id: e.visitor_id,
      device: { category: device.deviceType.toLowerCase(), operating_system: device.os, web_info: { browser: device.browser } },
      geo: { country: country === 'XX' ? '(not set)' : countryName(country) },
    })}\n`);
    if (++n === events) break;
  }
  for (const out of [ndjson, umami, ga4]) {
    out.end();
    await once(out, 'finish');
  }
}
