/**
 * The write of an import whose lines are all read and valid: at once (a small import, all
 * its events in memory), or from its stage (stage.ts) in time order, a batch at a time.
 * Every import format ends here, so this is where a store that cannot take the write (a full
 * disk, a read-only file) is reported: as `WriteUnavailableError`, saying nothing was imported
 * (the SQLite store writes an import in one transaction) and that the same import can simply
 * be run again once there is room.
 */
import { WRITE_UNAVAILABLE_MESSAGES, WriteUnavailableError } from '../errors.js';
import type { ImportRecord, Storage, StoredEvent } from '../storage/types.js';
import type { EnrichedEvent } from './enrich.js';
import type { ImportSummary } from './import.js';
import { type OrderedCounts, Sessionizer, stampInOrder, stampSessions } from './sessionize.js';
import type { Stage } from './stage.js';

/** Events per write of a staged import (at most), and the characters of their paths and names. */
const BATCH_EVENTS = 20_000;
const BATCH_CHARS = 8_000_000;

/** A small import: sessions and attributes from all its events at once, written in one call. */
export async function writeAtOnce(storage: Storage, events: EnrichedEvent[], record: ImportRecord): Promise<ImportSummary> {
  const stored = stampSessions(assignSessions(events));
  await refusedAsUnavailable(() => storage.writeEvents(stored, record));
  const pageviews = stored.filter((e) => e.type === 'pageview').length;
  return {
    events: stored.length,
    pageviews,
    customEvents: stored.length - pageviews,
    sessions: new Set(stored.map((e) => `${e.siteId}\u0000${e.sessionId}`)).size,
    sites: [...new Set(stored.map((e) => e.siteId))].sort(),
    hash: record.hash,
  };
}

/**
 * A staged import: read back in time order, given sessions and attributes as it goes
 * (`stampInOrder`), in batches of at most `maxBatch` events; through `writeImport` (all or
 * nothing, a batch in memory at a time), or at once through `writeEvents` for a store without it.
 */
export async function writeStaged(storage: Storage, stage: Stage, record: ImportRecord, maxBatch: number): Promise<ImportSummary> {
  const batchEvents = Math.min(BATCH_EVENTS, maxBatch);
  const counts: OrderedCounts & { pageviews: number; sites: Set<string> } = { sessions: 0, pageviews: 0, sites: new Set() };
  function* batches(): Generator<StoredEvent[]> {
    let batch: StoredEvent[] = [];
    let chars = 0;
    for (const e of stampInOrder(stage.ordered(), stage.firstOf, counts)) {
      if (e.type === 'pageview') counts.pageviews++;
      counts.sites.add(e.siteId);
      batch.push(e);
      chars += e.path.length + e.name.length + e.entryPath.length;
      if (batch.length >= batchEvents || chars >= BATCH_CHARS) {
        yield batch;
        batch = [];
        chars = 0;
      }
    }
    if (batch.length > 0) yield batch;
  }
  await refusedAsUnavailable(() => (storage.writeImport ? storage.writeImport(record, batches()) : storage.writeEvents([...batches()].flat(), record)));
  return {
    events: record.events,
    pageviews: counts.pageviews,
    customEvents: record.events - counts.pageviews,
    sessions: counts.sessions,
    sites: [...counts.sites].sort(),
    hash: record.hash,
  };
}

/**
 * The write, with a store's `WriteUnavailableError` (and the stage's, stage.ts) restated for an
 * import: nothing of it was kept, and the same command can run again.
 */
async function refusedAsUnavailable(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof WriteUnavailableError) || error.message === WRITE_UNAVAILABLE_MESSAGES.stageFull) throw error;
    const message = error.reason === 'full' ? WRITE_UNAVAILABLE_MESSAGES.importFull : WRITE_UNAVAILABLE_MESSAGES.importReadonly;
    throw new WriteUnavailableError(error.reason, message, { cause: error });
  }
}

/** Gives events without `session_id` a session by the 30-minute rule, in time order. */
function assignSessions(events: EnrichedEvent[]): (EnrichedEvent & { sessionId: string })[] {
  const sessionizer = new Sessionizer();
  const ordered = [...events].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  for (const e of ordered) e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts);
  return ordered as (EnrichedEvent & { sessionId: string })[];
}
