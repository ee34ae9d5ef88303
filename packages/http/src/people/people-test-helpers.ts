/**
 * Test scaffolding for the account pages over real HTTPS (not exported): posting forms as a
 * browser would, signing in with a password, reading tokens out of pages.
 */
import type { Reply, TestDashboard } from '../dashboard/test-helpers.js';

/** Posts a form with this server's Origin (or `origin`) and the cookie, if any. */
export function postForm(
  t: TestDashboard, path: string, fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null; from?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', ...options.headers };
  if (options.origin !== null) headers.Origin = options.origin ?? t.origin;
  if (options.cookie) headers.Cookie = options.cookie;
  return t.request(path, { method: 'POST', headers, body: new URLSearchParams(fields).toString(), ...(options.from ? { localAddress: options.from } : {}) });
}

/** The `name=value` of the session cookie a reply sets ('' when none). */
export const cookieOf = (reply: Reply) => ([] as string[]).concat(reply.headers['set-cookie'] ?? [])[0]?.split(';', 1)[0] ?? '';

/** Signs in with email and password as the form would. */
export async function signInWithPassword(t: TestDashboard, email: string, password: string, extra: Record<string, string> = {}): Promise<{ reply: Reply; cookie: string }> {
  const reply = await postForm(t, '/dashboard/sign-in', { email, password, view: '', ...extra });
  return { reply, cookie: cookieOf(reply) };
}

/** The token of a one-time link address. */
export const tokenOf = (link: string) => new URL(link, 'https://x').searchParams.get('token') ?? '';

/** The CSRF token an account page's forms carry. */
export function csrfIn(html: string): string {
  const token = /name="csrf" value="([A-Za-z0-9_-]{43})"/.exec(html)?.[1];
  if (!token) throw new Error('No CSRF field in the page.');
  return token;
}

/** Adds a user with a password through the one-time link page; returns their cookie after signing in. */
export async function userWithPassword(t: TestDashboard, accountId: string, email: string, role: 'owner' | 'viewer', password: string): Promise<string> {
  const { link } = await t.people.addUser(accountId, email, role);
  const set = await postForm(t, '/dashboard/set-password', { token: link, password });
  if (set.status !== 303) throw new Error(`set-password answered ${set.status}: ${set.text.slice(0, 300)}`);
  const { reply, cookie } = await signInWithPassword(t, email, password);
  if (reply.status !== 303) throw new Error(`sign-in answered ${reply.status}`);
  return cookie;
}
