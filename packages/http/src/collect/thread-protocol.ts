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
/** Where each field is in a beacon's run of `rows`: `rows[i + FIELD.url]`. */
export const FIELD = Object.fromEntries(BEACON_FIELDS.map((name, i) => [name, i])) as { readonly [K in (typeof BEACON_FIELDS)[number]]: number };

/** Where a backend that writes through a spool (ClickHouse) keeps accepted beacons first (spool.ts). */
export interface SpoolConfig {
  /** The spool's directory (one owner at a time). */
  dir: string;
  /** Bytes of beacons it holds at most; past it beacons are answered 503. */
  maxBytes: number;
}

export interface WorkerConfig {
  /** The worker opens the backend here again, with role `collect`. */
  database: DatabaseLocation;
  batch: BatchOptions;
  /** The spool, used when the backend writes through one (`Storage.planWrite`). */
  spool?: SpoolConfig;
  /** The request thread's clock minus `Date.now()` at start (tests and the bench run on other clocks). */
  clockOffsetMs: number;
  /** Cap of the open sessions' estimated memory; default `DEFAULT_OPEN_SESSIONS_BYTES`. */
  openSessionsBytes?: number;
}

/**
 * The `n` beacons of one message: durable when `kept` (committed, or in the spool), else not
 * kept (answered 503); `dropped` lists the ones among them not kept even so (their event could
 * not be derived), as offsets from the first.
 */
export interface Settled {
  n: number;
  kept: boolean;
  dropped?: number[];
}

export type ToWorker =
  /** `rows`: `FIELD_COUNT` values per beacon; `domain`, `name` and `props` are '' when absent. */
  | { kind: 'beacons'; rows: (string | number)[] }
  | { kind: 'flush'; id: number }
  | { kind: 'close'; id: number };

export type FromWorker =
  | { kind: 'ready' }
  /** The next beacons sent are settled, message by message in order (one message back per turn, however many commits it covers). */
  | { kind: 'settled'; messages: Settled[] }
  /** Whether the spool is full (beacons are answered 503 without being sent). */
  | { kind: 'full'; full: boolean }
  | { kind: 'done'; id: number; error?: string }
  | { kind: 'log'; entry: LogEntry };
