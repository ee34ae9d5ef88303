/**
 * The collector with its heavy half on a worker thread: this thread screens each beacon
 * (bot, site, host), stamps its time, hands it over and answers once the worker
 * (collect-worker.ts) says it is durable; the worker derives the events and keeps them through
 * a backend connection of its own (group commits, or the spool). Answering a beacon costs this
 * thread little more than the HTTP exchange, and a write or a WAL checkpoint never blocks it
 * (the read API's answers included).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DatabaseLocation } from '../database-url.js';
import type { Logger } from '../log.js';
import { type BatchOptions, pendingLimit } from './batch-writer.js';
import { PendingAnswers } from './answers.js';
import { type Beacon, type BeaconSink, type CollectOutcome, screenBeacon } from './collector.js';
import type { SiteCache } from './site-cache.js';
import { FIELD_COUNT, type FromWorker, type SpoolConfig, type ToWorker, type WorkerConfig } from './thread-protocol.js';

/** Beacons sent to the worker in one message at most (more wait for the next one). */
const MAX_BEACONS_PER_MESSAGE = 512;
/** A worker that dies is replaced after this delay, doubling while it keeps dying (a database that cannot be opened). */
const MIN_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 30_000;

export interface CollectThreadOptions {
  /** Where the worker opens the backend (the one the request thread reads). */
  database: DatabaseLocation;
  sites: SiteCache;
  now: () => number;
  batch?: BatchOptions;
  /** Where a backend that writes through a spool (ClickHouse) keeps beacons first. */
  spool?: SpoolConfig;
  logger: Logger;
  openSessionsBytes?: number;
}

/**
 * Runs the worker, restarting it if it dies (the beacons it had not settled are answered 503
 * and logged; until a new worker has opened the database, beacons get 503). Beacons travel to
 * it in batches, at most one message per turn of the event loop, and wait for their answer
 * in `answers`, settled in order as the worker reports them durable.
 */
export class CollectThread implements BeaconSink {
  private worker!: Worker;
  private rows: (string | number)[] = [];
  private scheduled = false;
  /** Beacons handed to the worker (or waiting to be) and not settled yet, oldest first. */
  private readonly answers = new PendingAnswers();
  /** The worker's spool is full: beacons are answered 503 without being sent. */
  private spoolFull = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private closing: Promise<void> | undefined;
  private readonly maxPending: number;
  /** The last worker died and the next one has not opened the database yet: beacons get 503. */
  private broken = false;
  private restartDelayMs = MIN_RESTART_DELAY_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Settles when the first worker has opened the database (or failed to). */
  private readonly started: Promise<void>;
  private firstStart: { resolve: () => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly options: CollectThreadOptions) {
    this.maxPending = pendingLimit(options.batch ?? {});
    this.started = new Promise((resolve, reject) => (this.firstStart = { resolve, reject }));
    this.started.catch(() => {}); // also reported through the log; callers that await it see it
    this.start();
  }

  ready(): Promise<void> {
    return this.started;
  }

  get full(): boolean {
    return this.broken || this.spoolFull || this.answers.size >= this.maxPending;
  }

