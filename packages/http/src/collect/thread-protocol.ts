/**
 * Messages between the request thread (collect-thread.ts) and the collector's worker thread
 * (collect-worker.ts). Beacons travel as one flat array of primitives per batch: cloning
 * that costs far less than an object per beacon.
 */
import type { DatabaseLocation } from '../database-url.js';
import type { LogEntry } from '../log.js';
import type { BatchOptions } from './batch-writer.js';

/** Fields of one beacon in `BeaconsMessage.rows`, in this order (`props`: the custom event's `[key, value]` pairs as JSON, '' for none). */
export const BEACON_FIELDS = ['siteId', 'timezone', 'domain', 'type', 'name', 'url', 'referrer', 'ip', 'userAgent', 'ts', 'props'] as const;
export const FIELD_COUNT = BEACON_FIELDS.length;

export interface WorkerConfig {
  /** The worker opens the backend here again, with role `collect`. */
  database: DatabaseLocation;
  batch: BatchOptions;
  /** The request thread's clock minus `Date.now()` at start (tests and the bench run on other clocks). */
  clockOffsetMs: number;
  /** Cap of the open sessions' estimated memory; default `DEFAULT_OPEN_SESSIONS_BYTES`. */
  openSessionsBytes?: number;
}

export type ToWorker =
  /** `rows`: `FIELD_COUNT` values per beacon; `domain`, `name` and `props` are '' when absent. */
  | { kind: 'beacons'; rows: (string | number)[] }
  | { kind: 'flush'; id: number }
  | { kind: 'close'; id: number };

export type FromWorker =
  | { kind: 'ready' }
  /** `n` more beacons are done with: their events committed (or, after an error that was logged, dropped). */
  | { kind: 'settled'; n: number }
  | { kind: 'done'; id: number; error?: string }
  | { kind: 'log'; entry: LogEntry };
