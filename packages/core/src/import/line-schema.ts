import { z } from 'zod';
import { parseProps } from '../props/props.js';
import { MAX_EVENT_NAME_LENGTH, MAX_PROPERTIES, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH } from '../query/messages.js';
import { SITE_ID_PATTERN } from '../query/schema.js';
import type { PropEntry } from '../storage/types.js';

/**
 * Longest accepted NDJSON line, in characters; longer lines are rejected. 16,384 for the
 * event's own fields, plus room for the largest `props` (30 keys of 300 and values of
 * 2,000 characters, with their quotes and separators).
 */
export const MAX_LINE_LENGTH = 16_384 + MAX_PROPERTIES * (MAX_PROPERTY_KEY_LENGTH + MAX_PROPERTY_VALUE_LENGTH + 6);

/** Shortest and longest accepted length of each optional text field: the schema and the fast path read them here. */
const TEXT_LIMITS = {
  url: [0, 4096], referrer: [0, 4096], visitor_id: [1, 256], session_id: [1, 256],
  utm_source: [0, 500], utm_medium: [0, 500], utm_campaign: [0, 500],
  browser: [0, 100], os: [0, 100], user_agent: [0, 1024],
} as const satisfies Record<string, readonly [number, number]>;
type TextField = keyof typeof TEXT_LIMITS;
const TEXT_FIELDS = Object.entries(TEXT_LIMITS) as [TextField, readonly [number, number]][];

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const optionalText = (max: number) => z.string().max(max, { error: `must have at most ${max} characters` }).optional();

const instant = z
  .string()
  .regex(ISO_INSTANT, { error: 'must be an ISO 8601 instant with a zone, e.g. 2026-11-01T10:00:00Z' })
  .transform((value, ctx) => {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: 'is not a real date and time' });
      return z.NEVER;
    }
    return ms;
  });

/** One line of the import format (decisions.md section 8). */
export const importLineSchema = z
  .object({
    site_id: z.string().max(64).regex(SITE_ID_PATTERN, { error: 'must be ST- followed by letters and digits' }),
    ts: instant,
    type: z.enum(['pageview', 'event'], { error: 'must be "pageview" or "event"' }),
    name: z
      .string()
      .min(1, { error: `must have 1 to ${MAX_EVENT_NAME_LENGTH} characters` })
      .max(MAX_EVENT_NAME_LENGTH, { error: `must have 1 to ${MAX_EVENT_NAME_LENGTH} characters` })
      .optional(),
    url: optionalText(TEXT_LIMITS.url[1]),
    visitor_id: z.string().min(TEXT_LIMITS.visitor_id[0]).max(TEXT_LIMITS.visitor_id[1]).optional(),
    session_id: z.string().min(TEXT_LIMITS.session_id[0]).max(TEXT_LIMITS.session_id[1]).optional(),
    referrer: optionalText(TEXT_LIMITS.referrer[1]),
    utm_source: optionalText(TEXT_LIMITS.utm_source[1]),
    utm_medium: optionalText(TEXT_LIMITS.utm_medium[1]),
    utm_campaign: optionalText(TEXT_LIMITS.utm_campaign[1]),
    country_code: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code such as DE' })
      .optional(),
    device_type: z
      .string()
      .transform((v) => v.charAt(0).toUpperCase() + v.slice(1).toLowerCase())
      .pipe(z.enum(['Desktop', 'Mobile', 'Tablet', 'Unknown'], { error: 'must be Desktop, Mobile, Tablet or Unknown' }))
      .optional(),
    browser: optionalText(TEXT_LIMITS.browser[1]),
    os: optionalText(TEXT_LIMITS.os[1]),
    ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
    user_agent: optionalText(TEXT_LIMITS.user_agent[1]),
  })
  .superRefine((line, ctx) => {
    if (line.type === 'event' && line.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required for type "event"' });
    }
    if (line.type === 'pageview' && line.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required for type "pageview"' });
    }
  });

/** One line as read: the schema's fields and, for a custom event, its properties (`parseProps`). */
export type ImportLine = z.output<typeof importLineSchema> & { props?: PropEntry[] };

