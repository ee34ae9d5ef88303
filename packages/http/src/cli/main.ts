import { ValidationError } from '@siteline/core';
import { ConfigError } from '../config.js';
import { accountsCommand, keysCommand } from './accounts.js';
import { demoCommand } from './demo.js';
import { exportCommand } from './export.js';
import { inFlagWords } from './flag-words.js';
import { funnelsCommand } from './funnels.js';
import { goalsCommand } from './goals.js';
import { HELP } from './help.js';
import { importCommand } from './import.js';
import { type CliIo, UsageError } from './io.js';
import { reportsCommand } from './reports.js';
import { serveCommand } from './serve.js';
import { shareCommand } from './share.js';
import { sitesCommand } from './sites.js';
import { usersCommand } from './users.js';

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  start: (args, io) => serveCommand(args, io, true),
  serve: (args, io) => serveCommand(args, io, false),
  sites: sitesCommand,
  goals: goalsCommand,
  funnels: funnelsCommand,
  import: importCommand,
  export: exportCommand,
  demo: demoCommand,
  accounts: accountsCommand,
  keys: keysCommand,
  users: usersCommand,
  share: shareCommand,
  reports: reportsCommand,
};

/** The process's own streams, directory and environment. */
export const processIo = (): CliIo => ({ cwd: process.cwd(), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

/**
 * The `siteline` command: runs `argv` (without `node` and the script) and
 * resolves to the exit code: 0 ok, 1 failure, 2 usage error. `start` and
 * `serve` resolve once the server listens; a signal later ends the process.
 *
 * @example process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0] as keyof typeof HELP | undefined;
      io.stdout.write(`${topic && topic in HELP ? HELP[topic] : HELP.siteline}\n`);
      return 0;
    }
    if (command === undefined) throw new UsageError('a command is required.');
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command "${command}".`);
    return await run(rest, io);
  } catch (error) {
    // A flag's value broke one of the API's rules: a usage error, said with the flag's name.
    if (error instanceof UsageError || error instanceof ValidationError) {
      io.stderr.write(`siteline: ${error instanceof ValidationError ? inFlagWords(error.message) : error.message}\nRun "siteline --help" for usage.\n`);
      return 2;
    }
    io.stderr.write(`siteline: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
