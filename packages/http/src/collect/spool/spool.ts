/**
 * The collector's spool, for a store whose writes are network calls with no transaction
 * around them (ClickHouse): a beacon is answered 202 once its event is appended and fsynced
 * to a local file (spool-file.ts; one fsync for every append made while the last one ran),
 * and the spool sends its events on to the store in order,
 * in batches, exactly once:
 *
 * 1. the oldest appends (up to `maxEvents`) are planned (`Storage.planWrite`: every row the
 *    write will insert, worked out against what is stored now) and the plan is saved in the
 *    spool, before any insert;
 * 2. the plan is applied (`Storage.applyWrite`);
 * 3. the appends and the plan are removed from the spool.
 *
 * A crash or a failure anywhere in 2 leaves the saved plan, which is applied again with
 * `resume` (the store leaves out the rows already in) before anything else: at the next
 * start, before the server listens (`replay`), or at the next attempt. A crash in 1 leaves no
 * plan, and nothing was inserted; in 3, the plan is applied again and inserts nothing.
 *
 * While the store refuses (ClickHouse stopped, unreachable), beacons keep being accepted
 * into the spool up to `maxBytes`; past that they are answered 503. The outage is logged
 * when it starts and when it ends.
 */
import type { Storage, StoredEvent } from '@siteline/core';
import type { Logger } from '../../log.js';
import type { BatchOptions, EventKeeper } from '../batch-writer.js';
import { OutageLog } from '../outage-log.js';
import { openSpoolFile, type SpoolFile } from './spool-file.js';

/** Retries while the store refuses: from half a second, doubling, to 5 s. */
const MIN_RETRY_MS = 500;
const MAX_RETRY_MS = 5_000;

export interface SpoolOptions {
  dir: string;
  /** The database the beacons go to, as logs show it (`Backend.description`): a spool holding beacons for another is refused. */
  database: string;
  /** Bytes of spooled events (their JSON) past which beacons are answered 503. */
  maxBytes: number;
  storage: Required<Pick<Storage, 'planWrite' | 'applyWrite'>>;
  /** `maxEvents` per insert (default 500) and `maxDelayMs`, how long beacons gather first (default 1000). */
  batch: BatchOptions;
  logger: Logger;
  /** Told when the spool turns full (beacons answered 503 before they are sent to it) and when it has room again. */
  onFull?: (full: boolean) => void;
  now?: () => number;
}

interface Queued {
  events: readonly StoredEvent[];
  done: (kept: boolean) => void;
}

/**
 * Opens the spool in `dir` (its lock: one process at a time) as the collector's `EventKeeper`.
 *
 * @example
 * const spool = openSpool({ dir: './siteline-spool', database: backend.description, maxBytes: 256 * 2 ** 20, storage, batch: {}, logger });
 * await spool.replay(); // before serving
 * if (await spool.write(events)) answer202();
 */
export function openSpool(options: SpoolOptions): Spool {
  const file = openSpoolFile(options.dir);
  file.bindTo(options.database);
  return new Spool(file, options);
}

export class Spool implements EventKeeper {
  private queue: Queued[] = [];
  private appendScheduled = false;
  private spooled: { events: number; bytes: number };
  private isFull = false;
  private closed = false;
  /** The one drain step running (plan, apply, remove): steps never overlap. */
  private step: Promise<unknown> = Promise.resolve();
  private looping = false;
  /** The background loop's wait: for a batch to fill (`wakeable`: ends when it has), or a backoff while the store refuses. */
  private sleeping: { done: () => void; wakeable: boolean } | undefined;
  private retryMs = MIN_RETRY_MS;
  private readonly maxEvents: number;
  private readonly maxDelayMs: number;
  private readonly now: () => number;
  private readonly storeOutage: OutageLog;
  private readonly appendOutage: OutageLog;
  private readonly roomLog: OutageLog;

  constructor(
    private readonly file: SpoolFile,
    private readonly options: SpoolOptions,
  ) {
    this.maxEvents = Math.max(1, options.batch.maxEvents ?? 500);
    this.maxDelayMs = Math.max(0, options.batch.maxDelayMs ?? 1000);
    this.now = options.now ?? Date.now;
    this.spooled = file.totals();
    this.storeOutage = new OutageLog(options.logger, {
      down: 'collect: the store refused the spool\'s insert; beacons are kept in the spool until it takes them',
      up: 'collect: the store takes the spool\'s inserts again',
    });
    this.appendOutage = new OutageLog(options.logger, { down: 'collect: the spool cannot be written; beacons answered 503', up: 'collect: the spool is written again' });
    this.roomLog = new OutageLog(options.logger, {
      down: 'collect: the spool is full (COLLECT_SPOOL_MB); beacons answered 503 until the store takes spooled ones',
      up: 'collect: the spool has room again',
    });
  }

  get full(): boolean {
    return this.isFull;
  }

  /** Events and bytes in the spool, not yet known to be in the store. */
  get pending(): { events: number; bytes: number } {
    return { ...this.spooled };
  }

  write(events: readonly StoredEvent[]): Promise<boolean> {
    if (events.length === 0) return Promise.resolve(true);
    if (this.closed || this.isFull) return Promise.resolve(false);
    return new Promise((done) => {
      this.queue.push({ events, done });
      if (!this.appendScheduled) {
        this.appendScheduled = true;
        setImmediate(() => this.append());
      }
    });
  }

