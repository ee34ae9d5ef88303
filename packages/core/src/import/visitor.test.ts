import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveVisitorId } from './visitor.js';

const hmac = (salt: string, message: string) => createHmac('sha256', salt).update(message).digest('base64url').slice(0, 22);

describe('deriveVisitorId', () => {
  it('is HMAC-SHA256 of site, IP and user agent under the salt, for short, long and non-ASCII salts', () => {
    const salts = ['s', 'x'.repeat(64), 'y'.repeat(65), 'a daily salt of 43 chars, base64url encoded', 'sälz-ü'];
    for (const salt of salts) {
      for (const [ip, ua] of [['203.0.113.7', 'Mozilla/5.0'], ['2001:db8::1', ''], ['', 'Bot ☃']] as const) {
        expect(deriveVisitorId(salt, 'ST-blog', ip, ua)).toBe(hmac(salt, `ST-blog\u0000${ip}\u0000${ua}`));
      }
    }
  });

  it('gives different ids under different salts and to different visitors', () => {
    const a = deriveVisitorId('day-1', 'ST-blog', '203.0.113.7', 'UA');
    expect(a).toHaveLength(22);
    expect(deriveVisitorId('day-2', 'ST-blog', '203.0.113.7', 'UA')).not.toBe(a);
    expect(deriveVisitorId('day-1', 'ST-blog', '203.0.113.8', 'UA')).not.toBe(a);
    expect(deriveVisitorId('day-1', 'ST-blog', '203.0.113.7', 'UA')).toBe(a);
  });
});
