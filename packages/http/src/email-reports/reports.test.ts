/**
 * Email reports end to end, on a SQLite file and on a real ClickHouse server: two real
 * `siteline` server processes (scheduler-process.ts) on the same data, a real SMTP server on
 * loopback, and time moved by the test through each process's scheduler clock. The weekly
 * report goes out once however both look at once, carries exactly the figures the API
 * answers for that week, is caught up once after a Monday without any server, and its
 * unsubscribe link (no sign-in) stops the next one.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addDemoSite, type Backend, EmailReports, openSqliteBackend } from '@siteline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickHouseBackend } from '../../../clickhouse/src/backend.js';
import { clickhouseAvailable, startClickHouse, type TestServer, warnIfUnavailable } from '../../../clickhouse/src/testing/test-server.js';
import { parseMail, type Received, startSmtp } from './mail-test-helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const SCRIPT = fileURLToPath(new URL('./scheduler-process.ts', import.meta.url));
const KEY = 'reports-test-key-0123456789abcdef0123456789abcdef';
const PUBLIC = 'https://stats.example.test';
warnIfUnavailable('email reports from two server processes on ClickHouse');

let clickhouse: Promise<TestServer> | undefined;
afterAll(async () => (await clickhouse)?.stop());

interface Engine {
  name: string;
  skip: boolean;
  databaseUrl(dir: string): Promise<string>;
  open(dir: string): Promise<Backend>;
}
const ENGINES: Engine[] = [
  { name: 'one SQLite file', skip: false, databaseUrl: async (dir) => join(dir, 'reports.db'), open: async (dir) => openSqliteBackend(join(dir, 'reports.db')) },
  {
    name: 'one ClickHouse server',
    skip: !clickhouseAvailable,
    databaseUrl: async () => `${(await (clickhouse ??= startClickHouse())).url.replace('http://', 'clickhouse://default@')}/reports_mail`,
    open: async () => openClickHouseBackend({ url: (await (clickhouse ??= startClickHouse())).url, database: 'reports_mail' }),
  },
];

/** A server process: its port, a look for due reports at an instant, and a stop. */
interface ServerProcess {
  port: number;
  look(now: number): Promise<{ due: number; sent: number; failed: number }>;
  stop(): Promise<void>;
}

function startProcess(dir: string, env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = fork(SCRIPT, [], {
    cwd: dir,
    execArgv: ['--import', TSX],
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'), ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`server process exited ${code}`)));
  });
  return next().then((ready) => ({
    port: ready.port as number,
    async look(now) {
      const answer = next();
      child.send({ now });
      const reply = await answer;
      if (reply.error) throw new Error(String(reply.error));
      return reply.result as { due: number; sent: number; failed: number };
    },
    stop: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send({ stop: true });
    }),
  }));
}

/** A request to a process over plain HTTP on loopback, as its TLS-terminating proxy would send it. */
function request(port: number, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { 'X-Forwarded-Proto': 'https', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject).end(method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined);
  });
}

