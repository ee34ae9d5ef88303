/**
 * The collector's worker thread (see collect-thread.ts): derives the events of kept beacons
 * and writes them in batches through its own connection to the backend (opened again with
 * role `collect`), so that neither the derivations nor the writes (nor SQLite's checkpoints)
 * hold up the thread answering requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type Backend, localDay, type PropEntry, type SaltStore } from '@siteline/core';
import { openBackend } from '../backend.js';
import type { LogEntry } from '../log.js';
import { BatchWriter } from './batch-writer.js';
import { EventDeriver, type SiteFacts } from './collector.js';
import type { CollectPayload } from './payload.js';
import { FIELD_COUNT, type FromWorker, type ToWorker, type WorkerConfig } from './thread-protocol.js';

const port = parentPort!;
const config = workerData as WorkerConfig;
const send = (message: FromWorker) => port.postMessage(message);
const now = () => Date.now() + config.clockOffsetMs;

const deriver = new EventDeriver({ openSessionsBytes: config.openSessionsBytes });

/** The worker's backend connection and what hangs on it. */
function connect(backend: Backend) {
  const writer = new BatchWriter(
    {
      async writeEvents(events) {
        await backend.storage.writeEvents(events);
        send({ kind: 'settled', n: events.length });
      },
    },
    config.batch,
    (entry: LogEntry) => send({ kind: 'log', entry }),
  );
  return { backend, salts: daySalts(backend.salts), writer };
}
type Connection = ReturnType<typeof connect>;

/** The salt of each day in use, asked of the store once per day. */
function daySalts(store: SaltStore) {
  const known = new Map<string, string>();
  return {
    get: (day: string): string | Promise<string> =>
      known.get(day) ??
      store.saltFor(day).then((salt) => {
        if (known.size >= 4) known.clear(); // a process needs today's, and briefly yesterday's
        known.set(day, salt);
        return salt;
      }),
  };
}

/** Queues the events of `rows`; a beacon whose derivation fails (its salt could not be read) is logged and dropped. */
async function derive({ salts, writer }: Connection, rows: (string | number)[]): Promise<void> {
  let dropped = 0;
  let failure: unknown;
  for (let i = 0; i < rows.length; i += FIELD_COUNT) {
    const siteId = rows[i] as string;
    const timezone = rows[i + 1] as string;
    const domain = rows[i + 2] as string;
    const type = rows[i + 3] as 'pageview' | 'event';
    const ts = rows[i + 9] as number;
    const site: SiteFacts = { id: siteId, timezone, domain: domain || null };
    try {
      const saltOrPromise = salts.get(localDay(ts, timezone));
      const salt = typeof saltOrPromise === 'string' ? saltOrPromise : await saltOrPromise;
      const payload: CollectPayload = { site_id: siteId, type, url: rows[i + 5] as string, referrer: rows[i + 6] as string };
      if (type === 'event') payload.name = rows[i + 4] as string;
      const props = rows[i + 10] as string;
      if (props !== '') payload.props = JSON.parse(props) as PropEntry[];
      writer.push(deriver.derive(site, { payload, ip: rows[i + 7] as string, userAgent: rows[i + 8] as string }, ts, salt));
    } catch (error) {
      dropped++;
      failure = error;
    }
  }
  if (dropped > 0) {
    send({ kind: 'log', entry: { level: 'error', msg: 'collect worker: beacons dropped', dropped, error: describe(failure) } });
    send({ kind: 'settled', n: dropped });
  }
}

// The backend's own `collect` role decides this connection's settings (SQLite: fewer, larger
// WAL checkpoints). If it cannot be opened the worker fails with the reason (collect-thread.ts
// reports it and restarts the worker).
const connected = openBackend(config.database, { role: 'collect', now }).then(connect);
connected.then(
  () => send({ kind: 'ready' }),
  (error: unknown) => process.nextTick(() => {
    throw error;
  }),
);

// Messages are handled strictly one after another, once connected: beacons in the order they
// were accepted, and a flush only after every beacon before it is queued.
let chain: Promise<unknown> = connected;
port.on('message', (message: ToWorker) => {
  chain = chain.then(async () => {
    const connection = await connected;
    if (message.kind === 'beacons') return derive(connection, message.rows);
    const { writer, backend } = connection;
    try {
      await writer.flush();
      if (message.kind === 'close') {
        writer.stop();
        await backend.close();
      }
      send({ kind: 'done', id: message.id });
    } catch (error) {
      send({ kind: 'done', id: message.id, error: describe(error) });
    }
    if (message.kind === 'close') port.close();
  });
});

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
