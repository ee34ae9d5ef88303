/**
 * A server starting, in a process of its own (forked by start.ts): the standalone server
 * (`startServer`, as `siteline serve` runs it, request logs written to nowhere) on a SQLite
 * file with the server's connection and its background warming, the clock at the data's end.
 * It measures itself: the event loop's longest delay, RSS sampled every 20 ms, when it
 * listened and when the warming ended; the parent drives the requests.
 */
import { Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { SqliteStore } from '../../packages/core/src/storage/sqlite/sqlite-storage.js';
import { openSqliteBackend } from '../../packages/core/src/storage/sqlite/sqlite-backend.js';
import { parseConfig } from '../../packages/http/src/config.js';
import { jsonLogger } from '../../packages/http/src/log.js';
import { startServer } from '../../packages/http/src/server.js';

export interface StartChildSetup {
  file: string;
  /** The data's end: the server's clock starts there. */
  now: number;
  env: Record<string, string>;
  /** false: the server without its background warming (the same run's reference for the event loop's delays). */
  warm: boolean;
}

/** The first window's figures (until the parent says `window`): event-loop delays (monitorEventLoopDelay, 1 ms resolution) and peak RSS. */
export interface StartWindow {
  maxBlockMs: number;
  p99BlockMs: number;
  peakRssKb: number;
}

/** At the end (`finish`): RSS after two idle seconds, and what the cache holds. */
export interface StartEnd {
  settledRssKb: number;
  peakRssKb: number;
  cache: ReturnType<SqliteStore['columnCacheStats']>;
}

const began = performance.now();
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let peakRssKb = process.memoryUsage.rss() / 1024;
const sampler = setInterval(() => (peakRssKb = Math.max(peakRssKb, process.memoryUsage.rss() / 1024)), 20);

process.once('message', async (setup: StartChildSetup) => {
  try {
    const config = parseConfig(setup.env, process.cwd());
    const clockStart = Date.now();
    const backend = openSqliteBackend(setup.file, {
      role: 'serve', now: () => setup.now + (Date.now() - clockStart), columnCacheBytes: config.columnCacheMb * 1024 * 1024, ...(setup.warm ? {} : { columnCacheWarmDays: 0 }),
    });
    const store = backend.storage as SqliteStore;
    const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
    const running = await startServer(config, backend, { logger: jsonLogger(nowhere, nowhere) });
    // Requests come once it listens: the longest delay is counted from here.
    delay.reset();
    process.send!({ listening: running.port, listenMs: performance.now() - began });
    void store.columnCacheWarmed.then(() => process.send!({ warmedMs: performance.now() - began }));
    process.on('message', async (step: 'window' | 'finish') => {
      if (step === 'window') {
        const window: StartWindow = { maxBlockMs: delay.max / 1e6, p99BlockMs: delay.percentile(99) / 1e6, peakRssKb };
        delay.reset();
        process.send!({ window });
        return;
      }
      await new Promise((r) => setTimeout(r, 2_000));
      clearInterval(sampler);
      const end: StartEnd = { settledRssKb: process.memoryUsage.rss() / 1024, peakRssKb: Math.max(peakRssKb, process.resourceUsage().maxRSS), cache: store.columnCacheStats() };
      await running.close();
      process.send!({ end }, () => process.exit(0));
    });
  } catch (error) {
    process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1));
  }
});
