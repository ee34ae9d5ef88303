import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { openExport, parseExportQuery, ValidationError } from '@siteline/core';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend } from './io.js';

/**
 * `export --site <id> --from <day> --to <day>`: the site's events of the days as NDJSON in
 * the import format on standard output, read from the backend directly (no server, no key),
 * with the same lines as `GET /export`. Waits for the output to drain, so a slow pipe keeps
 * memory at one page.
 */
export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const options = { ...HELP_FLAG, site: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args, options, strict: true }));
  if (values.help) return io.stdout.write(`${HELP.export}\n`), 0;
  if (values.site === undefined || values.from === undefined || values.to === undefined) throw new UsageError('export needs --site, --from and --to.');
  let query;
  try {
    query = parseExportQuery({ site_id: values.site, from: values.from, to: values.to });
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(error.message);
    throw error;
  }
  await withBackend(io, async ({ storage }) => {
    const { chunks } = await openExport(storage, query);
    for await (const chunk of chunks) if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
  });
  return 0;
}
