import { parseArgs } from 'node:util';
import { addDemoSite, DEMO_DAYS, DEMO_SITE } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, count, flags, HELP_FLAG, intFlag, withBackend } from './io.js';

/** `demo`: the demo site and its generated traffic, in the configured database. */
export async function demoCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = flags(() =>
    parseArgs({
      args,
      strict: true,
      options: { ...HELP_FLAG, id: { type: 'string' }, days: { type: 'string' }, 'pageviews-per-day': { type: 'string' }, seed: { type: 'string' } },
    }),
  );
  if (values.help) return io.stdout.write(`${HELP.demo}\n`), 0;
  const options = {
    id: values.id ?? DEMO_SITE.id,
    days: intFlag(values.days, 'days', DEMO_DAYS),
    pageviewsPerDay: intFlag(values['pageviews-per-day'], 'pageviews-per-day', 400),
    seed: intFlag(values.seed, 'seed', 1, 0),
  };
  const started = performance.now();
  const { site, summary } = await withBackend(io, ({ storage }) => addDemoSite(storage, options));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(
    `Added ${site.id} "${site.name}" with ${count(summary.events, 'event')} (${count(summary.pageviews, 'pageview')}, ` +
      `${count(summary.sessions, 'session')}) over ${count(options.days, 'day')} in ${seconds} s.\n`,
  );
  return 0;
}
