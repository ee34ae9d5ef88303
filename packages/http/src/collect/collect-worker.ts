/**
 * The collector's worker thread (see collect-thread.ts): derives the events of kept beacons
 * and makes them durable through its own connection to the backend (opened again with role
 * `collect`): committed in group commits (batch-writer.ts), or, for a backend that writes
 * through a spool (ClickHouse), appended to the spool and sent on from there (spool.ts). Each
 * message's beacons are settled back in order, so the request thread answers 202 only for
 * durable ones. Neither the derivations nor the writes (nor SQLite's checkpoints) hold up the
 * thread answering requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type Backend, localDay, type PropEntry, type SaltStore, type StoredEvent } from '@siteline/core';
import { openBackend } from '../backend.js';
import type { LogEntry } from '../log.js';
import { BatchWriter, type EventKeeper } from './batch-writer.js';
import { EventDeriver, type SiteFacts } from './collector.js';
import { describeError, OutageLog } from './outage-log.js';
import type { CollectPayload } from './payload.js';
import { openSpool } from './spool/spool.js';
import { FIELD as F, FIELD_COUNT, type FromWorker, type Settled, type ToWorker, type WorkerConfig } from './thread-protocol.js';

const port = parentPort!;
const config = workerData as WorkerConfig;
const send = (message: FromWorker) => port.postMessage(message);
const log = (entry: LogEntry) => send({ kind: 'log', entry });
const now = () => Date.now() + config.clockOffsetMs;

const deriver = new EventDeriver({ openSessionsBytes: config.openSessionsBytes });
const saltOutage = new OutageLog(log, { down: 'collect worker: the day\'s salt cannot be read; beacons answered 503', up: 'collect worker: salts read again' });

/** The worker's backend connection and what keeps its events. */
async function connect(backend: Backend) {
  const { storage } = backend;
  let keeper: EventKeeper;
  if (config.spool && storage.planWrite && storage.applyWrite) {
    const spool = openSpool({ ...config.spool, database: backend.description, storage: { planWrite: storage.planWrite.bind(storage), applyWrite: storage.applyWrite.bind(storage) }, batch: config.batch, logger: log, onFull: (full) => send({ kind: 'full', full }) });
    // Beacons a crash left in the spool go to ClickHouse before this worker takes new ones.
    await spool.replay();
    keeper = spool;
  } else keeper = new BatchWriter(storage, { ...config.batch, maxDelayMs: 0 }, log);
  return { backend, salts: daySalts(backend.salts), keeper };
}
type Connection = Awaited<ReturnType<typeof connect>>;

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

/** The events of `rows`, and the offsets of the beacons whose event could not be derived (their salt could not be read). */
async function derive({ salts }: Connection, rows: (string | number)[]): Promise<{ events: StoredEvent[]; dropped: number[] }> {
  const events: StoredEvent[] = [];
  const dropped: number[] = [];
  for (let i = 0; i < rows.length; i += FIELD_COUNT) {
    const siteId = rows[i + F.siteId] as string;
    const timezone = rows[i + F.timezone] as string;
    const type = rows[i + F.type] as 'pageview' | 'event';
    const ts = rows[i + F.ts] as number;
    const site: SiteFacts = { id: siteId, timezone, domain: (rows[i + F.domain] as string) || null };
    try {
      const saltOrPromise = salts.get(localDay(ts, timezone));
      const salt = typeof saltOrPromise === 'string' ? saltOrPromise : await saltOrPromise;
      const payload: CollectPayload = { site_id: siteId, type, url: rows[i + F.url] as string, referrer: rows[i + F.referrer] as string };
      if (type === 'event') payload.name = rows[i + F.name] as string;
      const props = rows[i + F.props] as string;
      if (props !== '') payload.props = JSON.parse(props) as PropEntry[];
      events.push(deriver.derive(site, { payload, ip: rows[i + F.ip] as string, userAgent: rows[i + F.userAgent] as string }, ts, salt));
      saltOutage.recovered();
    } catch (error) {
      saltOutage.failed(error);
      dropped.push(i / FIELD_COUNT);
    }
  }
  return { events, dropped };
}

// The backend's own `collect` role decides this connection's settings (SQLite: fewer, larger
// WAL checkpoints). If it (or the spool) cannot be opened the worker fails with the reason
// (collect-thread.ts reports it and restarts the worker).
const connected = openBackend(config.database, { role: 'collect', now }).then(connect);
connected.then(
  () => send({ kind: 'ready' }),
  (error: unknown) => process.nextTick(() => {
    throw error;
  }),
);

// Messages are derived strictly one after another, once connected: beacons in the order they
// were accepted, and a flush only after every beacon before it is handed to the keeper. The
// keeper's writes run meanwhile (the next message's events gather for the next group commit);
// their answers go back in order on a chain of their own.
let chain: Promise<unknown> = connected;
let answers: Promise<unknown> = Promise.resolve();
/** Settled messages not yet told: sent together once per turn (a commit settles many messages at once). */
let settled: Settled[] = [];
const tell = (message: Settled) => {
  if (settled.length === 0) setImmediate(() => {
    send({ kind: 'settled', messages: settled });
    settled = [];
  });
  settled.push(message);
};
port.on('message', (message: ToWorker) => {
  chain = chain.then(async () => {
    const connection = await connected;
    if (message.kind === 'beacons') {
      const n = message.rows.length / FIELD_COUNT;
      const { events, dropped } = await derive(connection, message.rows);
      const kept = connection.keeper.write(events);
      answers = answers.then(async () => tell({ n, kept: await kept, ...(dropped.length > 0 ? { dropped } : {}) }));
      return;
    }
    const { keeper, backend } = connection;
    let failure: unknown;
    try {
      await (message.kind === 'close' ? keeper.close() : keeper.flush());
      await answers;
      await new Promise((resolve) => setImmediate(resolve)); // the last answers told before `done`
    } catch (error) {
      failure = error;
    }
    if (message.kind === 'close') await backend.close().catch((error: unknown) => (failure ??= error));
    send({ kind: 'done', id: message.id, ...(failure === undefined ? {} : { error: describeError(failure) }) });
    if (message.kind === 'close') port.close();
  });
});
