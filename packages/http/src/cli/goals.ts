import { parseArgs } from 'node:util';
import { addGoal, deleteGoal, type GoalDefinition, listGoals, SiteNotFoundError } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

/**
 * `goals add|list|delete`: a site's goals (properties-goals.md section 4), kept in the
 * database of DATABASE_URL on every engine. Goals are site settings: no API key writes them.
 */
export async function goalsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('goals needs a subcommand: add, list or delete.');
  if (sub === '--help' || sub === '-h') return io.stdout.write(`${HELP.goals}\n`), 0;
  const options = { ...HELP_FLAG, site: { type: 'string' }, event: { type: 'string' }, page: { type: 'string' }, goal: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (values.help) return io.stdout.write(`${HELP.goals}\n`), 0;
  if (!['add', 'list', 'delete'].includes(sub)) throw new UsageError(`Unknown subcommand "goals ${sub}"; use add, list or delete.`);
  if (values.site === undefined) throw new UsageError(`goals ${sub} needs --site <id>.`);
  const site = values.site;
  const unknownSite = (error: unknown) => {
    throw error instanceof SiteNotFoundError ? new Error(`No site ${site}; list them with: siteline sites list`) : error;
  };

  if (sub === 'add') {
    if ((values.event === undefined) === (values.page === undefined)) throw new UsageError('goals add needs either --event <name> or --page <pattern>.');
    const definition: GoalDefinition = values.event !== undefined ? { type: 'event', value: values.event } : { type: 'page', value: values.page! };
    const goal = await withBackend(io, ({ storage }) => addGoal(storage, site, definition)).catch(unknownSite);
    io.stdout.write(`Added goal "${goal.name}" to ${site}.\n`);
    return 0;
  }
  if (sub === 'delete') {
    if (values.goal === undefined) throw new UsageError('goals delete needs --goal <display name> (as goals list shows it).');
    await withBackend(io, ({ storage }) => deleteGoal(storage, site, values.goal!)).catch(unknownSite);
    io.stdout.write(`Deleted goal "${values.goal}" of ${site}.\n`);
    return 0;
  }
  const goals = await withBackend(io, ({ storage }) => listGoals(storage, site)).catch(unknownSite);
  if (goals.length === 0) {
    io.stdout.write(`${site} has no goals yet. Add one with: siteline goals add --site ${site} --event <name> (or --page <pattern>)\n`);
    return 0;
  }
  writeTable(io, ['GOAL', 'TYPE', 'MATCHES', 'CREATED'], goals.map((g) => [g.name, g.type, g.value, g.createdAt.slice(0, 10)]));
  return 0;
}