const count = new Intl.NumberFormat('en-US');
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const signed = (n: number, unit: string) => `${n > 0 ? '+' : ''}${oneDecimal.format(n)}${unit}`;

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`email reports from two server processes on ${engine.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'siteline-reports-'));
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let env: Record<string, string>;
    let servers: ServerProcess[] = [];
    const subscribe = async (email: string, atMs: number) => {
      const backend = await engine.open(dir);
      await new EmailReports(backend.emailReports, { now: () => atMs }).subscribe('ST-mail', email, ['week']);
      await backend.close();
    };
    /** Both processes look at once; returns how many mails arrived. */
    const lookBoth = async (now: number) => {
      const before = smtp.received.length;
      const results = await Promise.all(servers.map((s) => s.look(now)));
      expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
      return smtp.received.slice(before);
    };
    const api = async (path: string): Promise<unknown> => JSON.parse((await request(servers[0]!.port, `/api/v1${path}`, 'GET', { Authorization: `Bearer ${KEY}` })).text);

    beforeAll(async () => {
      smtp = await startSmtp();
      const backend = await engine.open(dir);
      // Three weeks of demo traffic in Berlin, up to Monday 2026-11-23 00:00 UTC, with the demo goals.
      await addDemoSite(backend.storage, { id: 'ST-mail', days: 21, pageviewsPerDay: 150, seed: 7, now: Date.parse('2026-11-23T00:00:00Z') });
      await backend.close();
      await subscribe('ann@example.com', Date.parse('2026-11-22T12:00:00Z')); // Sunday
      env = {
        DATABASE_URL: await engine.databaseUrl(dir), SERVICE_API_KEY: KEY, TRUST_PROXY: 'true', HOST: '127.0.0.1', PORT: '0',
        SMTP_URL: smtp.url, MAIL_FROM: 'Siteline <reports@example.test>', PUBLIC_URL: PUBLIC, RATE_LIMIT_PER_MINUTE: '0',
      };
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await smtp?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("two processes looking at once on Monday 07:00 in Berlin mail the weekly report once, with exactly the API's figures of that week", async () => {
      // Two processes on one machine: a collector spool directory each (a directory has one owner).
      servers = await Promise.all([startProcess(dir, { ...env, COLLECT_SPOOL_DIR: join(dir, 'spool-a') }), startProcess(dir, { ...env, COLLECT_SPOOL_DIR: join(dir, 'spool-b') })]);
      expect(await lookBoth(Date.parse('2026-11-23T04:59:00Z'))).toEqual([]); // 05:59 in Berlin: not yet
      const mails = await lookBoth(Date.parse('2026-11-23T06:00:00Z'));
      expect(mails.map((m) => m.to)).toEqual([['ann@example.com']]);
      expect(await lookBoth(Date.parse('2026-11-23T06:10:00Z'))).toEqual([]);

      const mail = parseMail(mails[0]!.raw);
      expect(mail.headers.subject).toBe('Siteline weekly report: Demo, Nov 16 – Nov 22, 2026');
      expect(mail.headers['list-unsubscribe']).toMatch(new RegExp(`^<${PUBLIC}/dashboard/unsubscribe\\?token=[A-Za-z0-9_-]{43}>$`));
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const week = 'site_id=ST-mail&from=2026-11-16&to=2026-11-22';
      const [stats, before, pages, referrers, goals] = await Promise.all([
        api(`/stats?${week}`), api('/stats?site_id=ST-mail&from=2026-11-09&to=2026-11-15'), api(`/pages?${week}&limit=5`), api(`/referrers?${week}`), api(`/goals?${week}`),
      ]) as unknown as [Record<string, number>, Record<string, number>, { pages: { url: string; visitors: number; pageviews: number }[] }, { referrers: { source: string; visitors: number }[] }, { goals: { goal: string; visitors: number; conversion_rate: number }[] }];
      expect(stats.visitors).toBeGreaterThan(100); // the week has traffic, so the figures below say something
      const relative = (field: string) => `${Math.round(((stats[field]! - before[field]!) / before[field]!) * 100) > 0 ? '+' : ''}${Math.round(((stats[field]! - before[field]!) / before[field]!) * 100)}%`;
      const seconds = Math.round(stats.avg_duration!);
      const lines = mail.text.split('\n');
      expect(lines.find((l) => l.startsWith('Visitors'))?.split(/\s{2,}/)).toEqual(['Visitors', count.format(stats.visitors!), relative('visitors')]);
      expect(lines.find((l) => l.startsWith('Pageviews'))?.split(/\s{2,}/)).toEqual(['Pageviews', count.format(stats.pageviews!), relative('pageviews')]);
      expect(lines.find((l) => l.startsWith('Bounce rate'))?.split(/\s{2,}/)).toEqual(['Bounce rate', `${oneDecimal.format(stats.bounce_rate!)}%`, `${signed(Math.round((stats.bounce_rate! - before.bounce_rate!) * 10) / 10, ' pp')}`]);
      expect(lines.find((l) => l.startsWith('Visit duration'))?.split(/\s{2,}/)).toEqual(['Visit duration', seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`, relative('avg_duration')]);
      const listed = (title: string) => lines.slice(lines.findIndex((l) => l.startsWith(title)) + 1).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('  '))).map((l) => l.trim().split(/\s{2,}/));
      expect(listed('Top pages')).toEqual(pages.pages.map((p) => [p.url, count.format(p.visitors), count.format(p.pageviews)]));
      expect(listed('Top sources')).toEqual(referrers.referrers.slice(0, 5).map((r) => [r.source, count.format(r.visitors)]));
      expect(listed('Goals')).toEqual(goals.goals.slice(0, 5).map((g) => [g.goal, count.format(g.visitors), `${oneDecimal.format(g.conversion_rate)}%`]));
      expect(pages.pages).toHaveLength(5);
      expect(mail.text).toContain(`Open the dashboard: ${PUBLIC}/?${week}`);
      // The HTML part says the same.
      expect(mail.html).toContain(`>${count.format(stats.visitors!)}</div>`);
      for (const p of pages.pages) expect(mail.html).toContain(`>${String(p.url).replace(/&/g, '&amp;')}</td>`);
      expect(mail.html).toContain(`href="${PUBLIC}/?${week.replace(/&/g, '&amp;')}"`);
    }, 120_000);

    it('after both stop and a Monday passes with no server running, the first look of the processes started again sends the week once to each address', async () => {
      await Promise.all(servers.map((s) => s.stop()));
      servers = [];
      await subscribe('bob@example.com', Date.parse('2026-11-29T12:00:00Z')); // Sunday; Monday the 30th no server runs
      servers = await Promise.all([startProcess(dir, { ...env, COLLECT_SPOOL_DIR: join(dir, 'spool-a') }), startProcess(dir, { ...env, COLLECT_SPOOL_DIR: join(dir, 'spool-b') })]);
      const mails = await lookBoth(Date.parse('2026-12-02T09:00:00Z')); // Wednesday
      expect(mails.map((m) => m.to[0]).sort()).toEqual(['ann@example.com', 'bob@example.com']);
      expect(mails.map((m) => parseMail(m.raw).headers.subject)).toEqual(['Siteline weekly report: Demo, Nov 23 – Nov 29, 2026', 'Siteline weekly report: Demo, Nov 23 – Nov 29, 2026']);
      expect(await lookBoth(Date.parse('2026-12-02T09:10:00Z'))).toEqual([]);
      expect(await lookBoth(Date.parse('2026-12-03T09:00:00Z'))).toEqual([]);
    }, 120_000);

    it('the unsubscribe link of a mail works without signing in (a page asking to confirm, then the post) and stops the next report to that address only', async () => {
      const last = [...smtp.received].reverse().find((m: Received) => m.to[0] === 'ann@example.com')!;
      const link = /\/dashboard\/unsubscribe\?token=([A-Za-z0-9_-]{43})/.exec(parseMail(last.raw).text)![0];
      const page = await request(servers[1]!.port, link);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Stop sending the weekly report of <strong>Demo</strong> to ann@example.com?');
      const done = await request(servers[0]!.port, link, 'POST', { 'Content-Type': 'application/x-www-form-urlencoded' }); // as a mail client's one-click post
      expect(done.status).toBe(200);
      expect(done.text).toContain('ann@example.com will not receive the weekly report of Demo any more.');
      const mails = await lookBoth(Date.parse('2026-12-07T06:00:00Z')); // the next Monday, 07:00 in Berlin
      expect(mails.map((m) => m.to)).toEqual([['bob@example.com']]);
      expect((await request(servers[0]!.port, '/dashboard/unsubscribe?token=not-a-token')).status).toBe(404);
    }, 120_000);
  });
}
