/**
 * Passwords of dashboard users: the policy (at least 10 characters, not a common password)
 * and the stored form (scrypt from node:crypto, parameters written into every hash so they
 * can be raised later without breaking stored ones).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB of memory and ~50-100 ms of one core per
 * hash, OWASP's minimum for scrypt), a 16-byte random salt, a 32-byte result.
 */
export const SCRYPT_PARAMS = { logN: 15, r: 8, p: 1, saltBytes: 16, keyBytes: 32 } as const;

export const MIN_PASSWORD_LENGTH = 10;
/** Longer input is refused unhashed: scrypt's cost grows with it, an attacker's lever. */
export const MAX_PASSWORD_LENGTH = 200;

let common: Promise<Set<string>> | undefined;
/**
 * zxcvbn-ts's list of the ~49,000 most common passwords (MIT), the 1,557 entries long enough
 * to pass the length rule, lower-cased. Loaded at first use: the list is large, and most
 * processes (commands, the collector) never check a password.
 */
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) =>
    new Set(dictionary['passwords-common'].filter((p) => p.length >= MIN_PASSWORD_LENGTH).map((p) => p.toLowerCase()))));

/**
 * Why a new password is refused, or undefined when it is acceptable.
 * @example await passwordProblem('password123') // 'This password is among the most common ones; choose another.'
 */
export async function passwordProblem(password: string): Promise<string | undefined> {
  if (password.length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password has at most ${MAX_PASSWORD_LENGTH} characters.`;
  if ((await commonPasswords()).has(password.toLowerCase())) return 'This password is among the most common ones; choose another.';
  return undefined;
}

const derive = (password: string, salt: Buffer, logN: number, r: number, p: number, keyBytes: number) =>
  new Promise<Buffer>((resolve, reject) => {
    const N = 2 ** logN;
    scrypt(password.normalize('NFC'), salt, keyBytes, { N, r, p, maxmem: 256 * N * r }, (error, key) => (error ? reject(error) : resolve(key)));
  });

/**
 * The stored form of a password: `scrypt$<logN>$<r>$<p>$<salt b64url>$<hash b64url>`, with
 * a new random salt, or the salt of `sharing` (another stored hash of the same email: see
 * `verifyPasswords`).
 * @example const stored = await hashPassword('correct horse battery'); // 'scrypt$15$8$1$…'
 */
export async function hashPassword(password: string, sharing?: string): Promise<string> {
  const { logN, r, p, saltBytes, keyBytes } = SCRYPT_PARAMS;
  const shared = sharing === undefined ? undefined : parse(sharing);
  const salt = shared && shared.logN === logN && shared.r === r && shared.p === p ? shared.salt : randomBytes(saltBytes).toString('base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), logN, r, p, keyBytes);
  return ['scrypt', logN, r, p, salt, key.toString('base64url')].join('$');
}

/** A hash of nothing anyone knows, checked when there is no user, so both cases take one scrypt. */
let decoy: Promise<string> | undefined;

interface Parsed {
  logN: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
  /** Everything but the hash: hashes sharing it need one scrypt for all. */
  group: string;
}

function parse(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, logN, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  return { logN: Number(logN), r: Number(r), p: Number(p), salt, hash, group: parts.slice(0, 5).join('$') };
}

/**
 * Which of `stored` (hashes of one email's users, `''` for no password) `password` matches,
 * and how many scrypt derivations that took: one per distinct parameters-and-salt, so the
 * users of one email, who share a salt (`hashPassword`'s `sharing`), cost one however many
 * accounts they are in, and the time taken does not tell how many there are. With no
 * usable hash (no user, no password set yet) a decoy is derived: still one, never a match.
 * Compared in constant time.
 * @example const { matches } = await verifyPasswords('correct horse battery', [stored]); // [true]
 */
export async function verifyPasswords(password: string, stored: readonly string[]): Promise<{ matches: boolean[]; derivations: number }> {
  const parsed = stored.map(parse);
  const fits = password.length <= MAX_PASSWORD_LENGTH;
  const groups = new Map<string, Parsed>();
  for (const p of parsed) if (p && fits && !groups.has(p.group)) groups.set(p.group, p);
  if (groups.size === 0) groups.set('decoy', parse(await (decoy ??= hashPassword(randomBytes(16).toString('hex'))))!);
  const keys = new Map<string, Buffer>();
  for (const [group, p] of groups) {
    keys.set(group, await derive(password.slice(0, MAX_PASSWORD_LENGTH), Buffer.from(p.salt, 'base64url'), p.logN, p.r, p.p, Buffer.from(p.hash, 'base64url').length));
  }
  const matches = parsed.map((p) => {
    const key = p && fits ? keys.get(p.group) : undefined;
    const expected = p ? Buffer.from(p.hash, 'base64url') : undefined;
    return key !== undefined && expected !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
  });
  return { matches, derivations: groups.size };
}

/**
 * Whether `password` matches `stored` (constant-time compare). An empty or malformed
 * `stored` (no user, no password set yet) is checked against a decoy and is never a match,
 * so the time taken does not tell whether the user exists.
 * @example await verifyPassword('correct horse battery', stored) // true
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await verifyPasswords(password, [stored])).matches[0]!;
}