/**
 * Parses and validates one line; returns the event or a readable reason. A custom
 * event's `props` follow the rules of properties-goals.md section 1 (the reason is the
 * rule's message); a pageview's `props` are accepted and ignored.
 */
export function parseImportLine(text: string): { ok: true; line: ImportLine } | { ok: false; reason: string } {
  if (text.length > MAX_LINE_LENGTH) return { ok: false, reason: `line is longer than ${MAX_LINE_LENGTH} characters` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'not a JSON object' };
  return parseImportObject(json as Record<string, unknown>);
}

/**
 * Validates one event given as an object with the fields of a line (what the Umami and GA4
 * converters build): the same rules and reasons as `parseImportLine`.
 * @example parseImportObject({ site_id: 'ST-blog', ts: '2026-11-01T10:00:00Z', type: 'pageview', url: '/' })
 */
export function parseImportObject(json: Record<string, unknown>): { ok: true; line: ImportLine } | { ok: false; reason: string } {
  const props = json.props;
  const line = plainLine(json as Record<string, unknown>);
  if (line) return withProps(line, props);
  const result = importLineSchema.safeParse(json);
  if (result.success) return withProps(result.data, props);
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const missing = issue.code === 'invalid_type' && (json as Record<string, unknown>)[field] === undefined;
  return { ok: false, reason: missing ? `${field} is required` : `${field} ${issue.message}`.trim() };
}

/** The line with its custom event's properties, or the props rule it breaks. */
function withProps(line: ImportLine, props: unknown): { ok: true; line: ImportLine } | { ok: false; reason: string } {
  if (line.type !== 'event' || props === undefined) return { ok: true, line };
  const parsed = parseProps(props);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  if (parsed.props.length > 0) line.props = parsed.props;
  return { ok: true, line };
}

const COUNTRY = /^[A-Za-z]{2}$/;
const DEVICE_TYPES = new Set(['Desktop', 'Mobile', 'Tablet', 'Unknown']);


/**
 * The fast path for the common line: plain checks that accept only what `importLineSchema`
 * accepts and return the same output, or `undefined` to let the schema decide (and word the
 * error). The schema costs ~5 µs a line; an import is mostly well-formed lines, so this
 * path carries it. IPv6 addresses and anything unusual take the schema path;
 * a test holds both paths equal.
 */
function plainLine(json: Record<string, unknown>): ImportLine | undefined {
  const { site_id, ts, type, name, country_code, ip, device_type } = json;
  if (typeof site_id !== 'string' || site_id.length > 64 || !SITE_ID_PATTERN.test(site_id)) return undefined;
  if (typeof ts !== 'string' || !ISO_INSTANT.test(ts)) return undefined;
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) return undefined;
  if (type !== 'pageview' && type !== 'event') return undefined;
  const line: ImportLine = { site_id, ts: ms, type };
  if (name !== undefined) {
    if (typeof name !== 'string' || name.length < 1 || name.length > MAX_EVENT_NAME_LENGTH) return undefined;
    line.name = name;
  }
  for (const [field, [min, max]] of TEXT_FIELDS) {
    const value = json[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length < min || value.length > max) return undefined;
    (line as Record<string, unknown>)[field] = value;
  }
  if (country_code !== undefined) {
    if (typeof country_code !== 'string' || !COUNTRY.test(country_code)) return undefined;
    line.country_code = country_code;
  }
  if (ip !== undefined) {
    // zod's own IPv4 pattern: the fast path accepts exactly the addresses z.ipv4() does (IPv6 goes to the schema).
    if (typeof ip !== 'string' || !z.regexes.ipv4.test(ip)) return undefined;
    line.ip = ip;
  }
  if (device_type !== undefined) {
    if (typeof device_type !== 'string') return undefined;
    const device = device_type.charAt(0).toUpperCase() + device_type.slice(1).toLowerCase();
    if (!DEVICE_TYPES.has(device)) return undefined;
    line.device_type = device as ImportLine['device_type'];
  }
  if ((type === 'event' && line.name === undefined) || (type === 'pageview' && line.url === undefined)) return undefined;
  return line;
}
