import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { openExport, parseExportQuery } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend } from './io.js';

/**
 * `export --site <id> [--from <day> --to <day> | --period 7d]`: the site's events of the days
 * as NDJSON in the import format on standard output, read from the backend directly (no
 * server, no key), with the same lines and the same range rules as `GET /export` (default:
 * the last 30 days). Waits for the output to drain, so a slow pipe keeps memory at one page.
 */
export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const options = { ...HELP_FLAG, site: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, period: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args, options, strict: true }));
  if (values.help) return io.stdout.write(`${HELP.export}\n`), 0;
  if (values.site === undefined) throw new UsageError('export needs --site <id>.');
  // The API's rules, so a bad value is a ValidationError that runCli words with the flags.
  const query = parseExportQuery({ site_id: values.site, from: values.from, to: values.to, period: values.period });
  await withBackend(io, async ({ storage }) => {
    const { chunks } = await openExport(storage, query);
    for await (const chunk of chunks) if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
  });
  return 0;
}
