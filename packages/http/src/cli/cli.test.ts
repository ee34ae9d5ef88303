import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP } from './help.js';
import { runCli } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Runs the command in-process against `dir`, with its own database. */
async function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const stdout = new Collect();
  const stderr = new Collect();
  const env = { DATABASE_PATH: join(dir, 'cli.db'), ...options.env };
  const code = await runCli(args, { cwd: dir, env, stdin: Readable.from([options.stdin ?? '']), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const line = (fields: Record<string, unknown>) => JSON.stringify({ site_id: 'ST-blog', type: 'pageview', ...fields });

describe('siteline command', () => {
  it('prints help with exit 0, for the whole command and each command', async () => {
    expect(await cli(['--help'])).toEqual({ code: 0, stdout: `${HELP.siteline}\n`, stderr: '' });
    expect((await cli(['help', 'import'])).stdout).toBe(`${HELP.import}\n`);
    for (const command of ['start', 'serve', 'import', 'demo']) {
      expect(await cli([command, '--help'])).toMatchObject({ code: 0, stdout: `${HELP[command as keyof typeof HELP]}\n` });
    }
    expect(await cli(['sites', 'add', '-h'])).toMatchObject({ code: 0, stdout: `${HELP.sites}\n` });
  });

  it('exits 2 on usage errors, saying what is wrong', async () => {
    expect(await cli(['frobnicate'])).toEqual({ code: 2, stdout: '', stderr: 'siteline: unknown command "frobnicate".\nRun "siteline --help" for usage.\n' });
    expect(await cli([])).toMatchObject({ code: 2, stderr: expect.stringContaining('a command is required') });
    expect(await cli(['sites', 'add', '--colour', 'red'])).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--colour'") });
    expect(await cli(['sites', 'add'])).toMatchObject({ code: 2, stderr: expect.stringContaining('sites add needs --name <name>.') });
    expect(await cli(['sites', 'remove'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown subcommand "sites remove"') });
    expect(await cli(['import'])).toMatchObject({ code: 2, stderr: expect.stringContaining('import needs exactly one file name') });
    expect(await cli(['demo', '--days', 'many'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--days must be a whole number') });
    expect(await cli(['serve', '--port', '1'])).toMatchObject({ code: 2 });
  });

  it('exits 1 with every configuration problem when serve is misconfigured', async () => {
    const result = await cli(['serve'], { env: { PORT: 'http' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('  - PORT must be an integer from 0 to 65535 (got "http").');
    expect(result.stderr).toContain('  - SERVICE_API_KEY is required');
    expect(result.stderr).toContain('  - TLS_CERT_FILE and TLS_KEY_FILE are required');
  });

  it('goals: add (event or page), list, delete; usage errors exit 2, refused goals 1', async () => {
    const goals = (args: string[]) => cli(args, { env: { DATABASE_PATH: join(dir, 'goals.db') } });
    await goals(['sites', 'add', '--name', 'Goals', '--id', 'ST-goals']);
    expect(await goals(['goals', 'add', '--site', 'ST-goals', '--page', '/blog/*'])).toEqual({ code: 0, stdout: 'Added goal "Visit /blog/*" to ST-goals.\n', stderr: '' });
    expect(await goals(['goals', 'add', '--site', 'ST-goals', '--event', 'Signup'])).toMatchObject({ code: 0, stdout: 'Added goal "Signup" to ST-goals.\n' });
    expect((await goals(['goals', 'list', '--site', 'ST-goals'])).stdout).toMatch(/^GOAL +TYPE +MATCHES +CREATED\nSignup +event +Signup +\d{4}-\d\d-\d\d\nVisit \/blog\/\* +page +\/blog\/\* +\d{4}/);
    expect(await goals(['goals', 'add', '--site', 'ST-goals', '--event', 'x'.repeat(201)])).toEqual({ code: 1, stdout: '', stderr: 'siteline: An event goal needs an event name of 1 to 200 characters.\n' });
    expect(await goals(['goals', 'add', '--site', 'ST-goals', '--page', 'thanks'])).toEqual({
      code: 1, stdout: '', stderr: 'siteline: A page goal\'s pattern starts with / (such as /thanks or /blog/*): every recorded path does, so any other pattern could never match.\n',
    });
    expect(await goals(['goals', 'add', '--site', 'ST-goals', '--event', 'a', '--page', '/b'])).toMatchObject({ code: 2, stderr: expect.stringContaining('either --event <name> or --page <pattern>') });
    expect(await goals(['goals', 'add', '--site', 'ST-goals'])).toMatchObject({ code: 2, stderr: expect.stringContaining('either --event <name> or --page <pattern>') });
    expect(await goals(['goals', 'list'])).toMatchObject({ code: 2, stderr: expect.stringContaining('goals list needs --site <id>.') });
    expect(await goals(['goals', 'delete', '--site', 'ST-goals'])).toMatchObject({ code: 2, stderr: expect.stringContaining('goals delete needs --goal') });
    expect(await goals(['goals', 'rename', '--site', 'ST-goals'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown subcommand "goals rename"') });
    expect(await goals(['goals', 'delete', '--site', 'ST-goals', '--goal', 'Signup'])).toEqual({ code: 0, stdout: 'Deleted goal "Signup" of ST-goals.\n', stderr: '' });
    expect((await goals(['goals', 'list', '--site', 'ST-goals'])).stdout).not.toContain('Signup');
    expect(await goals(['goals', 'list', '--site', 'ST-none'])).toEqual({ code: 1, stdout: '', stderr: 'siteline: No site ST-none; list them with: siteline sites list\n' });
    expect(await goals(['goals', '--help'])).toMatchObject({ code: 0, stdout: `${HELP.goals}\n` });
  });

  it('adds and lists sites', async () => {
    expect(await cli(['sites', 'list'])).toMatchObject({ code: 0, stdout: 'No sites yet. Add one with: siteline sites add --name <name>\n' });
    expect(await cli(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog', '--timezone', 'Europe/Berlin', '--domain', 'www.blog.example'])).toEqual({
      code: 0,
      stdout: 'Created site ST-blog "Blog" (time zone Europe/Berlin, domain blog.example).\n',
      stderr: '',
    });
    const generated = await cli(['sites', 'add', '--name', 'Shop']);
    expect(generated.stdout).toMatch(/^Created site ST-[A-Za-z0-9]{12} "Shop" \(time zone UTC\)\.\n$/);
    expect(await cli(['sites', 'add', '--name', 'Again', '--id', 'ST-blog'])).toMatchObject({ code: 1, stderr: 'siteline: A site with id ST-blog already exists.\n' });
    expect(await cli(['sites', 'add', '--name', 'X', '--timezone', 'Mars/Olympus'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown time zone "Mars/Olympus"') });

    const table = (await cli(['sites', 'list'])).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^ID {15}NAME {2}TIME ZONE {6}DOMAIN {8}ACCOUNT {2}CREATED$/);
    expect(table[1]).toMatch(/^ST-blog {10}Blog {2}Europe\/Berlin {2}blog\.example {2}- {8}\d{4}-\d{2}-\d{2}$/);
    expect(table).toHaveLength(3);
  });

  it('imports an NDJSON file, and refuses a file with bad lines listing each', async () => {
    const good = join(dir, 'good.ndjson');
    writeFileSync(good, [
      line({ ts: '2026-05-01T10:00:00Z', url: '/', visitor_id: 'v1', referrer: 'https://www.google.com/' }),
      line({ ts: '2026-05-01T10:01:00Z', url: '/pricing', visitor_id: 'v1' }),
      line({ ts: '2026-05-01T10:02:00Z', type: 'event', name: 'signup', visitor_id: 'v1', props: { plan: 'pro', seats: 3 } }),
      '',
    ].join('\n'));
    expect(await cli(['import', 'good.ndjson'])).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Imported 3 events \(2 pageviews, 1 custom event\) in 1 session for ST-blog in \d+\.\d s\.\n$/),
      stderr: '',
    });
    expect(await cli(['import', 'good.ndjson'])).toMatchObject({ code: 1, stderr: expect.stringContaining('already imported') });

    writeFileSync(join(dir, 'bad.ndjson'), [line({ ts: '2026-05-02T10:00:00Z', url: '/' }), '{oops', line({ ts: 'yesterday', url: '/' }), line({ ts: '2026-05-02T10:00:00Z', site_id: 'ST-nope', url: '/' })].join('\n'));
    const bad = await cli(['import', 'bad.ndjson']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'Import failed: 3 invalid lines; nothing was imported.\n' +
        '  line 2: not valid JSON\n' +
        '  line 3: ts must be an ISO 8601 instant with a zone, e.g. 2026-11-01T10:00:00Z\n' +
        '  line 4: site_id ST-nope does not exist\n',
    );
    expect(await cli(['import', 'missing.ndjson'])).toMatchObject({ code: 1, stderr: 'siteline: Cannot read missing.ndjson: no such file.\n' });
  });

  it('imports from standard input with -', async () => {
    const stdin = `${line({ ts: '2026-05-03T08:00:00Z', url: '/about', visitor_id: 'v9' })}\n`;
    expect(await cli(['import', '-'], { stdin })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Imported 1 event /) });
  });

  it('exports a site\'s events of a range as NDJSON import lines, which import into another database', async () => {
    // ST-blog holds the three events of 05-01 and the one of 05-03 imported above.
    const exported = await cli(['export', '--site', 'ST-blog', '--from', '2026-05-01', '--to', '2026-05-02']);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    const lines = exported.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines.map((l) => [l.ts, l.type, l.url ?? l.name, l.referrer])).toEqual([
      ['2026-05-01T10:00:00.000Z', 'pageview', '/', 'https://google.com/'],
      ['2026-05-01T10:01:00.000Z', 'pageview', '/pricing', 'https://google.com/'],
      ['2026-05-01T10:02:00.000Z', 'event', 'signup', 'https://google.com/'],
    ]);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
    expect(lines.map((l) => (l as Record<string, unknown>).props)).toEqual([undefined, undefined, { plan: 'pro', seats: '3' }]); // stored as text
    const other = { DATABASE_PATH: join(dir, 'copy.db') };
    expect((await cli(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog', '--timezone', 'Europe/Berlin', '--domain', 'blog.example'], { env: other })).code).toBe(0);
    writeFileSync(join(dir, 'export.ndjson'), exported.stdout);
    expect(await cli(['import', 'export.ndjson'], { env: other })).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Imported 3 events \(2 pageviews, 1 custom event\) in 1 session /) });
    expect(await cli(['export', '--site', 'ST-blog', '--from', '2026-05-01', '--to', '2026-05-02'], { env: other })).toEqual(exported);

    // Bad flag values break the API's rules, said in the command's words.
    const usage = (message: string) => ({ code: 2, stdout: '', stderr: `siteline: ${message}\nRun "siteline --help" for usage.\n` });
    expect(await cli(['export', '--from', '2026-05-01', '--to', '2026-05-02'])).toEqual(usage('export needs --site <id>.'));
    expect(await cli(['export', '--site', 'ST-blog', '--from', '2026-05-01'])).toEqual(usage('--to is required when --from is present.'));
    expect(await cli(['export', '--site', 'ST-blog', '--from', '2026-05-02', '--to', '2026-05-01'])).toEqual(usage('--to must be a date after or equal to --from.'));
    expect(await cli(['export', '--site', 'ST-blog', '--from', '1 May', '--to', '2026-05-01'])).toEqual(usage('--from must be a valid date in the format YYYY-MM-DD.'));
    expect(await cli(['export', '--site', 'blog', '--period', '7d'])).toEqual(usage('--site format is invalid.'));
    expect(await cli(['export', '--site', 'ST-blog', '--period', 'week'])).toEqual(usage('--period is invalid.'));
    // --period as the API's period: the days up to today, which hold none of May 2026's events here.
    expect(await cli(['export', '--site', 'ST-blog', '--period', '7d'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await cli(['export', '--site', 'ST-nope', '--from', '2026-05-01', '--to', '2026-05-01'])).toMatchObject({ code: 1, stderr: 'siteline: Site not found.\n' });
  });

  it('adds the demo site to the configured database', async () => {
    const demo = await cli(['demo', '--days', '3', '--pageviews-per-day', '100', '--seed', '3']);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/^Added ST-demo "Demo" with [\d,]+ events \([\d,]+ pageviews, [\d,]+ sessions\) over 3 days in \d+\.\d s\.\n$/);
    expect((await cli(['sites', 'list'])).stdout).toMatch(/\nST-demo +Demo +Europe\/Berlin +demo\.siteline\.test /);
    expect(await cli(['demo'])).toMatchObject({ code: 1, stderr: 'siteline: A site with id ST-demo already exists.\n' });
  });

  it('refuses accounts add and keys create outside the Cloud edition, creating nothing', async () => {
    const env = { DATABASE_PATH: join(dir, 'community-accounts.db') };
    const refused = 'needs EDITION=cloud (in .env or the environment): accounts and their keys exist only in the Cloud edition. ' +
      'This is a Community installation: its one key is SERVICE_API_KEY, and "siteline users add" gives people a dashboard sign-in.\n';
    expect(await cli(['accounts', 'add', '--name', 'Acme'], { env })).toEqual({ code: 1, stdout: '', stderr: `siteline: accounts add ${refused}` });
    expect(await cli(['accounts', 'add', '--name', 'Acme', '--owner-email', 'owner@acme.test'], { env: { ...env, EDITION: 'community' } })).toMatchObject({ code: 1, stdout: '' });
    expect(await cli(['accounts', 'list'], { env })).toEqual({ code: 0, stdout: 'No accounts yet. Add one with: siteline accounts add --name <name>\n', stderr: '' });
    const account = /acct_[a-z0-9]{16}/.exec((await cli(['accounts', 'add', '--name', 'Acme'], { env: { ...env, EDITION: 'cloud' } })).stdout)![0];
    expect(await cli(['keys', 'create', '--account', account, '--name', 'ci'], { env })).toEqual({ code: 1, stdout: '', stderr: `siteline: keys create ${refused}` });
    expect((await cli(['keys', 'list', '--account', account], { env })).stdout).toBe(`No keys for ${account}. Create one with: siteline keys create --account ${account} --name <name>\n`);
  });

  it('manages Cloud accounts, their sites and keys', async () => {
    const env = { DATABASE_PATH: join(dir, 'cloud-cli.db'), EDITION: 'cloud' };
    const added = await cli(['accounts', 'add', '--name', 'Acme'], { env });
    expect(added).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created account acct_[a-z0-9]{16} "Acme"\.\n$/) });
    const account = /acct_[a-z0-9]{16}/.exec(added.stdout)![0];
    expect((await cli(['accounts', 'list'], { env })).stdout).toMatch(new RegExp(`^ID +NAME +CREATED\n${account} +Acme +\\d{4}-`));
    expect(await cli(['sites', 'add', '--name', 'Shop', '--id', 'ST-shop', '--account', account], { env })).toMatchObject({ code: 0 });
    expect(await cli(['sites', 'add', '--name', 'X', '--account', 'acct_nope'], { env })).toMatchObject({ code: 1, stderr: 'siteline: No account acct_nope; list them with: siteline accounts list\n' });

    const created = await cli(['keys', 'create', '--account', account, '--name', 'reporting'], { env });
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^st_[0-9a-f]{64}\n$/);
    expect(created.stderr).toMatch(/^Created key key_[a-z0-9]{12} "reporting"\. Copy it now: it is shown this once and cannot be recovered\.\n$/);
    const key = created.stdout.trim();
    const keyId = /key_[a-z0-9]{12}/.exec(created.stderr)![0];
    const list = await cli(['keys', 'list', '--account', account], { env });
    expect(list.stdout).toContain(`${keyId}  reporting  ${key.slice(0, 4)}…${key.slice(-4)}  `);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).toMatch(/ {2}- +-\n$/); // never used, not revoked

    expect(await cli(['keys', 'revoke', '--account', account, '--key', keyId], { env })).toEqual({
      code: 0, stdout: `Revoked key ${keyId}; requests with it get 401 from now on.\n`, stderr: '',
    });
    expect(await cli(['keys', 'revoke', '--account', account, '--key', keyId], { env })).toMatchObject({ code: 1, stderr: `siteline: No active key ${keyId} in account ${account}.\n` });
    expect(await cli(['keys', 'create', '--name', 'x'], { env })).toMatchObject({ code: 2 });
    expect(await cli(['keys', 'create', '--account', account], { env })).toMatchObject({ code: 2 });
    expect(await cli(['keys', 'rotate', '--account', account], { env })).toMatchObject({ code: 2 });
    expect(await cli(['keys', '--help'], { env })).toMatchObject({ code: 0, stdout: `${HELP.keys}\n` });
  });

  it('accounts add --owner-email prints the owner\'s one-time link; users add|list|link for the Community edition', async () => {
    const env = { DATABASE_PATH: join(dir, 'people-cli.db'), PUBLIC_URL: 'https://stats.example.com/' };
    const added = await cli(['accounts', 'add', '--name', 'Acme', '--owner-email', ' Owner@Acme.test '], { env: { ...env, EDITION: 'cloud' } });
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(/^Created account acct_[a-z0-9]{16} "Acme" with its owner owner@acme\.test\.\nSend this one-time link to owner@acme\.test; it sets the password, works once and expires in 24 hours:\n$/);
    expect(added.stdout).toMatch(/^https:\/\/stats\.example\.com\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}\n$/);
    const account = /acct_[a-z0-9]{16}/.exec(added.stderr)![0];
    expect((await cli(['users', 'list', '--account', account], { env })).stdout).toMatch(/^EMAIL +ROLE +PASSWORD +CREATED\nowner@acme\.test +owner +not yet +\d{4}-/);

    const viewer = await cli(['users', 'add', '--email', 'viewer@example.com', '--role', 'viewer'], { env: { ...env, PUBLIC_URL: '', PORT: '9443' } });
    expect(viewer).toMatchObject({ code: 0, stdout: expect.stringMatching(/^https:\/\/localhost:9443\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}\n$/) });
    expect((await cli(['users', 'list'], { env })).stdout).toMatch(/\nviewer@example\.com +viewer +not yet /);
    expect((await cli(['users', 'list'], { env })).stdout).not.toContain('owner@acme.test'); // an account's users are not the installation's
    const again = await cli(['users', 'link', '--email', 'viewer@example.com'], { env });
    expect(again.stdout).not.toBe(viewer.stdout);
    expect(await cli(['users', 'add', '--email', 'viewer@example.com'], { env })).toMatchObject({ code: 1, stderr: 'siteline: There is already a user viewer@example.com.\n' });
    expect(await cli(['users', 'add', '--email', 'not-an-address'], { env })).toMatchObject({ code: 1, stderr: 'siteline: An email address looks like name@example.com.\n' });
    expect(await cli(['users', 'add', '--email', 'x@example.com', '--role', 'admin'], { env })).toMatchObject({ code: 2, stderr: expect.stringContaining('--role is owner or viewer, got "admin".') });
    expect(await cli(['users', 'add', '--email', 'x@example.com', '--account', 'acct_nope'], { env })).toMatchObject({ code: 1, stderr: 'siteline: No account acct_nope; list them with: siteline accounts list\n' });
    expect(await cli(['users', 'add'], { env })).toMatchObject({ code: 2, stderr: expect.stringContaining('users add needs --email <address>.') });
    expect(await cli(['users', '--help'], { env })).toMatchObject({ code: 0, stdout: `${HELP.users}\n` });
  });

  it('Cloud: users need an account (--account), accounts add is all or nothing, one email may own accounts of its own', async () => {
    const env = { DATABASE_PATH: join(dir, 'cloud-people-cli.db'), EDITION: 'cloud' };
    for (const sub of ['add', 'list', 'link']) {
      expect(await cli(['users', sub, '--email', 'ops@example.test'], { env })).toMatchObject({
        code: 2, stderr: expect.stringContaining(`users ${sub} needs --account <id> in the Cloud edition: every user belongs to an account (siteline accounts list).`),
      });
    }
    expect(await cli(['accounts', 'add', '--name', 'Broken', '--owner-email', 'not-an-address'], { env })).toMatchObject({ code: 1, stderr: 'siteline: An email address looks like name@example.com.\n' });
    expect(await cli(['accounts', 'add', '--name', ' ', '--owner-email', 'owner@example.test'], { env })).toMatchObject({ code: 1 });
    expect((await cli(['accounts', 'list'], { env })).stdout).toBe('No accounts yet. Add one with: siteline accounts add --name <name>\n');
    expect((await cli(['users', 'list', '--account', 'acct_nope'], { env })).code).toBe(1);

    const ids: string[] = [];
    for (const name of ['Acme', 'Globex']) {
      const added = await cli(['accounts', 'add', '--name', name, '--owner-email', 'same@example.test'], { env });
      expect([name, added.code]).toEqual([name, 0]);
      ids.push(/acct_[a-z0-9]{16}/.exec(added.stderr)![0]);
    }
    expect((await cli(['accounts', 'list'], { env })).stdout.trimEnd().split('\n').slice(1).map((row) => row.split(/ +/)[1])).toEqual(['Acme', 'Globex']);
    for (const id of ids) expect((await cli(['users', 'list', '--account', id], { env })).stdout).toMatch(/^EMAIL +ROLE +PASSWORD +CREATED\nsame@example\.test +owner +not yet +\d{4}-[^\n]+\n$/);
  });
});
