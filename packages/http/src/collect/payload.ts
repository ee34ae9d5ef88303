/**
 * The body of `POST /collect`: parsed and bounded before anything else looks at it.
 * Every rejection names the field at fault, because the only reader is a developer
 * looking at the network panel while wiring up the tracker.
 */
import { MAX_PROPERTIES, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH, MESSAGES, parseProps, type PropEntry, PROPS_MESSAGES, SITE_ID_PATTERN } from '@siteline/core';

/** What the tracker sends (unknown extra fields are ignored). */
export interface CollectPayload {
  site_id: string;
  type: 'pageview' | 'event';
  /** Custom event name; only for `type: 'event'`. */
  name?: string;
  /** The page's absolute `http(s)` URL (`location.href`). */
  url: string;
  /** `document.referrer`; empty for none. */
  referrer: string;
  /** A custom event's properties (`parseProps`); never for pageviews (theirs are accepted and ignored). */
  props?: PropEntry[];
}

/**
 * Largest accepted body, in bytes; bigger ones get 413. 8 KB for the beacon's own fields,
 * plus room for the largest valid `props` as `JSON.stringify` writes it (30 keys of 300 and
 * values of 2,000 characters, up to 3 bytes each in UTF-8, with quotes and separators), so
 * no beacon within the props limits is refused for its size.
 */
export const MAX_BODY_BYTES = 8 * 1024 + MAX_PROPERTIES * (3 * (MAX_PROPERTY_KEY_LENGTH + MAX_PROPERTY_VALUE_LENGTH) + 6);
/** Longest accepted page or referrer URL, in characters. */
export const MAX_URL_CHARS = 2048;
const MAX_SITE_ID_CHARS = 64;
const MAX_NAME_CHARS = 200;

/** Rejection reasons (HTTP 400), written once; tests import them. */
export const COLLECT_MESSAGES = {
  json: 'The body must be a JSON object.',
  siteId: 'The site_id field must be ST- followed by letters and digits.',
  type: 'The type field must be "pageview" or "event".',
  name: MESSAGES.name,
  url: `The url field must be an absolute http(s) URL of at most ${MAX_URL_CHARS} characters.`,
  referrer: `The referrer field must be a string of at most ${MAX_URL_CHARS} characters.`,
  props: PROPS_MESSAGES.shape,
  property: PROPS_MESSAGES.entry,
} as const;

/** A valid body, with its page's host (`pageHost`), read while the URL was checked: each beacon's URL is parsed once here. */
export type ParseResult = { ok: true; payload: CollectPayload; host: string } | { ok: false; reason: string };

/**
 * Validates a `/collect` body (already size-checked).
 * @example parseCollectBody('{"site_id":"ST-blog","type":"pageview","url":"https://blog.example/"}')
 * // { ok: true, payload: { site_id: 'ST-blog', type: 'pageview', url: 'https://blog.example/', referrer: '' }, host: 'blog.example' }
 */
export function parseCollectBody(text: string): ParseResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: COLLECT_MESSAGES.json };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, reason: COLLECT_MESSAGES.json };
  const { site_id, type, name, url, referrer, props } = body as Record<string, unknown>;
  const fail = (reason: string): ParseResult => ({ ok: false, reason });

  if (typeof site_id !== 'string' || site_id.length > MAX_SITE_ID_CHARS || !SITE_ID_PATTERN.test(site_id)) {
    return fail(COLLECT_MESSAGES.siteId);
  }
  if (type !== 'pageview' && type !== 'event') return fail(COLLECT_MESSAGES.type);
  if (type === 'event' && (typeof name !== 'string' || name.length < 1 || name.length > MAX_NAME_CHARS)) {
    return fail(COLLECT_MESSAGES.name);
  }
  const host = typeof url === 'string' && url.length <= MAX_URL_CHARS ? httpUrlHost(url) : undefined;
  if (host === undefined) return fail(COLLECT_MESSAGES.url);
  if (referrer !== undefined && referrer !== null && (typeof referrer !== 'string' || referrer.length > MAX_URL_CHARS)) {
    return fail(COLLECT_MESSAGES.referrer);
  }
  // A pageview's props are accepted and ignored (properties-goals.md section 1): no pageview is lost to them.
  const parsedProps = type === 'event' ? parseProps(props) : undefined;
  if (parsedProps && !parsedProps.ok) return fail(parsedProps.reason);
  const payload: CollectPayload = { site_id, type, url: url as string, referrer: typeof referrer === 'string' ? referrer : '' };
  if (type === 'event') payload.name = name as string;
  if (parsedProps?.ok && parsedProps.props.length > 0) payload.props = parsedProps.props;
  return { ok: true, payload, host };
}

/** The host (`pageHost`) of an absolute http(s) URL, or `undefined` when it is not one. */
function httpUrlHost(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/**
 * The host of a page URL as the WHATWG parser gives it (lower case, IDNs in punycode,
 * as site domains are stored), without a trailing dot.
 * @example pageHost('https://WWW.Example.com./a') // 'www.example.com'
 */
export function pageHost(url: string): string {
  return httpUrlHost(url) ?? '';
}

/**
 * Whether a page on `host` belongs to a site of `domain`: the domain itself or one of its
 * subdomains. A site without a domain accepts every host (nothing to check against).
 * @example hostBelongsTo('shop.example.com', 'example.com') // true
 * @example hostBelongsTo('example.com.evil.test', 'example.com') // false
 */
export function hostBelongsTo(host: string, domain: string | null): boolean {
  if (!domain) return true;
  const d = domain.toLowerCase();
  return host === d || host.endsWith(`.${d}`);
}
