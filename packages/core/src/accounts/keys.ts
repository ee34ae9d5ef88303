import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Cloud API keys (read-api.md section 5, decisions.md section 7): `st_` and
 * 64 lowercase hex characters from the CSPRNG (256 bits).
 */
export const CLOUD_KEY_PATTERN = /^st_[0-9a-f]{64}$/;

/** A new Cloud key. Shown to its owner once; only its hash is stored. */
export function generateCloudKey(): string {
  return `st_${randomBytes(32).toString('hex')}`;
}

/**
 * The stored form of a key: HMAC-SHA256 under a fixed domain-separation key.
 * A fast hash is enough: a 256-bit random key cannot be guessed, so there is
 * nothing for a slow password hash to protect.
 */
export function hashCloudKey(key: string): Buffer {
  return createHmac('sha256', 'siteline/api-key/v1').update(key).digest();
}

/** Constant-time equality of two key hashes. */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * How a key is listed after creation: first and last four characters.
 * @example maskKey('st_a1b2...9f3c') // 'st_a…9f3c'
 */
export function maskKey(prefix: string, last4: string): string {
  return `${prefix}…${last4}`;
}
