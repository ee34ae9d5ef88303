/**
 * Floors of durable collection, measured beside the baseline (collect-floor.ts): what any
 * collector that answers a beacon only once it is committed pays on this machine, before
 * sessions and rollups. The request thread reads the body, parses it, and queues one row
 * per beacon; the beacons queued in one turn of the event loop are inserted in one
 * transaction on the next (a group commit, as `POST /collect` does), and each is answered
 * 202 once it has committed. WAL, `synchronous = NORMAL`, checkpoints on a thread of their
 * own (`startCheckpointer`), as the server's connection.
 *
 * - `row`: `JSON.parse`, six fields as one row (the baseline's row, committed before the answer).
 * - `derived`: `parseCollectBody` and the collector's derivations (bot check, site host,
 *   `enrichEvent`, the visitor's session by the 30-minute rule: `EventDeriver`), and the
 *   event as the `events` table stores it: what `POST /collect` does, without its
 *   `sessions` row, rollups, rate limit and statistics.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { isBotUserAgent, localDay, type Site } from '../../packages/core/src/index.js';
import { startCheckpointer } from '../../packages/core/src/storage/sqlite/sqlite-checkpointer.js';
import { propsText } from '../../packages/core/src/storage/sqlite/sqlite-writer.js';
import { EventDeriver } from '../../packages/http/src/collect/collector.js';
import { hostBelongsTo, parseCollectBody } from '../../packages/http/src/collect/payload.js';
import type { FloorServer } from './collect-floor.js';

export type DurableFloor = 'row' | 'derived';

/** Starts a durable floor collector on loopback for `site`, writing to the SQLite file `file`. */
export async function startDurableFloorServer(tls: { key: Buffer; cert: Buffer }, file: string, kind: DurableFloor, site: Pick<Site, 'id' | 'timezone' | 'domain'>): Promise<FloorServer> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  const checkpointer = startCheckpointer(file);
  db.exec(kind === 'row'
    ? 'CREATE TABLE beacons (site TEXT, ts INTEGER, url TEXT, referrer TEXT, ua TEXT, ip TEXT)'
    : `CREATE TABLE events (site_id TEXT NOT NULL, ts INTEGER NOT NULL, id INTEGER NOT NULL, day TEXT NOT NULL, type INTEGER NOT NULL,
         name TEXT NOT NULL, path TEXT NOT NULL, visitor_id TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
         gap_ms INTEGER, props TEXT, PRIMARY KEY (site_id, ts, id)) STRICT, WITHOUT ROWID`);
  const insert = kind === 'row'
    ? db.prepare('INSERT INTO beacons VALUES (?, ?, ?, ?, ?, ?)')
    : db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)');
  const commit = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(row);
  });
  const deriver = new EventDeriver();
  const salt = 'a-fixed-salt-of-the-day-for-the-floor';
  let id = 0;
  let written = 0;
  let rows: unknown[][] = [];
  let answers: import('node:http').ServerResponse[] = [];
  let scheduled = false;
  const round = () => {
    scheduled = false;
    const [these, waiting] = [rows, answers];
    rows = [];
    answers = [];
    commit(these);
    written += these.length;
    for (const res of waiting) {
      res.writeHead(202);
      res.end();
    }
  };
  const keep = (row: unknown[], res: import('node:http').ServerResponse) => {
    rows.push(row);
    answers.push(res);
    if (!scheduled) {
      scheduled = true;
      setImmediate(round);
    }
  };
  const server = https.createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const userAgent = req.headers['user-agent'] ?? '';
      const ip = String(req.headers['x-forwarded-for']);
      if (kind === 'row') {
        const beacon = JSON.parse(text) as { site_id: string; url: string; referrer: string };
        return keep([beacon.site_id, Date.now(), beacon.url, beacon.referrer, userAgent, ip], res);
      }
      const parsed = parseCollectBody(text);
      if (!parsed.ok || isBotUserAgent(userAgent) || parsed.payload.site_id !== site.id || !hostBelongsTo(parsed.host, site.domain)) {
        res.writeHead(400);
        return res.end();
      }
      const ts = Date.now();
      void localDay(ts, site.timezone); // the collector picks the day's salt by it
      const e = deriver.derive(site, { payload: parsed.payload, ip, userAgent }, ts, salt);
      keep([e.siteId, e.ts, id++, e.day, e.type === 'pageview' ? 0 : 1, e.name, e.path, e.visitorId, e.sessionId, e.seq, propsText(e)], res);
    });
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    stored: () => written,
    flush: async () => {},
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
      await checkpointer.close();
    },
  };
}
