/**
 * The baseline of the collect measurement: the least a Node HTTPS collector on
 * SQLite can do per beacon on this machine. It reads the body, `JSON.parse`s
 * it, answers 202 and hands six fields per beacon, once per event-loop turn,
 * to a worker thread that inserts one row per beacon into a scratch table (one
 * transaction per message, WAL, synchronous NORMAL as the store). No checks,
 * no derivations, no sessions, no rollups: what the real collector does on top
 * of this is what the ratio printed against it measures.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('DROP TABLE IF EXISTS beacons; CREATE TABLE beacons (site TEXT, ts INTEGER, url TEXT, referrer TEXT, ua TEXT, ip TEXT)');
const insert = db.prepare('INSERT INTO beacons VALUES (?, ?, ?, ?, ?, ?)');
const write = db.transaction((rows) => {
  for (let i = 0; i < rows.length; i += 6) insert.run(rows[i], rows[i + 1], rows[i + 2], rows[i + 3], rows[i + 4], rows[i + 5]);
});
parentPort.on('message', (rows) => {
  if (rows === 'close') return db.close(), parentPort.close();
  write(rows);
  parentPort.postMessage(rows.length / 6);
});
`;

export interface FloorServer {
  url: string;
  /** Beacons the worker has written. */
  stored(): number;
  /** Resolves once every answered beacon is written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the baseline collector on loopback, writing to the SQLite file `file`. */
export async function startFloorServer(tls: { key: Buffer; cert: Buffer }, file: string): Promise<FloorServer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, file } });
  let sent = 0;
  let written = 0;
  let waiters: (() => void)[] = [];
  worker.on('message', (n: number) => {
    written += n;
    if (written === sent) for (const resolve of waiters.splice(0)) resolve();
  });
  let rows: unknown[] = [];
  let scheduled = false;
  const send = () => {
    scheduled = false;
    sent += rows.length / 6;
    worker.postMessage(rows);
    rows = [];
  };
  const server = https.createServer(tls, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const beacon = JSON.parse(body) as { site_id: string; url: string; referrer: string };
      rows.push(beacon.site_id, Date.now(), beacon.url, beacon.referrer, req.headers['user-agent'], req.headers['x-forwarded-for']);
      if (!scheduled) {
        scheduled = true;
        setImmediate(send);
      }
      res.writeHead(202);
      res.end();
    });
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const flush = () => new Promise<void>((resolve) => (written === sent && rows.length === 0 ? resolve() : waiters.push(resolve)));
  return {
    url: `https://127.0.0.1:${port}`,
    stored: () => written,
    flush,
    async close() {
      await flush();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
