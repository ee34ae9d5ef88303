/**
 * Group commit: the events of every beacon accepted while one write runs go into the next
 * write, one `writeEvents` transaction for all of them, and each beacon is answered once the
 * write holding it has committed. One commit serves hundreds of beacons under load, and a
 * beacon alone waits for one commit.
 */
import type { Storage, StoredEvent } from '@siteline/core';
import type { Logger } from '../log.js';
import { OutageLog } from './outage-log.js';

export interface BatchOptions {
  /** Most events per write (whole beacons' events are never split); default 500. */
  maxEvents?: number;
  /**
   * How long events wait for others before their write starts, at most; default 0 (the next
   * turn of the event loop). Through the spool (ClickHouse) it is how long beacons gather in
   * the spool before one insert, and the server sets it from `COLLECT_BATCH_MS`.
   */
  maxDelayMs?: number;
  /**
   * Events allowed to wait for storage (written or waiting) before `full` turns true and the
   * collector answers 503 instead of accepting more; default 100,000.
   */
  maxPending?: number;
}

/** Events allowed to wait for storage under `options` (also what the worker-thread collector allows in flight). */
export function pendingLimit(options: BatchOptions): number {
  return Math.max(Math.max(1, options.maxEvents ?? 500), options.maxPending ?? 100_000);
}

/** What keeps accepted events: `write` resolves `true` once they are durable, `false` if they were not kept. */
export interface EventKeeper {
  write(events: readonly StoredEvent[]): Promise<boolean>;
  /** Too much is waiting: refuse new events rather than grow without bound. */
  readonly full: boolean;
  /** Resolves once everything written so far is where it is going (rejects if that fails now). */
  flush(): Promise<void>;
  /** Flushes what it can, then lets go of its resources. */
  close(): Promise<void>;
}

interface Queued {
  events: readonly StoredEvent[];
  done: (kept: boolean) => void;
}

/**
 * Writes queued events in acceptance order, one write at a time, as many events per write as
 * have queued meanwhile (up to `maxEvents`). A failed write keeps nothing (a transaction) and
 * answers its events `false`; it is logged once per run of failures, not per beacon, and the
 * next write tries again.
 *
 * @example
 * const writer = new BatchWriter(storage, { maxEvents: 500 }, logger);
 * if (await writer.write([event])) answer202();
 */
export class BatchWriter implements EventKeeper {
  private queue: Queued[] = [];
  private queuedEvents = 0;
  private writingEvents = 0;
  /** Cancels the scheduled start of the next write, when one is scheduled. */
  private cancelStart: (() => void) | undefined;
  /** The write loop runs (`running` settles when it ends). */
  private looping = false;
  private running: Promise<void> | undefined;
  private readonly maxEvents: number;
  private readonly maxDelayMs: number;
  private readonly maxPending: number;
  private readonly outage: OutageLog;

  constructor(
    private readonly storage: Pick<Storage, 'writeEvents'>,
    options: BatchOptions = {},
    logger: Logger = () => {},
  ) {
    this.maxEvents = Math.max(1, options.maxEvents ?? 500);
    this.maxPending = pendingLimit(options);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 0);
    this.outage = new OutageLog(logger, { down: 'collect write failed; its beacons were answered 503', up: 'collect writes work again' });
  }

  /** Events accepted and not yet written (including the write running). */
  get pending(): number {
    return this.queuedEvents + this.writingEvents;
  }

  get full(): boolean {
    return this.pending >= this.maxPending;
  }

  write(events: readonly StoredEvent[]): Promise<boolean> {
    if (events.length === 0) return Promise.resolve(true);
    return new Promise((done) => {
      this.queue.push({ events, done });
      this.queuedEvents += events.length;
      if (this.looping) return; // the running loop takes them next
      if (this.queuedEvents >= this.maxEvents) void this.start();
      else if (!this.cancelStart && this.maxDelayMs === 0) {
        // The next turn: every beacon of this turn shares the write.
        const immediate = setImmediate(() => void this.start());
        this.cancelStart = () => clearImmediate(immediate);
      } else if (!this.cancelStart) {
        const timer = setTimeout(() => void this.start(), this.maxDelayMs);
        this.cancelStart = () => clearTimeout(timer);
      }
    });
  }

  /** Writes everything queued now and resolves once the queue is empty (failed writes answered `false`, not retried). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.looping) await this.start();
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private start(): Promise<void> {
    this.cancelStart?.();
    this.cancelStart = undefined;
    if (!this.looping) {
      this.looping = true;
      this.running = this.loop();
    }
    return this.running!;
  }

  private async loop(): Promise<void> {
    for (;;) {
      // Cleared in the same turn the queue is found empty: a write queued after that starts a new loop.
      if (this.queue.length === 0) {
        this.looping = false;
        return;
      }
      let count = 0;
      let take = 0;
      while (take < this.queue.length && (take === 0 || count + this.queue[take]!.events.length <= this.maxEvents)) count += this.queue[take++]!.events.length;
      const batch = this.queue.splice(0, take);
      this.queuedEvents -= count;
      this.writingEvents = count;
      let kept = true;
      try {
        await this.storage.writeEvents(batch.length === 1 ? batch[0]!.events : batch.flatMap((q) => q.events));
        this.outage.recovered();
      } catch (error) {
        kept = false;
        this.outage.failed(error, { events: count });
      } finally {
        this.writingEvents = 0;
      }
      for (const q of batch) q.done(kept);
    }
  }
}
