/**
 * The chdb column of the bench in a process of its own (forked by
 * clickhouse.ts): chdb keeps one data directory per process and must run on
 * the main thread. Receives the options over IPC, sends back the result.
 */
import { chdbStorage, run, type ClickHouseBenchOptions } from './clickhouse.js';

process.once('message', (options: ClickHouseBenchOptions) => {
  run('chdb', chdbStorage(options.readNow), options).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
  );
});
