import { z } from 'zod';
import { MAX_EVENT_NAME_LENGTH } from '../query/messages.js';
import { SITE_ID_PATTERN } from '../query/schema.js';

/** Longest accepted NDJSON line, in characters; longer lines are rejected. */
export const MAX_LINE_LENGTH = 16_384;

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
    url: optionalText(4096),
    visitor_id: z.string().min(1).max(256).optional(),
    session_id: z.string().min(1).max(256).optional(),
    referrer: optionalText(4096),
    utm_source: optionalText(500),
    utm_medium: optionalText(500),
    utm_campaign: optionalText(500),
    country_code: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code such as DE' })
      .optional(),
    device_type: z
      .string()
      .transform((v) => v.charAt(0).toUpperCase() + v.slice(1).toLowerCase())
      .pipe(z.enum(['Desktop', 'Mobile', 'Tablet', 'Unknown'], { error: 'must be Desktop, Mobile, Tablet or Unknown' }))
      .optional(),
    browser: optionalText(100),
    os: optionalText(100),
    ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
    user_agent: optionalText(1024),
  })
  .superRefine((line, ctx) => {
    if (line.type === 'event' && line.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'is required for type "event"' });
    }
    if (line.type === 'pageview' && line.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required for type "pageview"' });
    }
  });

export type ImportLine = z.output<typeof importLineSchema>;

/** Parses and validates one line; returns the event or a readable reason. */
export function parseImportLine(text: string): { ok: true; line: ImportLine } | { ok: false; reason: string } {
  if (text.length > MAX_LINE_LENGTH) return { ok: false, reason: `line is longer than ${MAX_LINE_LENGTH} characters` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'not a JSON object' };
  const result = importLineSchema.safeParse(json);
  if (result.success) return { ok: true, line: result.data };
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const missing = issue.code === 'invalid_type' && (json as Record<string, unknown>)[field] === undefined;
  return { ok: false, reason: missing ? `${field} is required` : `${field} ${issue.message}`.trim() };
}
