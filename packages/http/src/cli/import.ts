import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuplicateImportError, ImportError, importEvents } from '@siteline/core';
import { HELP } from './help.js';
import { importDatasets, importForeign } from './import-formats.js';
import { progressLine } from './progress.js';
import { type CliIo, count, flags, formatCount, HELP_FLAG, UsageError, withBackend } from './io.js';

/** `import <file>`: NDJSON into the database, all or nothing; `--from <format>`, `list` and `delete`: import-formats.ts. */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'list' || args[0] === 'delete') return importDatasets(args[0], args.slice(1), io);
  if (args.some((a) => a === '--from' || a.startsWith('--from='))) return importForeign(args, io);
  const { values, positionals } = flags(() => parseArgs({ args, options: HELP_FLAG, strict: true, allowPositionals: true }));
  if (values.help) return io.stdout.write(`${HELP.import}\n`), 0;
  if (positionals.length !== 1) throw new UsageError('import needs exactly one file name (or - for standard input).');
  const name = positionals[0]!;
  const path = resolve(io.cwd, name);
  if (name !== '-' && !statSync(path, { throwIfNoEntry: false })?.isFile()) throw new Error(`Cannot read ${name}: no such file.`);

  const started = performance.now();
  const progress = progressLine(io.stderr);
  try {
    const summary = await withBackend(io, ({ storage }) =>
      importEvents(storage, name === '-' ? io.stdin : createReadStream(path), { onProgress: progress.update }),
    );
    progress.clear();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stdout.write(
      `Imported ${count(summary.events, 'event')} (${count(summary.pageviews, 'pageview')}, ${count(summary.customEvents, 'custom event')}) ` +
        `in ${count(summary.sessions, 'session')} for ${summary.sites.join(', ') || 'no site'} in ${seconds} s.\n`,
    );
    return 0;
  } catch (error) {
    progress.clear();
    if (!(error instanceof ImportError) || error instanceof DuplicateImportError) throw error;
    io.stderr.write(`Import failed: ${error.message}\n`);
    for (const { line, reason } of error.lineErrors) io.stderr.write(`  line ${line}: ${reason}\n`);
    const more = error.badLines - error.lineErrors.length;
    if (more > 0) io.stderr.write(`  ... and ${formatCount(more)} more bad lines\n`);
    return 1;
  }
}
