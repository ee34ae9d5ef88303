/**
 * One-time links by mail: an owner invites someone in the account pages with `SMTP_URL` set,
 * and a real SMTP server on loopback (smtp-server) receives the mail; its link sets the password.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { startDashboard, type TestDashboard } from '../dashboard/test-helpers.js';
import { mailerFor } from './mail.js';
import { csrfIn, postForm, signInWithPassword, userWithPassword } from './people-test-helpers.js';

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('one-time links by mail (SMTP_URL)', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let t: TestDashboard;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let data = '';
        stream.setEncoding('utf8').on('data', (c: string) => (data += c)).on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    const mailLink = mailerFor({ url: `smtp://127.0.0.1:${port}`, from: 'Siteline <no-reply@siteline.test>' }, silentLogger)!;
    t = await startDashboard({ cloud: true, dashboard: { mailLink } });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('the invitation reaches the SMTP server with the link, and that link sets the password', async () => {
    const owner = await userWithPassword(t, t.cloud!.accountA, 'owner@acme.test', 'owner', 'tulip-orbit-42-canyon');
    const csrf = csrfIn((await t.request('/dashboard/account/users', { headers: { Cookie: owner } })).text);
    const invited = await postForm(t, '/dashboard/account/users', { csrf, email: 'mailed@acme.test', role: 'viewer' }, { cookie: owner });
    expect(invited.status).toBe(201);
    expect(invited.text).toContain('The link was sent by mail.');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@siteline.test', to: ['mailed@acme.test'] });
    expect(received[0]!.data).toContain('Subject: Set your Siteline password');
    const token = /\/dashboard\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(received[0]!.data.replace(/=\r\n/g, '').replace(/=3D/g, '='))![1]!;
    expect(invited.text).toContain(token); // the same link, shown to the owner too
    expect((await postForm(t, '/dashboard/set-password', { token, password: 'mailed-link-password-1' })).status).toBe(303);
    expect((await signInWithPassword(t, 'mailed@acme.test', 'mailed-link-password-1')).reply.status).toBe(303);
  });

  it('an unreachable SMTP server: the link is still shown, and the failure is logged without the URL\'s password', async () => {
    const logs: { msg: string; error?: string }[] = [];
    const send = mailerFor({ url: 'smtp://user:secret-pass@127.0.0.1:1', from: 'x@siteline.test' }, (e) => logs.push(e as { msg: string }))!;
    expect(await send('a@acme.test', 'https://localhost/dashboard/set-password?token=x')).toBe(false);
    expect(logs.map((l) => l.msg)).toEqual(['one-time link not mailed']);
    expect(JSON.stringify(logs)).not.toContain('secret-pass');
  });
});
