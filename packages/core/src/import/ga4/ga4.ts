/**
 * A Google Analytics 4 BigQuery export as our events (docs/import-format.md, "Google Analytics 4"):
 * the `events_YYYYMMDD` tables as newline-delimited JSON, one file, a directory or zip of them,
 * each possibly gzip-compressed (`.gz`), as `bq extract` writes them.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ImportError } from '../../errors.js';
import type { Storage } from '../../storage/types.js';
import { exportFiles } from '../formats/files.js';
import { importParsed, type ImportOptions, type ImportSummary } from '../import.js';
import { parseImportObject } from '../line-schema.js';
import { ga4Event } from './ga4-row.js';

export interface Ga4ImportOptions extends Pick<ImportOptions, 'onProgress' | 'stageAfterEvents'> {
  /** The site the events are imported into (an existing site). */
  siteId: string;
}

/** Longest line accepted: a GA4 row with many parameters and items stays far below it. */
const MAX_LINE = 1_000_000;

/**
 * Imports a GA4 BigQuery export as events of a site, through the one import of decisions.md
 * section 8: all or nothing, errors with the file and line, the same data refused a second
 * time. `page_view` rows are pageviews; the events GA4 collects by itself (session_start,
 * first_visit, user_engagement, scroll) are left out; every other event is a custom event,
 * its own parameters its properties. Sessions are GA4's (`ga_session_id` per `user_pseudo_id`).
 *
 * @example
 * const summary = await importGa4(storage, 'events_20251101.json', { siteId: 'ST-blog' });
 */
export async function importGa4(storage: Storage, path: string, options: Ga4ImportOptions): Promise<ImportSummary> {
  const { files, close } = await exportFiles(path);
  const inputs = files.filter((f) => /\.(json|ndjson|jsonl)(\.gz)?$/i.test(f.name) || files.length === 1);
  try {
    if (inputs.length === 0) throw new ImportError('No GA4 export files: give a .json (or .json.gz) file of events rows, or a zip or directory of them.');
    return await importParsed(storage, async (take, hash) => {
      for (const file of inputs) {
        const raw = await file.open();
        raw.on('data', (chunk: Buffer) => hash.update(chunk));
        const text: Readable = file.name.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
        raw.on('error', (error) => text.destroy(error));
        const where = inputs.length > 1 ? file.name : undefined;
        let line = 0;
        for await (const row of createInterface({ input: text, crlfDelay: Infinity })) {
          line++;
          if (row.trim() === '') {
            take(line, undefined, undefined);
            continue;
          }
          let json: unknown;
          try {
            json = row.length > MAX_LINE ? undefined : JSON.parse(row);
          } catch {
            json = undefined;
          }
          if (json === null || typeof json !== 'object' || Array.isArray(json)) {
            take(line, undefined, { ok: false, reason: row.length > MAX_LINE ? `line is longer than ${MAX_LINE} characters` : 'not a JSON object' }, where);
            continue;
          }
          const converted = ga4Event(json as Record<string, unknown>, options.siteId);
          const pending = take(line, undefined, 'event' in converted ? parseImportObject(converted.event) : 'skip' in converted ? converted : { ok: false, reason: converted.reason }, where);
          if (pending) await pending;
        }
      }
    }, options);
  } finally {
    close();
  }
}
