/**
 * Page URL of an event (decisions.md sections 4 and 8): its path as recorded, its host, and
 * the campaign parameters the import reads from the query when the line has no UTM fields.
 */
import { CLICK_ID_PARAMS, type ClickIds } from './click-ids.js';
import { splitAbsoluteUrl } from './host.js';

/** Query parameters that say where a visit came from: UTM tags and click ids (click-ids.ts). Absent when missing or empty. */
export interface CampaignParams extends ClickIds {
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

/** A page URL taken apart. */
export interface PageUrl {
  /** Lower-cased host, `null` when the input was a bare path. */
  host: string | null;
  /** Path only, percent-encoding and trailing slash as recorded, never empty. */
  path: string;
  params: CampaignParams;
}

/** The parameters read from the query, in one place so the reader and its tests agree. */
export const CAMPAIGN_PARAM_NAMES = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  ...CLICK_ID_PARAMS,
] as const satisfies readonly (keyof CampaignParams)[];

/**
 * Cheap pre-check: most queries carry none of our parameters, and building a
 * `URLSearchParams` costs more than the rest of this function. Made from the names
 * themselves, so a name added there can never be skipped here (a hand-written `clid` once
 * missed `msclkid`). `%` is included because a key may itself be percent-encoded
 * (`utm%5Fsource`).
 */
const MAY_HOLD_CAMPAIGN_PARAM = new RegExp([...CAMPAIGN_PARAM_NAMES, '%'].join('|'));

/**
 * Takes a page URL apart. Accepts a path (`/pricing?utm_source=x`) or a full URL; anything
 * else (no leading `/`, `?` or `#`, no `scheme://`, or a malformed host) is treated as
 * unparseable: path `/`, no host, no parameters. Never throws.
 *
 * The path is not decoded or re-encoded (`/caf%C3%A9` and `/café` both stay as they are).
 * A leading `//` is kept as part of the path, not read as a protocol-relative host, because
 * `location.pathname` can legitimately start with `//`. Query values are decoded with
 * `URLSearchParams` rules; the first occurrence of a key wins.
 *
 * @example
 * parsePageUrl('https://Example.com/pricing/?utm_source=news&gclid=#top')
 * // { host: 'example.com', path: '/pricing/', params: { utm_source: 'news' } }
 */
export function parsePageUrl(url: string): PageUrl {
  // The type says string, but the importer feeds raw JSON values; never throw on them.
  const input = typeof url === 'string' ? url.trim() : '';
  const first = input.charCodeAt(0);
  let host: string | null = null;
  let rest: string;
  if (first === 47 /* / */ || first === 63 /* ? */ || first === 35 /* # */) {
    rest = input;
  } else {
    const split = splitAbsoluteUrl(input);
    if (split === undefined) return { host: null, path: '/', params: {} };
    host = split.host;
    rest = split.rest;
  }
  const hash = rest.indexOf('#');
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const question = beforeHash.indexOf('?');
  const path = question < 0 ? beforeHash : beforeHash.slice(0, question);
  return {
    host,
    path: path === '' ? '/' : path,
    params: question < 0 ? {} : campaignParams(beforeHash.slice(question + 1)),
  };
}

type CampaignParamName = (typeof CAMPAIGN_PARAM_NAMES)[number];
const IS_CAMPAIGN_PARAM: ReadonlySet<string> = new Set(CAMPAIGN_PARAM_NAMES);

/**
 * Campaign parameters of a query string (without `?`): the first occurrence of each name,
 * empty values counting as absent (a name whose first value is empty stays absent). The
 * query's entries are read once: asking `URLSearchParams.get` for each of the 17 names
 * cost more than the rest of the parse.
 */
function campaignParams(query: string): CampaignParams {
  const params: CampaignParams = {};
  if (!MAY_HOLD_CAMPAIGN_PARAM.test(query)) return params;
  let blank: Set<string> | undefined; // names whose first value was empty; rarely needed
  for (const [name, value] of new URLSearchParams(query)) {
    if (!IS_CAMPAIGN_PARAM.has(name) || Object.hasOwn(params, name) || blank?.has(name)) continue;
    if (value) params[name as CampaignParamName] = value;
    else (blank ??= new Set()).add(name);
  }
  return params;
}
