/**
 * Two-factor sign-in (RFC 6238 TOTP: SHA-1, 6 digits, 30-second steps, one step either way
 * for clock drift) with `otpauth`, and single-use recovery codes (stored as SHA-256 hashes:
 * 80 random bits each, so a fast hash is enough).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { People, UserRow } from '@siteline/core';
import { Secret, TOTP } from 'otpauth';

/** Recovery codes made when two-factor is turned on. */
export const RECOVERY_CODES = 10;

const totp = (secret: string, email = '') => new TOTP({ issuer: 'Siteline', label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const hashCode = (code: string) => createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');

/**
 * A new TOTP secret (160 bits, base32) and its `otpauth://` address for an authenticator app.
 * @example const { secret, uri } = newTotpSecret('ann@example.com');
 */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totp(secret, email).toString() };
}

/** Whether `code` is the secret's current code (or one step before or after). */
export function totpMatches(secret: string, code: string): boolean {
  const digits = code.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) && totp(secret).validate({ token: digits, window: 1 }) !== null;
}

/** New recovery codes (shown once) and their stored hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const hex = randomBytes(10).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5, 10)}-${hex.slice(10, 15)}-${hex.slice(15)}`;
  });
  return { codes, hashes: codes.map(hashCode) };
}

/**
 * The second factor of a sign-in: a current TOTP code, or an unused recovery code (which is
 * then spent: the user is saved without it).
 */
export async function verifyTotp(people: People, user: UserRow, code: string): Promise<boolean> {
  if (code.length > 32) return false;
  if (totpMatches(user.totp_secret, code)) return true;
  const hash = Buffer.from(hashCode(code), 'hex');
  const index = user.recovery_hashes.findIndex((h) => timingSafeEqual(Buffer.from(h, 'hex'), hash));
  if (index < 0 || code.trim() === '') return false;
  await people.store.saveUser({ ...user, recovery_hashes: user.recovery_hashes.filter((_, i) => i !== index) });
  return true;
}
