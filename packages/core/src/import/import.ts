import { createHash, createHmac, type Hash, randomBytes } from 'node:crypto';
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
  /** Called every 10,000 lines (records) with the number read so far, and once at the end. */
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
  /** Records read and left out on purpose, by reason (converters only: an NDJSON line is never left out). */
  skipped?: { reason: string; rows: number }[];
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
  return importParsed(storage, async (take) => {
    const handle = (raw: string, lineNo: number): Promise<void> | undefined => {
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (text.trim() === '') return take(lineNo, undefined, undefined);
      return take(lineNo, text, parseImportLine(text));
    };
    let lineNo = 0;
    // Lines in memory are walked synchronously (an async iteration costs a promise per line).
    const inMemory = typeof input === 'string' ? input.split('\n') : Symbol.iterator in input ? (input as Iterable<string>) : undefined;
    if (inMemory) {
      for (const raw of inMemory) {
        const pending = handle(raw, ++lineNo);
        if (pending) await pending;
      }
    } else {
      for await (const raw of lines(input as AsyncIterable<string> | Readable)) {
        const pending = handle(raw, ++lineNo);
        if (pending) await pending;
      }
    }
  }, options);
}

/** What one record of an import is: an event line, a bad line and why, or a line left out on purpose and why. */
export type RecordResult = ReturnType<typeof parseImportLine> | { skip: string };

/**
 * Hands one record to an import (`importParsed`): its 1-based line, the text that goes into the
 * import's hash (`undefined`: none, the feed hashes its raw bytes itself), and what it is
 * (`undefined`: an empty line), and the file it is in when the input has several. Returns a promise only when the record names a site not looked
 * up yet: await it before the next record.
 */
export type TakeRecord = (line: number, hashText: string | undefined, result: RecordResult | undefined, file?: string) => Promise<void> | undefined;

/**
 * The import of decisions.md section 8 for records already parsed into import lines: the
 * NDJSON import and the Umami and GA4 converters feed it (`feed` calls `take` once per
 * record, in order), so every format is validated, enriched, staged, written and refused a
 * second time the same way, all or nothing. `feed` may update `hash` with the input's raw bytes.
 */
export async function importParsed(
  storage: Storage,
  feed: (take: TakeRecord, hash: Hash) => Promise<void>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
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
  let records = 0;
  const skipped = new Map<string, number>();
  const seqBase = Date.now() * 1000;

  const fail = (lineNo: number, reason: string, file: string | undefined) => {
    badLines++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push(file === undefined ? { line: lineNo, reason } : { file, line: lineNo, reason });
  };
  const accept = (lineNo: number, site: Site | undefined, event: ImportLine, length: number, file: string | undefined) => {
    if (!site) fail(lineNo, `site_id ${event.site_id} does not exist`, file);
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
  const take: TakeRecord = (lineNo, hashText, parsed, file) => {
    if (++records % 10_000 === 0) options.onProgress?.(records);
    if (parsed === undefined) return;
    if (hashText !== undefined) hash.update(hashText).update('\n');
    if ('skip' in parsed) {
      skipped.set(parsed.skip, (skipped.get(parsed.skip) ?? 0) + 1);
      return;
    }
    if (!parsed.ok) {
      fail(lineNo, parsed.reason, file);
      return;
    }
    // The line is an IncomingEvent with a site_id: passed as it is (a rest copy per line costs more than the check).
    const event = parsed.line;
    const length = hashText?.length ?? 200;
    const site = sites.get(event.site_id);
    if (site !== undefined || sites.has(event.site_id)) {
      accept(lineNo, site, event, length, file);
      return;
    }
    return storage.getSite(event.site_id).then((found) => {
      sites.set(event.site_id, found);
      accept(lineNo, found, event, length, file);
    });
  };
  try {
    await feed(take, hash);
    options.onProgress?.(records);
    if (badLines > 0) {
      throw new ImportError(`${badLines} invalid line${badLines === 1 ? '' : 's'}; nothing was imported.`, errors, badLines);
    }
    const record: ImportRecord = { hash: hash.digest('hex'), events: accepted, importedAt: new Date().toISOString() };
    let summary: ImportSummary;
    if (stage) {
      stage.add(events);
      events.length = 0;
      summary = await writeStaged(storage, stage, record, stageAfter);
    } else summary = await writeAtOnce(storage, events, record);
    return skipped.size === 0 ? summary : { ...summary, skipped: [...skipped].map(([reason, rows]) => ({ reason, rows })) };
  } finally {
    stage?.close();
  }
}

async function* lines(input: AsyncIterable<string> | Readable): AsyncIterable<string> {
  if (typeof (input as Readable).pipe === 'function') yield* createInterface({ input: input as Readable, crlfDelay: Infinity });
  else yield* input as AsyncIterable<string>;
}
