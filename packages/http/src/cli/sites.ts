import { parseArgs } from 'node:util';
import { createSite } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

/** `sites add` and `sites list`. */
export async function sitesCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('sites needs a subcommand: add or list.');
  if (sub === '--help' || sub === '-h') return io.stdout.write(`${HELP.sites}\n`), 0;
  if (sub === 'add') return addSite(rest, io);
  if (sub === 'list') return listSites(rest, io);
  throw new UsageError(`Unknown subcommand "sites ${sub}"; use add or list.`);
}

async function addSite(args: string[], io: CliIo): Promise<number> {
  const { values } = flags(() =>
    parseArgs({ args, strict: true, options: { ...HELP_FLAG, name: { type: 'string' }, id: { type: 'string' }, timezone: { type: 'string' }, domain: { type: 'string' }, account: { type: 'string' } } }),
  );
  if (values.help) return io.stdout.write(`${HELP.sites}\n`), 0;
  if (values.name === undefined) throw new UsageError('sites add needs --name <name>.');
  const site = await withBackend(io, async ({ storage, accounts }) => {
    if (values.account !== undefined && !(await accounts.getAccount(values.account))) {
      throw new Error(`No account ${values.account}; list them with: siteline accounts list`);
    }
    return createSite(storage, { name: values.name!, id: values.id, timezone: values.timezone, domain: values.domain, accountId: values.account });
  });
  io.stdout.write(`Created site ${site.id} "${site.name}" (time zone ${site.timezone}${site.domain ? `, domain ${site.domain}` : ''}${site.accountId ? `, account ${site.accountId}` : ''}).\n`);
  return 0;
}

async function listSites(args: string[], io: CliIo): Promise<number> {
  if (flags(() => parseArgs({ args, options: HELP_FLAG, strict: true })).values.help) return io.stdout.write(`${HELP.sites}\n`), 0;
  const sites = await withBackend(io, ({ storage }) => storage.listSites());
  if (sites.length === 0) {
    io.stdout.write('No sites yet. Add one with: siteline sites add --name <name>\n');
    return 0;
  }
  const header = ['ID', 'NAME', 'TIME ZONE', 'DOMAIN', 'ACCOUNT', 'CREATED'];
  writeTable(io, header, sites.map((s) => [s.id, s.name, s.timezone, s.domain ?? '-', s.accountId ?? '-', s.createdAt.slice(0, 10)]));
  return 0;
}
