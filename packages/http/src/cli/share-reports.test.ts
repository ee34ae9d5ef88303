/**
 * `siteline share` and `siteline reports` in-process on a real SQLite file: the link's address
 * printed once (and what it opens), the password from standard input, listing and revoking;
 * subscribing, listing, unsubscribing, and sending a report now through a real SMTP server on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { createSite, openSqliteBackend, People, SharedLinks } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMail, startSmtp } from '../email-reports/mail-test-helpers.js';
import { runCli } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-share-'));
const DB = join(dir, 'cli.db');
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  const backend = openSqliteBackend(DB);
  await createSite(backend.storage, { id: 'ST-cli', name: 'Cli Blog', timezone: 'UTC' });
  await backend.close();
});
afterAll(async () => {
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

async function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const [stdout, stderr] = [new Collect(), new Collect()];
  const env = { DATABASE_PATH: DB, PUBLIC_URL: 'https://stats.example.test', ...options.env };
  const code = await runCli(args, { cwd: dir, env, stdin: Readable.from([options.stdin ?? '']), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** What a printed address opens, read from the database as a server would. */
async function opens(address: string) {
  const backend = openSqliteBackend(DB);
  try {
    return await new SharedLinks(backend.shares, new People(backend.people)).open(/\/share\/([A-Za-z0-9_-]{43})\/$/.exec(address.trim())?.[1]);
  } finally {
    await backend.close();
  }
}

describe('siteline share', () => {
  it('add prints the address once (PUBLIC_URL/share/<token>/), which opens the site; list shows the link, revoke ends it', async () => {
    const added = await cli(['share', 'add', '--site', 'ST-cli', '--name', 'Client']);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^https:\/\/stats\.example\.test\/share\/[A-Za-z0-9_-]{43}\/\n$/);
    expect(added.stderr).toMatch(/^Shared link lnk_[a-z0-9]{12} "Client" of ST-cli\. Its address is shown this once:\n$/);
    const link = (await opens(added.stdout))!;
    expect(link).toMatchObject({ site_id: 'ST-cli', name: 'Client', password_hash: '' });
    const listed = await cli(['share', 'list', '--site', 'ST-cli']);
    expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^${link.id}  Client  no +- +- +\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`));
    expect(listed.stdout).not.toContain(added.stdout.trim().slice(-44, -1));
    expect(await cli(['share', 'revoke', '--site', 'ST-cli', '--link', link.id])).toMatchObject({ code: 0, stdout: `Revoked ${link.id}: its pages stop working at their next request.\n` });
    expect(await opens(added.stdout)).toBeUndefined();
    expect(await cli(['share', 'revoke', '--site', 'ST-cli', '--link', link.id])).toMatchObject({ code: 1 });
    expect((await cli(['share', 'list', '--site', 'ST-cli'])).stdout).toBe('ST-cli has no shared links. Add one with: siteline share add --site ST-cli --name <name>\n');
  });

  it('--password reads the password from standard input; --embed and --segment are checked and kept', async () => {
    const withPassword = await cli(['share', 'add', '--site', 'ST-cli', '--name', 'Board', '--password'], { stdin: 'harbour-lantern-77\n' });
    expect(withPassword.code).toBe(0);
    expect((await opens(withPassword.stdout))?.password_hash).toMatch(/^scrypt\$/);
    expect(await cli(['share', 'add', '--site', 'ST-cli', '--name', 'Weak', '--password'], { stdin: 'short\n' })).toMatchObject({ code: 1, stderr: 'siteline: A password needs at least 10 characters.\n' });
    const embedded = await cli(['share', 'add', '--site', 'ST-cli', '--name', 'Blog', '--embed', 'https://Blog.example.com', '--embed', 'http://127.0.0.1:8080', '--segment', '[["is","country",["DE"]]]']);
    expect(await opens(embedded.stdout)).toMatchObject({ frame_ancestors: ['https://blog.example.com', 'http://127.0.0.1:8080'], segment: [['is', 'country', ['DE']]] });
    expect((await cli(['share', 'add', '--site', 'ST-cli', '--name', 'Any', '--embed', '*'])).stderr).toMatch(/^siteline: An embedding origin is https:\/\/host/);
    expect(await cli(['share', 'add', '--site', 'ST-nosite', '--name', 'x'])).toMatchObject({ code: 1, stderr: 'siteline: No site ST-nosite; list them with: siteline sites list\n' });
    expect(await cli(['share', 'add', '--name', 'x'])).toMatchObject({ code: 2 });
  });
});

describe('siteline reports', () => {
  it('subscribe (both reports without --period), list, unsubscribe one kind', async () => {
    expect(await cli(['reports', 'subscribe', '--site', 'ST-cli', '--email', 'Ann@Example.com'])).toMatchObject({ code: 0, stdout: 'ann@example.com receives the weekly and monthly report of ST-cli.\n' });
    expect(await cli(['reports', 'subscribe', '--site', 'ST-cli', '--email', 'bob@example.com', '--period', 'month'])).toMatchObject({ code: 0 });
    expect((await cli(['reports', 'list', '--site', 'ST-cli'])).stdout.split('\n').map((l) => l.replace(/\d{4}-\d{2}-\d{2}$/, 'DAY'))).toEqual([
      'EMAIL            REPORT   SINCE', 'ann@example.com  weekly   DAY', 'ann@example.com  monthly  DAY', 'bob@example.com  monthly  DAY', '',
    ]);
    expect(await cli(['reports', 'unsubscribe', '--site', 'ST-cli', '--email', 'ann@example.com', '--period', 'month'])).toMatchObject({ code: 0 });
    expect(await cli(['reports', 'unsubscribe', '--site', 'ST-cli', '--email', 'ann@example.com', '--period', 'month'])).toMatchObject({ code: 1 });
    expect(await cli(['reports', 'send', '--site', 'ST-cli', '--period', 'year'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--period is week or month, got "year".') });
  });

  it('send mails the latest complete period now, to --to or to every subscriber of the kind; without SMTP_URL it says what is missing', async () => {
    expect(await cli(['reports', 'send', '--site', 'ST-cli', '--period', 'week'])).toMatchObject({ code: 1, stderr: expect.stringContaining('reports send needs SMTP_URL') });
    const env = { SMTP_URL: smtp.url, MAIL_FROM: 'Siteline <reports@example.test>' };
    const sent = await cli(['reports', 'send', '--site', 'ST-cli', '--period', 'month'], { env });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^Sent the monthly report of ST-cli \([A-Z][a-z]+ \d{4}\) to bob@example\.com\.\n$/);
    expect(smtp.received.map((m) => m.to)).toEqual([['bob@example.com']]);
    await cli(['reports', 'send', '--site', 'ST-cli', '--period', 'week', '--to', 'carol@example.com'], { env });
    const mail = parseMail(smtp.received[1]!.raw);
    expect(smtp.received[1]!.to).toEqual(['carol@example.com']);
    expect(mail.headers.subject).toMatch(/^Siteline weekly report: Cli Blog, [A-Z][a-z]{2} \d{1,2} – [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(mail.text).toMatch(/^Visitors {17}0$/m); // no visits in the site, before or now: no change to tell
    expect(mail.text).toContain('Stop it: https://stats.example.test/dashboard/unsubscribe?token=');
  });
});
