/**
 * `siteline import --from plausible|umami|ga4 <file> --site <id>`, `import list --site <id>` and
 * `import delete --site <id> --import <id>`: other products' exports, and the imports of daily
 * totals a site has (docs/import-format.md).
 */
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DuplicateImportError, ImportError, importGa4, importPlausible, importUmami, type ImportSummary, type PlausibleImportSummary } from '@siteline/core';
import { HELP } from './help.js';
import { progressLine } from './progress.js';
import { type CliIo, count, flags, formatCount, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

export const FOREIGN_FORMATS = ['plausible', 'umami', 'ga4'] as const;
const OPTIONS = { ...HELP_FLAG, from: { type: 'string' }, site: { type: 'string' }, import: { type: 'string' } } as const;

/** `import --from <format> <file> --site <id>`. */
export async function importForeign(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = flags(() => parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true }));
  if (values.help) return io.stdout.write(`${HELP.import}\n`), 0;
  const format = values.from as (typeof FOREIGN_FORMATS)[number];
  if (!FOREIGN_FORMATS.includes(format)) throw new UsageError(`--from must be one of ${FOREIGN_FORMATS.join(', ')}.`);
  if (values.site === undefined) throw new UsageError(`import --from ${format} needs --site <id>: the site the data belongs to.`);
  if (positionals.length !== 1) throw new UsageError(`import --from ${format} needs exactly one file (a zip, a directory or a file of the export).`);
  const name = positionals[0]!;
  const path = resolve(io.cwd, name);
  if (!statSync(path, { throwIfNoEntry: false })) throw new Error(`Cannot read ${name}: no such file or directory.`);
  const siteId = values.site;
  const started = performance.now();
  const progress = progressLine(io.stderr, undefined, { reading: `${format} export`, unit: 'rows' });
  try {
    const result = await withBackend(io, async ({ storage }) => {
      if (!(await storage.getSite(siteId))) throw new Error(`No site ${siteId}; list them with: siteline sites list`);
      if (format === 'plausible') return importPlausible(storage, path, { siteId, onProgress: progress.update });
      return (format === 'umami' ? importUmami : importGa4)(storage, path, { siteId, onProgress: progress.update });
    });
    progress.clear();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if ('importId' in result) writePlausible(io, result, seconds);
    else writeEvents(io, result, siteId, seconds);
    return 0;
  } catch (error) {
    progress.clear();
    if (!(error instanceof ImportError) || error instanceof DuplicateImportError) throw error;
    io.stderr.write(`Import failed: ${error.message}\n`);
    for (const { file, line, reason } of error.lineErrors) io.stderr.write(`  ${file ? `${file}${line > 0 ? ` line ${line}` : ''}` : `line ${line}`}: ${reason}\n`);
    const more = error.badLines - error.lineErrors.length;
    if (more > 0) io.stderr.write(`  ... and ${formatCount(more)} more bad rows\n`);
    return 1;
  }
}

function writeSkipped(io: CliIo, skipped: readonly { reason: string; rows: number }[]): void {
  for (const { reason, rows } of skipped) io.stdout.write(`  left out ${count(rows, 'row')}: ${reason}\n`);
}

function writePlausible(io: CliIo, s: PlausibleImportSummary, seconds: string): void {
  io.stdout.write(
    `Imported ${count(s.rowsWritten, 'row')} of daily totals over ${count(s.days, 'day')} (${s.from} to ${s.to}) into ${s.siteId} ` +
      `from ${count(s.rowsRead, 'row')} read in ${seconds} s; import ${s.importId}.\n`,
  );
  writeSkipped(io, s.skipped);
  if (s.overlapDays.length > 0) {
    const shown = s.overlapDays.length > 10 ? `${s.overlapDays.slice(0, 10).join(', ')}, ...` : s.overlapDays.join(', ');
    io.stdout.write(`  ${count(s.overlapDays.length, 'day')} with native events count natively, not as imported: ${shown}\n`);
  }
  io.stdout.write(`Remove it with: siteline import delete --site ${s.siteId} --import ${s.importId}\n`);
}

function writeEvents(io: CliIo, s: ImportSummary, siteId: string, seconds: string): void {
  const skipped = s.skipped ?? [];
  const read = s.events + skipped.reduce((sum, r) => sum + r.rows, 0);
  io.stdout.write(
    `Imported ${count(s.events, 'event')} (${count(s.pageviews, 'pageview')}, ${count(s.customEvents, 'custom event')}) ` +
      `in ${count(s.sessions, 'session')} into ${siteId} from ${count(read, 'row')} read in ${seconds} s.\n`,
  );
  writeSkipped(io, skipped);
}

/** `import list --site <id>` and `import delete --site <id> --import <id>`. */
export async function importDatasets(sub: 'list' | 'delete', args: string[], io: CliIo): Promise<number> {
  const { values } = flags(() => parseArgs({ args, options: OPTIONS, strict: true }));
  if (values.help) return io.stdout.write(`${HELP.import}\n`), 0;
  if (values.site === undefined) throw new UsageError(`import ${sub} needs --site <id>.`);
  const siteId = values.site;
  return withBackend(io, async ({ storage }) => {
    if (!storage.listImports || !storage.deleteImport) throw new Error(`The ${storage.kind} storage keeps no imported daily totals.`);
    if (!(await storage.getSite(siteId))) throw new Error(`No site ${siteId}; list them with: siteline sites list`);
    if (sub === 'delete') {
      if (values.import === undefined) throw new UsageError('import delete needs --import <id> (as import list shows it).');
      if (!(await storage.deleteImport(siteId, values.import))) throw new Error(`${siteId} has no import ${values.import}; list them with: siteline import list --site ${siteId}`);
      io.stdout.write(`Deleted import ${values.import} of ${siteId} and its rows.\n`);
      return 0;
    }
    const imports = await storage.listImports(siteId);
    if (imports.length === 0) return io.stdout.write(`${siteId} has no imports of daily totals.\n`), 0;
    writeTable(io, ['IMPORT', 'FROM', 'DAYS', 'ROWS', 'IMPORTED'], imports.map((d) => [d.id, d.source, `${d.from} to ${d.to}`, formatCount(d.rows), d.importedAt.slice(0, 10)]));
    return 0;
  });
}