  async collect(beacon: Beacon): Promise<CollectOutcome> {
    const site = await screenBeacon(beacon, this.options.sites, this.options.now());
    if (typeof site === 'string') return site;
    if (this.broken) return 'unavailable'; // the worker died while the site was looked up
    const { payload } = beacon;
    // Synchronous from the timestamp to the queue: beacons reach the worker in time order.
    this.rows.push(site.id, site.timezone, site.domain ?? '', payload.type, payload.name ?? '', payload.url, payload.referrer,
      beacon.ip, beacon.userAgent, this.options.now(), payload.props && payload.props.length > 0 ? JSON.stringify(payload.props) : '');
    if (this.rows.length >= MAX_BEACONS_PER_MESSAGE * FIELD_COUNT) this.send();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.send());
    }
    return (await this.answers.wait()) ? 'accepted' : 'unavailable';
  }

  /** Resolves once every beacon accepted so far is written; rejects with the worker's error if a write fails. */
  flush(): Promise<void> {
    return this.request('flush');
  }

  /** Writes every accepted beacon, closes the worker's database connection and ends the worker. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.restartTimer);
      if (this.broken) {
        this.rows = [];
        this.answers.failAll();
        return;
      }
      await this.request('close');
      await new Promise<void>((resolve) => {
        if (this.worker.threadId === -1) resolve();
        else this.worker.once('exit', () => resolve());
      });
    })();
    return this.closing;
  }

  private request(kind: 'flush' | 'close'): Promise<void> {
    if (this.broken) return Promise.reject(new Error('The collect worker is not running (see the log); it is being restarted.'));
    this.send();
    const id = this.nextId++;
    this.worker.ref();
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ kind, id });
    });
  }

  private settle(id: number, error?: string): void {
    const waiter = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    if (error === undefined) waiter?.resolve();
    else waiter?.reject(new Error(error));
  }

  private send(): void {
    this.scheduled = false;
    if (this.rows.length === 0 || this.broken) return;
    const rows = this.rows;
    this.rows = [];
    this.post({ kind: 'beacons', rows });
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private start(): void {
    const config: WorkerConfig = {
      database: this.options.database,
      batch: this.options.batch ?? {},
      ...(this.options.spool ? { spool: this.options.spool } : {}),
      clockOffsetMs: this.options.now() - Date.now(),
      openSessionsBytes: this.options.openSessionsBytes,
    };
    // Referenced until it has opened the database (a start that fails must reach `ready()`'s caller before the
    // process could exit), then unreferenced like a timer except while someone waits for it.
    const worker = workerFor(config);
    this.worker = worker;
    this.spoolFull = false;
    worker.on('message', (message: FromWorker) => {
      switch (message.kind) {
        case 'settled':
          for (const { n, kept, dropped } of message.messages) this.answers.settle(n, dropped ? (i) => kept && !dropped.includes(i) : kept);
          break;
        case 'full':
          this.spoolFull = message.full;
          break;
        case 'log':
          this.options.logger(message.entry);
          break;
        case 'done':
          this.settle(message.id, message.error);
          break;
        case 'ready':
          if (this.waiting.size === 0) worker.unref();
          this.broken = false;
          this.restartDelayMs = MIN_RESTART_DELAY_MS;
          this.firstStart?.resolve();
          this.firstStart = undefined;
          this.send();
          break;
      }
    });
    let failure = '';
    worker.on('error', (error) => {
      failure = error.message;
      this.options.logger({ level: 'error', msg: 'collect worker failed', error: error.stack ?? error.message });
    });
    worker.on('exit', (code) => {
      if (this.closing && this.waiting.size === 0) return;
      // Beacons it had not settled are answered 503: none of them was promised.
      const unanswered = this.answers.size;
      this.rows = [];
      this.answers.failAll();
      this.broken = true;
      this.options.logger({ level: 'error', msg: 'collect worker stopped; restarting it', exit_code: code, unanswered_beacons: unanswered, restart_in_ms: this.restartDelayMs });
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`collect worker stopped (exit code ${code})`));
      this.waiting.clear();
      this.firstStart?.reject(new Error(`The collector's worker could not start: ${failure || `exit code ${code}`}`));
      this.firstStart = undefined;
      if (this.closing) return;
      this.restartTimer = setTimeout(() => this.start(), this.restartDelayMs).unref();
      this.restartDelayMs = Math.min(this.restartDelayMs * 2, MAX_RESTART_DELAY_MS);
    });
  }
}

/**
 * The worker next to this module: `collect-worker.js` (or `.cjs`) in the built package; from
 * the TypeScript sources (tests, the bench), the `.ts` file through tsx's loader.
 */
function workerFor(config: WorkerConfig): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const file = new URL('./collect-worker.ts', here).href;
    // tsx's ESM API by absolute path (the worker's own resolution would start from the cwd).
    const tsxPackage = createRequire(here).resolve('tsx/package.json');
    const tsx = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
    const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
    return new Worker(boot, { eval: true, workerData: config });
  }
  return new Worker(new URL(here.endsWith('.cjs') ? './collect-worker.cjs' : './collect-worker.js', here), { workerData: config });
}
