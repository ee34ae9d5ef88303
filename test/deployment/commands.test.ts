import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deploymentSetup, type Engine } from './engines.js';
import { command, siteline } from './processes.js';

/** Every `siteline` command on each engine, in both editions, from a fresh directory each time. */
const { dir, stops, engines } = deploymentSetup('commands', ['SQLite', 'ClickHouse']);
let fresh = 0;

describe.each(engines)('the siteline command on %s', (_name, make) => {
  const line = (fields: object) => JSON.stringify({ site_id: 'ST-blog', type: 'pageview', ...fields });

  it.each(['community', 'cloud'])('`siteline start` (%s edition) on a fresh directory prints a curl line that returns the demo data', async (edition) => {
    const cwd = join(dir, `start-${++fresh}`);
    mkdirSync(cwd);
    const engine = await make(`start-${fresh}`);
    const server = siteline(['start'], cwd, { ...engine.env, EDITION: edition, PORT: '0' });
    stops.push(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    const [, curl] = await server.waitFor('stderr', /^ {2}(curl .+)$/m, 60_000);
    expect(curl).toMatch(/-H "Authorization: Bearer (st_[0-9a-f]{64}|[0-9a-f]{64})" "https:\/\/localhost:\d+\/api\/v1\/stats\?site_id=ST-demo"$/);
    if (edition === 'cloud') expect(curl).toMatch(/Bearer st_/);
    const body = JSON.parse(execSync(curl!, { cwd, encoding: 'utf8' })) as { pageviews: number };
    expect(body.pageviews).toBeGreaterThan(5_000);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  describe('data commands', () => {
    let engine: Engine;
    const cwd = join(dir, 'data');
    beforeAll(async () => {
      mkdirSync(cwd, { recursive: true });
      engine = await make('data');
    });

    it('sites add and sites list', async () => {
      expect(await command(['sites', 'add', '--name', 'Blog', '--id', 'ST-blog', '--timezone', 'Europe/Berlin', '--domain', 'blog.example'], cwd, engine.env)).toEqual({
        stdout: 'Created site ST-blog "Blog" (time zone Europe/Berlin, domain blog.example).\n', stderr: '',
      });
      const table = (await command(['sites', 'list'], cwd, engine.env)).stdout.trimEnd().split('\n');
      expect(table[0]).toMatch(/^ID +NAME +TIME ZONE +DOMAIN +ACCOUNT +CREATED$/);
      expect(table[1]).toMatch(/^ST-blog +Blog +Europe\/Berlin +blog\.example +- +\d{4}-\d{2}-\d{2}$/);
    });

    it('import, refusing the same file twice', async () => {
      writeFileSync(join(cwd, 'events.ndjson'), [
        line({ ts: '2026-05-01T10:00:00Z', url: '/', visitor_id: 'v1', referrer: 'https://www.google.com/' }),
        line({ ts: '2026-05-01T10:01:00Z', url: '/pricing', visitor_id: 'v1' }),
        line({ ts: '2026-05-01T10:02:00Z', type: 'event', name: 'signup', visitor_id: 'v1' }),
      ].join('\n'));
      expect((await command(['import', 'events.ndjson'], cwd, engine.env)).stdout).toMatch(
        /^Imported 3 events \(2 pageviews, 1 custom event\) in 1 session for ST-blog in \d+\.\d s\.\n$/,
      );
      const again = siteline(['import', 'events.ndjson'], cwd, engine.env);
      expect(await again.exited).toBe(1);
      expect(again.out.stderr).toContain('already imported');
    });

    it('goals add, list and delete; refused goals exit 1 with the reason', async () => {
      expect(await command(['goals', 'add', '--site', 'ST-blog', '--event', 'signup'], cwd, engine.env)).toEqual({ stdout: 'Added goal "signup" to ST-blog.\n', stderr: '' });
      expect((await command(['goals', 'add', '--site', 'ST-blog', '--page', '/thanks*'], cwd, engine.env)).stdout).toBe('Added goal "Visit /thanks*" to ST-blog.\n');
      const table = (await command(['goals', 'list', '--site', 'ST-blog'], cwd, engine.env)).stdout.trimEnd().split('\n');
      expect(table[0]).toMatch(/^GOAL +TYPE +MATCHES +CREATED$/);
      expect(table.slice(1).map((row) => row.split(/ {2,}/).slice(0, 3))).toEqual([['Visit /thanks*', 'page', '/thanks*'], ['signup', 'event', 'signup']]);
      const twice = siteline(['goals', 'add', '--site', 'ST-blog', '--event', 'signup'], cwd, engine.env);
      expect(await twice.exited).toBe(1);
      expect(twice.out.stderr).toBe('siteline: The site already has a goal named "signup".\n');
      const nowhere = siteline(['goals', 'list', '--site', 'ST-nope'], cwd, engine.env);
      expect(await nowhere.exited).toBe(1);
      expect(nowhere.out.stderr).toBe('siteline: No site ST-nope; list them with: siteline sites list\n');
      expect((await command(['goals', 'delete', '--site', 'ST-blog', '--goal', 'Visit /thanks*'], cwd, engine.env)).stdout).toBe('Deleted goal "Visit /thanks*" of ST-blog.\n');
      const gone = siteline(['goals', 'delete', '--site', 'ST-blog', '--goal', 'Visit /thanks*'], cwd, engine.env);
      expect(await gone.exited).toBe(1);
      expect(gone.out.stderr).toBe('siteline: The site has no goal named "Visit /thanks*".\n');
      expect((await command(['goals', 'list', '--site', 'ST-blog'], cwd, engine.env)).stdout).toMatch(/^GOAL +TYPE +MATCHES +CREATED\nsignup +event +signup +\d{4}-\d{2}-\d{2}\n$/);
    });

    it('demo', async () => {
      expect((await command(['demo', '--id', 'ST-demo2', '--days', '2', '--pageviews-per-day', '50'], cwd, engine.env)).stdout).toMatch(
        /^Added ST-demo2 "Demo" with [\d,]+ events \([\d,]+ pageviews, [\d,]+ sessions\) over 2 days in \d+\.\d s\.\n$/,
      );
    });

    it('accounts add and list, keys create, list and revoke (Cloud edition)', async () => {
      const cloud = { ...engine.env, EDITION: 'cloud' };
      const account = /acct_[a-z0-9]{16}/.exec((await command(['accounts', 'add', '--name', 'Acme'], cwd, cloud)).stdout)![0];
      expect((await command(['accounts', 'list'], cwd, cloud)).stdout).toMatch(new RegExp(`^ID +NAME +CREATED\n${account} +Acme +\\d{4}-`));
      const created = await command(['keys', 'create', '--account', account, '--name', 'ci'], cwd, cloud);
      const keyId = /key_[a-z0-9]{12}/.exec(created.stderr)![0];
      expect((await command(['keys', 'list', '--account', account], cwd, cloud)).stdout).toContain(`${keyId}  ci  `);
      expect((await command(['keys', 'revoke', '--account', account, '--key', keyId], cwd, cloud)).stdout).toBe(`Revoked key ${keyId}; requests with it get 401 from now on.\n`);
    });
  });
});

describe('a backend that cannot be opened', () => {
  it('stops `siteline serve` at start with what to fix, never printing the password', async () => {
    const env = { DATABASE_URL: 'clickhouse://app:hunter2-secret@127.0.0.1:9/siteline', SERVICE_API_KEY: 'k'.repeat(40), TRUST_PROXY: 'true', PORT: '0' };
    const run = siteline(['serve'], dir, env);
    expect(await run.exited).toBe(1);
    expect(run.out.stderr).toBe(
      'siteline: Cannot reach ClickHouse at http://127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9. Check the host and port of DATABASE_URL and that the server runs.\n',
    );
    expect(run.out.stdout + run.out.stderr).not.toContain('hunter2');
  });
});
