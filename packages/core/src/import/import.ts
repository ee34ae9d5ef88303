import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { ImportError, type ImportLineError } from '../errors.js';
import type { ImportRecord, Storage } from '../storage/types.js';
import type { Site } from '../types.js';
import { enrichEvent, type EnrichedEvent } from './enrich.js';
import { writeAtOnce, writeStaged } from './import-write.js';
import { type ImportLine, parseImportLine } from './line-schema.js';
import { openStage, type Stage } from './stage.js';

/** NDJSON text, an iterable of lines, or a readable stream of NDJSON. */
export type ImportInput = string | Iterable<string> | AsyncIterable<string> | Readable;

export interface ImportOptions {
  /**
   * Salt of the visitor id for lines without `visitor_id`, per local day.
   * Default: a random key per import, so the ids cannot be linked to IPs.
   */
  salt?: (day: string) => string;
  /** Called every 10,000 lines with the number of lines read so far. */
  onProgress?: (lines: number) => void;
  /**
   * Events held in memory before the import stages them in a temporary file, to write
   * them from there in time order, at most this many (and 20,000) at a time (default
   * 100,000; also past 32 million characters of lines). For tests.
   */
  stageAfterEvents?: number;
}

/** Default of `stageAfterEvents`. */
export const STAGE_AFTER_EVENTS = 100_000;
/** Characters of lines held in memory before an import stages them. */
const STAGE_AFTER_CHARS = 32_000_000;
/** Events staged at a time once staging. */
const STAGE_EVERY = 10_000;

/** What an import stored. */
export interface ImportSummary {
  events: number;
  pageviews: number;
  customEvents: number;
  sessions: number;
  /** Distinct site ids in the import. */
  sites: string[];
  /** sha256 of the imported lines: the same data is refused a second time. */
  hash: string;
}

const MAX_REPORTED_ERRORS = 100;

/**
 * Imports NDJSON events (decisions.md section 8): validates every line, then
 * derives paths, campaign parameters, visitor ids, sessions, referrer source,
 * channel, device and country, and stores all events in one transaction.
 * All or nothing: any bad line rejects the whole import with an `ImportError`
 * listing the first 100 bad lines. Importing the same lines again throws
 * `DuplicateImportError` and stores nothing.
 *
 * A large import (past `stageAfterEvents`) waits in a temporary file (stage.ts) and is
 * written from there in time order, a batch at a time, through `Storage.writeImport`
 * where the store has it, so its memory does not grow with the file.
 *
 * @example
 * const summary = await importEvents(storage, fs.createReadStream('events.ndjson'));
 * console.log(`${summary.events} events in ${summary.sessions} sessions`);
 */
export async function importEvents(storage: Storage, input: ImportInput, options: ImportOptions = {}): Promise<ImportSummary> {
  const key = randomBytes(32);
  const salts = new Map<string, string>();
  const salt = options.salt ?? ((day: string) => {
    let s = salts.get(day);
    if (s === undefined) salts.set(day, (s = createHmac('sha256', key).update(day).digest('base64url')));
    return s;
  });
  const sites = new Map<string, Site | undefined>();
  const hash = createHash('sha256');
  const errors: ImportLineError[] = [];
  let badLines = 0;
  const events: EnrichedEvent[] = [];
  let chars = 0;
  let stage: Stage | undefined;
  const stageAfter = options.stageAfterEvents ?? STAGE_AFTER_EVENTS;
  let accepted = 0;
  let lineNo = 0;
  const seqBase = Date.now() * 1000;

  const fail = (reason: string) => {
    badLines++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line: lineNo, reason });
  };
  const accept = (site: Site | undefined, event: ImportLine, length: number) => {
    if (!site) fail(`site_id ${event.site_id} does not exist`);
    else if (badLines === 0) {
      events.push(enrichEvent(site, event, salt, seqBase + lineNo));
      accepted++;
      chars += length;
      if (events.length >= (stage ? STAGE_EVERY : stageAfter) || chars >= STAGE_AFTER_CHARS) {
        stage ??= openStage();
        stage.add(events);
        events.length = 0;
        chars = 0;
      }
    }
  };
  /** Handles one line; a promise only when the line names a site not looked up yet. */
  const handle = (raw: string): Promise<void> | undefined => {
    lineNo++;
    if (lineNo % 10_000 === 0) options.onProgress?.(lineNo);
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    hash.update(text).update('\n');
    const parsed = parseImportLine(text);
    if (!parsed.ok) {
      fail(parsed.reason);
      return;
    }
    // The line is an IncomingEvent with a site_id: passed as it is (a rest copy per line costs more than the check).
    const event = parsed.line;
    const site = sites.get(event.site_id);
    if (site !== undefined || sites.has(event.site_id)) {
      accept(site, event, text.length);
      return;
    }
    return storage.getSite(event.site_id).then((found) => {
      sites.set(event.site_id, found);
      accept(found, event, text.length);
    });
  };
  try {
    // Lines in memory are walked synchronously (an async iteration costs a promise per line).
    const inMemory = typeof input === 'string' ? input.split('\n') : Symbol.iterator in input ? (input as Iterable<string>) : undefined;
    if (inMemory) {
      for (const raw of inMemory) {
        const pending = handle(raw);
        if (pending) await pending;
      }
    } else {
      for await (const raw of lines(input as AsyncIterable<string> | Readable)) {
        const pending = handle(raw);
        if (pending) await pending;
      }
    }
    options.onProgress?.(lineNo);
    if (badLines > 0) {
      throw new ImportError(`${badLines} invalid line${badLines === 1 ? '' : 's'}; nothing was imported.`, errors, badLines);
    }
    const record: ImportRecord = { hash: hash.digest('hex'), events: accepted, importedAt: new Date().toISOString() };
    if (!stage) return await writeAtOnce(storage, events, record);
    stage.add(events);
    events.length = 0;
    return await writeStaged(storage, stage, record, stageAfter);
  } finally {
    stage?.close();
  }
}

async function* lines(input: AsyncIterable<string> | Readable): AsyncIterable<string> {
  if (typeof (input as Readable).pipe === 'function') yield* createInterface({ input: input as Readable, crlfDelay: Infinity });
  else yield* input as AsyncIterable<string>;
}
