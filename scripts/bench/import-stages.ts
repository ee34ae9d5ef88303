/**
 * Where import time goes: the steps of `importEvents` (import.ts) run one at
 * a time over the same lines, each timed on its own, then the store's write.
 * The steps are called as import.ts calls them; this file only measures.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type EnrichedEvent, enrichEvent } from '../../packages/core/src/import/enrich.js';
import { parseImportLine } from '../../packages/core/src/import/line-schema.js';
import { Sessionizer, stampSessions } from '../../packages/core/src/import/sessionize.js';
import { createSite } from '../../packages/core/src/sites/sites.js';
import { createSqliteStorage } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import type { StoredEvent } from '../../packages/core/src/storage/types.js';
import type { Site } from '../../packages/core/src/types.js';

export interface Stage {
  stage: string;
  microsPerEvent: number;
}

/** Times each import step over `lines` (all of `site`) and the write into a fresh store at `file`. */
export async function importStages(lines: readonly string[], site: Omit<Site, 'createdAt' | 'accountId'>, file: string, now: () => number): Promise<Stage[]> {
  const stages: Stage[] = [];
  const timed = async <T>(stage: string, fn: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await fn();
    stages.push({ stage, microsPerEvent: ((performance.now() - t) * 1000) / lines.length });
    return result;
  };
  const full: Site = { ...site, accountId: null, createdAt: new Date(0).toISOString() };
  await timed('sha256 of the lines (duplicate check)', () => {
    const hash = createHash('sha256');
    for (const line of lines) hash.update(line).update('\n');
    return hash.digest('hex');
  });
  const parsed = await timed('parseImportLine (JSON.parse + plain checks)', () => lines.map((line) => parseImportLine(line)));
  await timed('  of which JSON.parse alone', () => lines.map((line) => JSON.parse(line) as unknown));
  const salt = () => 'bench-salt';
  const enriched = await timed('enrichEvent (derivations)', () =>
    parsed.map((p, i) => {
      if (!p.ok) throw new Error(p.reason);
      const { site_id: _, ...event } = p.line;
      return enrichEvent(full, event, salt, i);
    }),
  );
  const sessioned = await timed('sort + Sessionizer (30-minute rule)', () => {
    const sessionizer = new Sessionizer();
    const ordered = [...enriched].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
    for (const e of ordered) e.sessionId ??= sessionizer.assign(e.siteId, e.visitorId, e.ts);
    return ordered as (EnrichedEvent & { sessionId: string })[];
  });
  const stored: StoredEvent[] = await timed('stampSessions (session attributes)', () => stampSessions(sessioned));
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const storage = createSqliteStorage(file, { now });
  await createSite(storage, site);
  await timed('storage.writeEvents (SQLite, incl. rollups)', () =>
    storage.writeEvents(stored, { hash: 'bench', events: stored.length, importedAt: new Date(0).toISOString() }),
  );
  await storage.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return stages;
}
