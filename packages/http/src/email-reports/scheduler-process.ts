/**
 * Test scaffolding (not exported): a real `siteline` server process whose email report
 * scheduler runs on a clock the parent sets. It starts the standalone server on the
 * configuration in its environment, with the scheduler's timers off, then answers each IPC
 * message `{ now }` by setting its clock and looking for due reports once, replying with
 * what the look did. The parent (reports.test.ts) moves time; nothing waits for a timer.
 */
import { openBackend } from '../backend.js';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { startServer } from '../server.js';

let clock = 0;
const config = loadConfig(process.cwd());
const running = await startServer(config, await openBackend(config.database, { role: 'serve' }), { logger: silentLogger, reports: { now: () => clock, timers: false } });
process.on('message', (message: { now?: number; stop?: boolean }) => {
  if (message.stop) return void running.close().then(() => process.exit(0));
  clock = message.now!;
  running.reports!.tick().then((result) => process.send!({ result }), (error: Error) => process.send!({ error: error.message }));
});
process.send!({ port: running.port });
