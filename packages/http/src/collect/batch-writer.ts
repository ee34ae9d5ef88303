/**
 * Batched event writes: one `writeEvents` transaction per batch instead of one per request,
 * which is what lets one process take thousands of beacons a second on SQLite.
 */
import type { Storage, StoredEvent } from '@siteline/core';
import type { Logger } from '../log.js';

export interface BatchOptions {
  /** Write as soon as this many events wait (and at most this many per transaction); default 500. */
  maxEvents?: number;
  /** Write events at most this long after they were accepted; default 1000 ms. */
  maxDelayMs?: number;
  /**
   * Events allowed to wait (while storage is slow or failing) before `full` turns true and
   * the collector answers 503 instead of accepting more; default 100,000.
   */
  maxPending?: number;
}

/** Events allowed to wait for storage under `options` (also what the worker-thread collector allows in flight). */
export function pendingLimit(options: BatchOptions): number {
  return Math.max(Math.max(1, options.maxEvents ?? 500), options.maxPending ?? 100_000);
}

/**
 * Queues stored events and writes them in batches, in acceptance order, one batch at a
 * time. A failed write puts its batch back at the head of the queue and is retried, so an
 * accepted event is only lost if the process dies before storage recovers.
 *
 * @example
 * const writer = new BatchWriter(storage, { maxEvents: 200, maxDelayMs: 500 }, logger);
 * writer.push(event);
 * await writer.flush(); // on shutdown
 */
export class BatchWriter {
  private queue: StoredEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private writingCount = 0;
  private readonly maxEvents: number;
  private readonly maxDelayMs: number;
  private readonly maxPending: number;

  constructor(
    private readonly storage: Pick<Storage, 'writeEvents'>,
    options: BatchOptions = {},
    private readonly logger: Logger = () => {},
  ) {
    this.maxEvents = Math.max(1, options.maxEvents ?? 500);
    this.maxPending = pendingLimit(options);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 1000);
  }

  /** Events accepted and not yet written (including the batch being written). */
  get pending(): number {
    return this.queue.length + this.writingCount;
  }

  /** Too much is waiting for storage: refuse new events rather than grow without bound. */
  get full(): boolean {
    return this.pending >= this.maxPending;
  }

  /** Queues one event; it is written within `maxDelayMs`, sooner when a batch fills up. */
  push(event: StoredEvent): void {
    this.queue.push(event);
    if (this.draining) return; // the running drain loop picks it up
    if (this.queue.length >= this.maxEvents) this.drainInBackground();
    else this.timer ??= setTimeout(() => this.drainInBackground(), this.maxDelayMs).unref();
  }

  /**
   * Writes everything queued (and whatever arrives meanwhile) and resolves when the queue
   * is empty. Rejects with the storage error if a write fails; the events stay queued.
   */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.queue.length > 0 || this.draining) await (this.draining ?? this.drain());
  }

  /** Stops the timer; pending events stay queued (call `flush` first). */
  stop(): void {
    this.clearTimer();
  }

  private drain(): Promise<void> {
    this.clearTimer();
    const run = (async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxEvents);
        this.writingCount = batch.length;
        try {
          await this.storage.writeEvents(batch);
        } catch (error) {
          this.queue = batch.concat(this.queue);
          throw error;
        } finally {
          this.writingCount = 0;
        }
      }
    })();
    this.draining = run.finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private drainInBackground(): void {
    this.drain().catch((error: unknown) => {
      this.logger({
        level: 'error',
        msg: 'collect write failed; retrying',
        pending: this.pending,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      this.timer ??= setTimeout(() => this.drainInBackground(), Math.max(this.maxDelayMs, 1000)).unref();
    });
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
