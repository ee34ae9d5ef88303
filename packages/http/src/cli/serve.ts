import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { addDemoSite, type Backend, DEMO_DAYS, DEMO_SITE } from '@siteline/core';
import { openBackend } from '../backend.js';
import { parseConfig, readEnvironment, type ServerConfig } from '../config.js';
import { jsonLogger } from '../log.js';
import { runServer } from '../server.js';
import { type FirstRun, prepareFirstRun, recordFirstRun } from './first-run.js';
import { type CliIo, flags, formatCount, HELP_FLAG } from './io.js';
import { HELP } from './help.js';

/**
 * `serve`: the server from validated configuration. `start` (`firstRun`)
 * first fills in what a fresh checkout lacks: key, certificate, demo data
 * (in the Cloud edition, a demo account owning the demo site, and a key of it),
 * and once the server listens writes the key, port, `PUBLIC_URL` and certificate
 * into `.env`, so a later `serve` in the same directory needs nothing more.
 * Resolves once the server listens; a signal then ends the process.
 */
export async function serveCommand(args: string[], io: CliIo, firstRun: boolean): Promise<number> {
  if (flags(() => parseArgs({ args, options: HELP_FLAG, strict: true })).values.help) return io.stdout.write(`${HELP[firstRun ? 'start' : 'serve']}\n`), 0;
  const first: FirstRun | undefined = firstRun ? prepareFirstRun(io) : undefined;
  const config = parseConfig(first?.vars ?? readEnvironment(io.cwd, io.env), io.cwd);
  const logger = jsonLogger(io.stdout, io.stderr);
  const backend = await openBackend(config.database, {
    role: 'serve', columnCacheBytes: config.columnCacheMb * 1024 * 1024,
    onBackgroundFailure: (failure) => logger({ level: 'warn', msg: 'a daily build failed; its days are read raw until it succeeds', ...failure }),
  });
  let demo: { siteId?: string; key?: string } = {};
  try {
    if (first) demo = await demoIfEmpty(backend, config, io);
  } catch (error) {
    await backend.close();
    throw error;
  }
  const running = await runServer(config, backend, { logger, exit: io.exit });
  if (first) {
    try {
      recordFirstRun(io, first, running.port);
    } catch (error) {
      await running.close();
      throw new Error(`Could not write .env, so the server was stopped: ${(error as Error).message}`);
    }
    if (demo.siteId) {
      io.stderr.write(`\nTry it:\n\n  ${curlLine(running.url, config, demo.siteId, io, { newKey: demo.key ?? first.newKey, devCert: first.devCert })}\n\n`);
      io.stderr.write(`Or open the dashboard and sign in with the key: ${running.url.replace(/\/api\/v1$/, '/')}\n\n`);
    }
  }
  return 0;
}

/**
 * Adds the demo site when there are no sites, and in the Cloud edition a demo account that
 * owns it with a key (shown once); returns the site to show in the example, and the new key.
 */
async function demoIfEmpty({ storage, accounts }: Backend, config: ServerConfig, io: CliIo): Promise<{ siteId?: string; key?: string }> {
  const sites = await storage.listSites();
  if (sites.length > 0) return { siteId: sites.find((s) => s.id === DEMO_SITE.id)?.id ?? sites[0]!.id };
  io.stderr.write(`The database has no sites yet: adding ${DEMO_SITE.id} with ${DEMO_DAYS} days of generated traffic...\n`);
  const account = config.edition === 'cloud' ? await accounts.createAccount('Demo') : undefined;
  const { site, summary } = await addDemoSite(storage, { accountId: account?.id });
  io.stderr.write(`Added ${site.id} ("${site.name}"): ${formatCount(summary.pageviews)} pageviews in ${formatCount(summary.sessions)} sessions.\n`);
  if (!account) return { siteId: site.id };
  const { key, info } = await accounts.createKey(account.id, 'siteline start');
  io.stderr.write(`Cloud edition: created account ${account.id} ("Demo") owning ${site.id}, and its key ${info.id}. It is shown only this once; keep it secret:\n\n  ${key}\n\n`);
  return { siteId: site.id, key };
}

/** A copy-paste request against the running server; shows the key only if it was created in this run. */
function curlLine(url: string, config: ServerConfig, siteId: string, io: CliIo, made: { newKey?: string; devCert?: string }): string {
  const configured = config.edition === 'cloud' ? '<a key of the site\'s account>' : io.env.SERVICE_API_KEY ? '$SERVICE_API_KEY' : "$(sed -n 's/^SERVICE_API_KEY=//p' .env)";
  const key = made.newKey ?? configured;
  const parts = ['curl', '-sS'];
  if (made.devCert) {
    const rel = relative(io.cwd, made.devCert);
    parts.push('--cacert', rel.startsWith('..') ? made.devCert : rel);
  }
  if (!config.tls) parts.push('-H "X-Forwarded-Proto: https"');
  parts.push(`-H "Authorization: Bearer ${key}"`, `"${url}/stats?site_id=${siteId}"`);
  return parts.join(' ');
}
