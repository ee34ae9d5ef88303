/**
 * WAL checkpoints on a thread of their own, for the server's connection: it commits the
 * collector's group commits and answers every request, so it never checkpoints by itself
 * (`wal_autocheckpoint = 0`); a checkpoint copies megabytes back into the database file and
 * would hold up every request meanwhile. A PASSIVE checkpoint from another connection takes
 * no lock that a reader or the writer waits for, and once it has copied the whole WAL the
 * next commit starts the WAL over, so it stays small.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the WAL is checkpointed: often enough that it stays a few MB under a steady stream of beacons. */
export const CHECKPOINT_EVERY_MS = 250;

// CommonJS on purpose: evaluated as the worker's whole program, with the driver's resolved path.
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0 });
db.pragma('synchronous = ' + workerData.synchronous);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy (another checkpoint, a closing connection) or no room: the next turn tries again
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Starts checkpointing the WAL of the SQLite file `path` every `everyMs` on a worker thread;
 * `close()` stops it (the last connection to close checkpoints what is left).
 *
 * @example
 * const checkpointer = startCheckpointer('/srv/siteline.db');
 * await checkpointer.close();
 */
export function startCheckpointer(path: string, options: { everyMs?: number; synchronous?: 'normal' | 'full' } = {}): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, {
    eval: true,
    workerData: { driver, path, everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS, synchronous: options.synchronous === 'full' ? 'FULL' : 'NORMAL' },
  });
  // Never what keeps a process alive; a failure to open leaves the WAL to grow until the connection closes, which is logged nowhere but harmless.
  worker.unref();
  worker.on('error', () => {});
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (worker.threadId === -1) return resolve();
        worker.ref(); // until it has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      });
      return closing;
    },
  };
}
