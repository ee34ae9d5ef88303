import { describe, expect, it } from 'vitest';
import { createMemorySaltStore, saltExpiresAt } from './salts.js';

describe('daily salts', () => {
  it('gives one salt per day, 32 random bytes, different each day', async () => {
    const salts = createMemorySaltStore({ now: () => Date.parse('2026-11-01T10:00:00Z') });
    const a = await salts.saltFor('2026-11-01');
    expect(await salts.saltFor('2026-11-01')).toBe(a);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(await salts.saltFor('2026-11-02')).not.toBe(a);
  });

  it('keeps a day until 48 h after its UTC midnight, when every time zone has left it', async () => {
    expect(saltExpiresAt('2026-11-01')).toBe(Date.parse('2026-11-03T00:00:00Z'));
    let now = Date.parse('2026-11-01T00:00:00Z');
    const salts = createMemorySaltStore({ now: () => now });
    const first = await salts.saltFor('2026-11-01');
    await salts.saltFor('2026-11-02');
    now = Date.parse('2026-11-02T23:59:59Z'); // Kiritimati (UTC+14) is in 11-03; Baker Island (UTC-12) still in 11-02
    expect(salts.days()).toEqual(['2026-11-01', '2026-11-02']);
    expect(await salts.saltFor('2026-11-01')).toBe(first);
    now = Date.parse('2026-11-03T00:00:00Z');
    expect(salts.days()).toEqual(['2026-11-02']);
    now = Date.parse('2026-11-04T00:00:00Z');
    expect(salts.days()).toEqual([]);
  });
});
