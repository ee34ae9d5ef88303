/**
 * The adversarial database of issue 26: the bench's database with one more day on the large
 * site, the day before the data's end, of `pageviews` beacons from one address (one visitor,
 * one session) whose URLs are all different and about 2 KB long: what one client may send
 * within `BEACONS_PER_MINUTE_PER_IP` (600) in a day, 800,000 by default. Imported with
 * `importEvents` (the lines never all in memory). Made once per size and reused.
 */
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { importEvents } from '../../packages/core/src/import/import.js';
import { createSqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { dayStart, localDay, shiftDay } from '../../packages/core/src/time/zone.js';
import { BIG } from './dataset.js';
import { int, removeDatabase } from './measure.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** The day's lines: beacons spread evenly over the site's local day, each URL unique, ~1,950 characters. */
export function* adversarialLines(day: string, pageviews: number): Generator<string> {
  const start = dayStart(day, BIG.timezone);
  const step = (dayStart(shiftDay(day, 1), BIG.timezone) - start) / pageviews;
  const pad = 'a'.repeat(1900);
  for (let i = 0; i < pageviews; i++) {
    yield JSON.stringify({
      site_id: BIG.id, type: 'pageview', ts: new Date(Math.floor(start + i * step)).toISOString(),
      url: `https://${BIG.domain}/p/${i}/${pad}`, ip: '203.0.113.9', user_agent: CHROME,
    });
  }
}

/**
 * `target`: a copy of `source` (the bench's database) with the adversarial day added, made
 * unless a finished one is there (the copy is renamed into place once its import is done).
 */
export async function adversarialDatabase(o: { source: string; target: string; endMs: number; pageviews: number; log: (text: string) => void }): Promise<string> {
  if (existsSync(o.target)) return o.target;
  const making = `${o.target}.making`;
  removeDatabase(making);
  copyFileSync(o.source, making);
  const day = shiftDay(localDay(o.endMs, BIG.timezone), -1);
  o.log(`adversarial database: ${int(o.pageviews)} beacons with unique 2 KB URLs on ${day}`);
  const started = performance.now();
  const store = createSqliteStore(making, { now: () => o.endMs });
  try {
    await importEvents(store, adversarialLines(day, o.pageviews));
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    await store.close();
  }
  renameSync(making, o.target);
  o.log(`adversarial database: made in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return o.target;
}
