/**
 * Secret tokens given to a person once (session ids, one-time links, shared links,
 * unsubscribe links): 256 random bits as base64url; stores keep only their SHA-256.
 * A fast hash is enough: a 256-bit random value cannot be guessed.
 */
import { createHash, randomBytes } from 'node:crypto';

/**
 * A new secret token: base64url of 32 random bytes (43 characters, `TOKEN_PATTERN`).
 * @example newToken() // 'q3V0…' (43 characters)
 */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * The stored form of a token: SHA-256, hex.
 * @example tokenHash(newToken()).length // 64
 */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
