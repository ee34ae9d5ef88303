/**
 * Test scaffolding (not exported): two-factor turned on through the Password page, as a
 * person would, with the authenticator app's code computed at the dashboard's clock.
 */
import { TOTP } from 'otpauth';
import type { TestDashboard } from '../dashboard/test-helpers.js';
import { csrfIn, postForm } from './people-test-helpers.js';

/** The app's code for `secret` at `ms`. */
export const totpCode = (secret: string, ms: number) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

/** Turns two-factor on for the signed-in `cookie` (the current password confirms it); returns the secret and the ten recovery codes. */
export async function turnOnTwoFactor(t: TestDashboard, cookie: string, password: string, now: () => number): Promise<{ secret: string; codes: string[] }> {
  const csrf = csrfIn((await t.request('/dashboard/account/password', { headers: { Cookie: cookie } })).text);
  const start = await postForm(t, '/dashboard/account/password/totp-start', { csrf }, { cookie });
  const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(start.text)?.[1];
  if (!secret) throw new Error(`totp-start answered ${start.status}`);
  const on = await postForm(t, '/dashboard/account/password/totp-confirm', { csrf, secret, code: totpCode(secret, now()), current: password }, { cookie });
  const codes = /id="recovery-codes" readonly rows="10"[^>]*>([^<]*)<\/textarea>/.exec(on.text)?.[1]?.split('\n');
  if (!codes || codes.length !== 10) throw new Error(`totp-confirm answered ${on.status}: ${on.text.slice(0, 300)}`);
  return { secret, codes };
}
