/**
 * The write of an import whose lines are all read and valid: at once (a small import, all
 * its events in memory), or from its stage (stage.ts) in time order, a batch at a time.
 */
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
  await storage.writeEvents(stored, record);
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
  if (storage.writeImport) await storage.writeImport(record, batches());
  else await storage.writeEvents([...batches()].flat(), record);
  return {
    events: record.events,
    pageviews: counts.pageviews,
    customEvents: record.events - counts.pageviews,
    sessions: counts.sessions,
    sites: [...counts.sites].sort(),
    hash: record.hash,
  };
}

/** Gives events without `session_id` a session by the 30-minute rule, in time order. */
function assignSessions(events: EnrichedEvent[]): (EnrichedEvent & { sessionId: string })[] {
  const sessionizer = new Sessionizer();
  const ordered = [...events].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  for (const e of ordered) e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts);
  return ordered as (EnrichedEvent & { sessionId: string })[];
}
