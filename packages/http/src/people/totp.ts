/**
 * Two-factor sign-in (RFC 6238 TOTP: SHA-1, 6 digits, 30-second steps, one step either way
 * for clock drift) with `otpauth`, and single-use recovery codes (stored as SHA-256 hashes:
 * 80 random bits each, so a fast hash is enough). A code is accepted once (RFC 6238 section
 * 5.2): the backend remembers the last time step accepted per user, and refuses a code of
 * that step or an earlier one, whichever server process sees it.
 */
import { createHash, randomBytes } from 'node:crypto';
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
  return totpSetUp(new Secret({ size: 20 }).base32, email);
}

/** A secret being set up and its `otpauth://` address (shown again when the confirmation is refused). */
export const totpSetUp = (secret: string, email: string) => ({ secret, uri: totp(secret, email).toString() });

/** Length of a time step (RFC 6238's X). */
const PERIOD_MS = 30_000;

/**
 * The time step of `code` if it is the secret's code at `now` (or one step before or after), else undefined.
 * @example totpStep(secret, '123456', Date.now()) // 59_3xx_xxx, or undefined
 */
export function totpStep(secret: string, code: string, now: number): number | undefined {
  const digits = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) return undefined;
  const delta = totp(secret).validate({ token: digits, window: 1, timestamp: now });
  return delta === null ? undefined : Math.floor(now / PERIOD_MS) + delta;
}

/**
 * What became of a code: accepted (`ok`), a right code of a step already used (`used`: the
 * one that turned two-factor on, or a replay, refused as RFC 6238 section 5.2 requires; the
 * person should wait for the app's next code), or not the secret's code now (`wrong`).
 */
export type TotpOutcome = 'ok' | 'used' | 'wrong';

/** Accepts `code` once: its step must match and be later than any accepted before for the user (a replay is refused). */
export async function useTotpCode(people: People, user: UserRow, secret: string, code: string, now: number): Promise<TotpOutcome> {
  const step = totpStep(secret, code, now);
  if (step === undefined) return 'wrong';
  return (await people.store.useTotpStep(user.id, step)) ? 'ok' : 'used';
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
 * The second factor of a sign-in: a current TOTP code not used before, or an unused recovery
 * code, spent by the backend in one step (`PeopleStore.useRecoveryCode`: of concurrent uses
 * of one code at most one succeeds; nothing else of the user is written).
 */
export async function verifyTotp(people: People, user: UserRow, code: string, now: number): Promise<TotpOutcome> {
  if (code.length > 32) return 'wrong';
  const totpOutcome = await useTotpCode(people, user, user.totp_secret, code, now);
  if (totpOutcome !== 'wrong') return totpOutcome;
  if (code.trim() === '') return 'wrong';
  return (await people.store.useRecoveryCode(user.id, hashCode(code))) ? 'ok' : 'wrong';
}
