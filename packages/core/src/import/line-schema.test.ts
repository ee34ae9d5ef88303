import { describe, expect, it } from 'vitest';
import { importLineSchema, parseImportLine } from './line-schema.js';

/** What the schema alone answers: the reference the fast path must match. */
function bySchema(json: unknown) {
  const result = importLineSchema.safeParse(json);
  return result.success ? { ok: true, line: result.data } : { ok: false };
}

const base = { site_id: 'ST-a1', ts: '2026-11-01T10:00:00Z', type: 'pageview', url: 'https://a.example/x?utm_source=n' };
const variants: Record<string, unknown>[] = [
  base,
  { ...base, ts: '2026-11-01T10:00:00.123+01:00' },
  { ...base, ts: '2026-11-01T10:00Z' },
  { ...base, ts: '2026-02-30T10:00:00Z' },
  { ...base, ts: '2026-11-01 10:00:00' },
  { ...base, ts: 1762000000000 },
  { ...base, type: 'event' },
  { ...base, type: 'event', name: 'signup' },
  { ...base, type: 'event', name: '' },
  { ...base, type: 'event', name: 'n'.repeat(201) },
  { ...base, type: 'click' },
  { ...base, url: undefined },
  { ...base, url: '' },
  { ...base, url: 'u'.repeat(4097) },
  { ...base, url: null },
  { ...base, site_id: 'blog' },
  { ...base, site_id: `ST-${'a'.repeat(62)}` },
  { ...base, visitor_id: '' },
  { ...base, visitor_id: 'v1', session_id: 's1' },
  { ...base, session_id: 's'.repeat(257) },
  { ...base, referrer: 'https://www.google.com/', utm_source: 'x', utm_medium: 'y', utm_campaign: 'z' },
  { ...base, utm_campaign: 'c'.repeat(501) },
  { ...base, country_code: 'de' },
  { ...base, country_code: 'DEU' },
  { ...base, device_type: 'mobile' },
  { ...base, device_type: 'Phone' },
  { ...base, device_type: 'TABLET' },
  { ...base, device_type: '' },
  { ...base, device_type: 3 },
  { ...base, browser: 'Firefox', os: 'Linux' },
  { ...base, os: 'o'.repeat(101) },
  { ...base, ip: '203.0.113.7' },
  { ...base, ip: '203.0.113.256' },
  { ...base, ip: '010.0.0.1' },
  { ...base, ip: '2001:db8::1' },
  { ...base, ip: '::ffff:203.0.113.7' },
  { ...base, ip: 'localhost' },
  { ...base, user_agent: 'Mozilla/5.0', extra: 'ignored', nested: { a: 1 } },
  { ...base, user_agent: 'u'.repeat(1025) },
  { ...base, name: 'named pageview' },
];

describe('parseImportLine', () => {
  it('accepts exactly the lines the schema accepts, with the same output, on the fast path or not', () => {
    for (const json of variants) {
      const parsed = parseImportLine(JSON.stringify(json));
      const reference = bySchema(JSON.parse(JSON.stringify(json)));
      expect({ json, ok: parsed.ok }).toEqual({ json, ok: reference.ok });
      if (parsed.ok && reference.ok) expect(parsed.line).toEqual(reference.line);
    }
  });

  it('words errors the schema way', () => {
    expect(parseImportLine(JSON.stringify({ ...base, type: 'event' }))).toEqual({ ok: false, reason: 'name is required for type "event"' });
    expect(parseImportLine(JSON.stringify({ ...base, ip: '203.0.113.256' }))).toEqual({ ok: false, reason: 'ip must be an IPv4 or IPv6 address' });
    expect(parseImportLine(JSON.stringify({ ...base, ts: undefined }))).toEqual({ ok: false, reason: 'ts is required' });
    expect(parseImportLine('[1]')).toEqual({ ok: false, reason: 'not a JSON object' });
  });
});