  /**
   * Sends everything spooled to the store now, a saved plan first; resolves once the spool is
   * empty. On a start, before serving: a store that refuses is logged, and the spool keeps
   * trying in the background (beacons are accepted meanwhile, in order behind the rest).
   */
  async replay(): Promise<void> {
    try {
      await this.flush();
    } catch {
      this.loop(); // logged by the outage log; retried with backoff
    }
  }

  /** Sends everything spooled to the store now; rejects with the store's error if it refuses. */
  async flush(): Promise<void> {
    await this.appendNow();
    for (;;) {
      const result = await this.serially(() => this.drainStep(true));
      if (result === 'empty') return;
    }
  }

  /** Stops accepting, sends what the store takes, and keeps the rest on disk for the next start. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.appendNow();
    this.closed = true;
    this.sleeping?.done();
    try {
      await this.flush();
    } catch (error) {
      const { events, bytes } = this.spooled;
      this.options.logger({ level: 'warn', msg: 'collect: beacons stay in the spool; the next start sends them', spooled_events: events, spooled_bytes: bytes, error: String(error) });
    }
    await this.step.catch(() => {});
    await this.file.close();
  }

  /** Appends every queued write in one transaction: one fsync for all of them. */
  private append(): void {
    this.appendScheduled = false;
    const queued = this.queue;
    this.queue = [];
    if (queued.length === 0) return;
    let kept = false;
    if (!this.closed) {
      const events = queued.length === 1 ? queued[0]!.events : queued.flatMap((q) => q.events);
      const body = JSON.stringify(events);
      const bytes = Buffer.byteLength(body);
      // Refused whole when it does not fit: what was accepted before stays, and the next turn may fit.
      if (this.spooled.bytes + bytes > this.options.maxBytes) {
        this.roomLog.failed(new Error(`${bytes} bytes do not fit`), { spooled_events: this.spooled.events, spooled_bytes: this.spooled.bytes });
        this.setFull(true);
      } else {
        try {
          this.file.append(body, bytes, events.length, this.now());
          this.spooled.bytes += bytes;
          this.spooled.events += events.length;
          kept = true;
          this.roomLog.recovered({ spooled_events: this.spooled.events });
        } catch (error) {
          this.appendOutage.failed(error);
        }
      }
    }
    if (!kept) {
      for (const q of queued) q.done(false);
      return;
    }
    // Answered once on disk; the appends of the next turns go on meanwhile and share the next fsync.
    this.file.sync().then(
      () => {
        this.appendOutage.recovered();
        for (const q of queued) q.done(true);
      },
      (error: unknown) => {
        // Committed but maybe not on disk: not promised, so answered 503 (the insert may still store them).
        this.appendOutage.failed(error);
        for (const q of queued) q.done(false);
      },
    );
    this.loop();
  }

  private async appendNow(): Promise<void> {
    if (this.appendScheduled) this.append();
  }

  /** Full: the last append did not fit; beacons are answered 503 before reaching the spool until a drain makes room. */
  private setFull(full: boolean): void {
    if (full === this.isFull) return;
    this.isFull = full;
    this.options.onFull?.(full);
  }

  /** Runs drain steps one at a time (the background loop and `flush` share them). */
  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.step.then(run);
    this.step = next.catch(() => {});
    return next;
  }

  /**
   * One step: the saved plan applied again (resume), or the oldest appends planned, saved and
   * applied; then removed. `wait`: the oldest appends are too few and too young for an
   * insert yet (unless `force`), with how long until they are not.
   */
  private async drainStep(force: boolean): Promise<'empty' | 'wrote' | { waitMs: number }> {
    const saved = this.file.savedPlan();
    if (saved) {
      await this.options.storage.applyWrite(saved.plan, { resume: true });
      this.finish(saved.lastId);
      return 'wrote';
    }
    if (this.spooled.events === 0) return 'empty';
    const waitMs = this.maxDelayMs - (this.now() - (this.file.oldestAt() ?? this.now()));
    if (!force && this.spooled.events < this.maxEvents && waitMs > 0) return { waitMs };
    const head = this.file.head(this.maxEvents);
    if (!head) return 'empty';
    const plan = await this.options.storage.planWrite(head.events);
    this.file.savePlan(head.lastId, plan);
    await this.file.sync(); // on disk before anything is inserted: a crash after this resumes it
    await this.options.storage.applyWrite(plan, { resume: false });
    this.finish(head.lastId);
    return 'wrote';
  }

  private finish(lastId: number): void {
    const freed = this.file.done(lastId);
    this.spooled.events -= freed.events;
    this.spooled.bytes -= freed.bytes;
    this.storeOutage.recovered({ spooled_events: this.spooled.events });
    this.retryMs = MIN_RETRY_MS;
    this.setFull(false);
  }

  /** The background drain: runs while there is something to send, waiting for batches to fill and backing off while the store refuses. */
  private loop(): void {
    if (this.looping) {
      if (this.sleeping?.wakeable && this.spooled.events >= this.maxEvents) this.sleeping.done();
      return;
    }
    if (this.closed) return;
    this.looping = true;
    void (async () => {
      try {
        while (!this.closed) {
          try {
            const result = await this.serially(() => this.drainStep(false));
            if (result === 'empty') break;
            if (result !== 'wrote') await this.sleep(result.waitMs, true);
          } catch (error) {
            this.storeOutage.failed(error, { spooled_events: this.spooled.events, spooled_bytes: this.spooled.bytes });
            await this.sleep(this.retryMs, false);
            this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
          }
        }
      } finally {
        this.looping = false;
      }
    })();
  }

  /** Waits `ms`; a wait for a batch to fill (`wakeable`) ends early when it has filled; any wait ends on close. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeping = { done, wakeable };
    });
  }
}
