/**
 * The year profile's import into one store, in a process of its own (year-import-child.ts),
 * so its peak RSS is the import's alone; its progress lines are passed on as they come.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { YearImportMessage, YearImportSetup, YearProgress } from './year-import-child.js';

export function importYear(setup: YearImportSetup, log: (text: string) => void): Promise<YearProgress> {
  const child = fork(fileURLToPath(new URL('./year-import-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let done: YearProgress | undefined;
    let failed: string | undefined;
    child.on('message', (message: YearImportMessage) => {
      if ('progress' in message) log(`${setup.engine}: ${message.progress}`);
      else if ('done' in message) done = message.done;
      else failed = message.error;
    });
    child.on('error', reject);
    child.on('exit', (code) => (done ? resolve(done) : reject(new Error(`${setup.engine} import: ${failed ?? `process exited ${code}`}`))));
    child.send(setup);
  });
}
