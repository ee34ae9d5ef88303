import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { ImportError, type ImportLineError } from '../errors.js';
import type { Storage } from '../storage/types.js';
import type { Site } from '../types.js';
import { enrichEvent, type EnrichedEvent } from './enrich.js';
import { type ImportLine, parseImportLine } from './line-schema.js';
import { Sessionizer, stampSessions } from './sessionize.js';

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
}

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
  let lineNo = 0;
  const seqBase = Date.now() * 1000;

  const fail = (reason: string) => {
    badLines++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line: lineNo, reason });
  };
  const accept = (site: Site | undefined, event: ImportLine) => {
    if (!site) fail(`site_id ${event.site_id} does not exist`);
    else if (badLines === 0) events.push(enrichEvent(site, event, salt, seqBase + lineNo));
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
      accept(site, event);
      return;
    }
    return storage.getSite(event.site_id).then((found) => {
      sites.set(event.site_id, found);
      accept(found, event);
    });
  };
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

  const stored = stampSessions(assignSessions(events));
  const digest = hash.digest('hex');
  await storage.writeEvents(stored, { hash: digest, events: stored.length, importedAt: new Date().toISOString() });
  const pageviews = stored.filter((e) => e.type === 'pageview').length;
  return {
    events: stored.length,
    pageviews,
    customEvents: stored.length - pageviews,
    sessions: new Set(stored.map((e) => `${e.siteId}\u0000${e.sessionId}`)).size,
    sites: [...new Set(stored.map((e) => e.siteId))].sort(),
    hash: digest,
  };
}

/** Gives events without `session_id` a session by the 30-minute rule, in time order. */
function assignSessions(events: EnrichedEvent[]): (EnrichedEvent & { sessionId: string })[] {
  const sessionizer = new Sessionizer();
  const ordered = [...events].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  for (const e of ordered) e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts);
  return ordered as (EnrichedEvent & { sessionId: string })[];
}

async function* lines(input: AsyncIterable<string> | Readable): AsyncIterable<string> {
  if (typeof (input as Readable).pipe === 'function') yield* createInterface({ input: input as Readable, crlfDelay: Infinity });
  else yield* input as AsyncIterable<string>;
}
