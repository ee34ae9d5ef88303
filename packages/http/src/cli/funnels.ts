import { parseArgs } from 'node:util';
import { addFunnel, deleteFunnel, type FunnelStep, listFunnels, SiteNotFoundError, stepName } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

/** `--step page:<pattern>` or `--step event:<name>`, as a funnel step. */
function stepOf(flag: string): FunnelStep {
  const colon = flag.indexOf(':');
  const [kind, value] = [flag.slice(0, colon), flag.slice(colon + 1)];
  if (colon > 0 && kind === 'page') return { page: value };
  if (colon > 0 && kind === 'event') return { event: value };
  throw new UsageError(`--step takes page:<pattern> or event:<name>, got "${flag}".`);
}

/**
 * `funnels add|list|delete`: a site's saved funnels (funnels.md section 4), kept in the database
 * of DATABASE_URL on every engine. Funnels are site settings: no API key writes them.
 */
export async function funnelsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('funnels needs a subcommand: add, list or delete.');
  if (sub === '--help' || sub === '-h') return io.stdout.write(`${HELP.funnels}\n`), 0;
  const options = { ...HELP_FLAG, site: { type: 'string' }, name: { type: 'string' }, step: { type: 'string', multiple: true } } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (values.help) return io.stdout.write(`${HELP.funnels}\n`), 0;
  if (!['add', 'list', 'delete'].includes(sub)) throw new UsageError(`Unknown subcommand "funnels ${sub}"; use add, list or delete.`);
  if (values.site === undefined) throw new UsageError(`funnels ${sub} needs --site <id>.`);
  const site = values.site;
  const unknownSite = (error: unknown) => {
    throw error instanceof SiteNotFoundError ? new Error(`No site ${site}; list them with: siteline sites list`) : error;
  };

  if (sub === 'add') {
    if (values.name === undefined) throw new UsageError('funnels add needs --name <name>.');
    const steps = (values.step ?? []).map(stepOf);
    const funnel = await withBackend(io, ({ storage }) => addFunnel(storage, site, { name: values.name!, steps })).catch(unknownSite);
    io.stdout.write(`Added funnel "${funnel.name}" to ${site}: ${funnel.steps.map(stepName).join(' > ')}.\n`);
    return 0;
  }
  if (sub === 'delete') {
    if (values.name === undefined) throw new UsageError('funnels delete needs --name <name> (as funnels list shows it).');
    await withBackend(io, ({ storage }) => deleteFunnel(storage, site, values.name!)).catch(unknownSite);
    io.stdout.write(`Deleted funnel "${values.name}" of ${site}.\n`);
    return 0;
  }
  const funnels = await withBackend(io, ({ storage }) => listFunnels(storage, site)).catch(unknownSite);
  if (funnels.length === 0) {
    io.stdout.write(`${site} has no funnels yet. Add one with: siteline funnels add --site ${site} --name <name> --step page:/pricing --step event:signup\n`);
    return 0;
  }
  writeTable(io, ['FUNNEL', 'STEPS', 'CREATED'], funnels.map((f) => [f.name, f.steps.map(stepName).join(' > '), f.createdAt.slice(0, 10)]));
  return 0;
}
