/**
 * The figures and small rules of people, defined once: how long links, sessions, accepted
 * codes and attempts last, what an email and a token look like, and the CSRF comparison.
 * `People` (people.ts) applies them; stores import the figures they need.
 */
import { hashesEqual } from '../accounts/keys.js';
import type { WebSessionRow } from './types.js';

/** A set-password link is valid this long, once. */
export const LINK_TTL_MS = 24 * 3_600_000;

/** Session lifetimes: idle expiry, absolute expiry, and how often a use is written (the idle clock's resolution). */
export const SESSION_LIMITS = { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000, touchMs: 60_000 } as const;

/** A two-factor code's time step (RFC 6238's X, 30 s); stores keep accepted steps as `floor(ms / TOTP_STEP_MS)`. */
export const TOTP_STEP_MS = 30_000;

/**
 * How long sign-in attempts and accepted two-factor steps are kept: past the throttle's
 * memory (15 minutes) and a code's validity (90 s), so removing them changes no answer.
 */
export const ATTEMPTS_KEPT_MS = 3_600_000;

/** How often a server removes what can no longer be used (`People.removeExpired`). */
export const CLEANUP_INTERVAL_MS = 3_600_000;

/** Longest email accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
/** Session ids and link tokens as they travel: base64url of 32 random bytes. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A rule of people was broken; the message says what to do. */
export class PeopleError extends Error {
  override readonly name = 'PeopleError';
}

/**
 * The email as stored and compared: trimmed and lower-cased, or an error.
 * @example normalEmail(' Ann@Example.COM ') // 'ann@example.com'
 */
export function normalEmail(email: string): string {
  const normal = email.trim().toLowerCase();
  if (normal.length > MAX_EMAIL_LENGTH || !EMAIL.test(normal)) throw new PeopleError('An email address looks like name@example.com.');
  return normal;
}

/**
 * Whether a posted CSRF token is the session's (constant-time).
 * @example csrfMatches(session, form.get('csrf'))
 */
export function csrfMatches(session: WebSessionRow, posted: string | null | undefined): boolean {
  // Bytes, not characters, are compared: a token of as many characters with a wider one is refused, not thrown on.
  return typeof posted === 'string' && hashesEqual(Buffer.from(posted), Buffer.from(session.csrf));
}
