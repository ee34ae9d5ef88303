/**
 * The `.env` file: where `siteline start` writes down what it decided (the key it made, the
 * port, `PUBLIC_URL`, the development certificate), so that `serve` and every other command
 * run later in the same directory read the same configuration.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { DEFAULTS } from './config.js';

/** The settings `.env` itself sets (not the environment), as Node's `util.parseEnv` reads them; empty values count as unset. */
export function envFileSettings(cwd: string): Record<string, string> {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return {};
  return Object.fromEntries(Object.entries(parseEnv(readFileSync(file, 'utf8'))).filter(([, v]) => v !== undefined && v.trim() !== '')) as Record<string, string>;
}

/** A new Community key: 64 random hex digits (256 bits). */
export const newServiceKey = () => randomBytes(32).toString('hex');

const HEADER = `# Siteline server settings. Every siteline command run in this directory reads this file;
# real environment variables override it. Keep it secret: SERVICE_API_KEY reads every site.
`;

/** The other variables, commented out with their defaults, below a new file's settings. */
const OTHERS = `# DATABASE_URL=${DEFAULTS.DATABASE_URL}   (or clickhouse://user:password@host:8123/siteline)
# HOST=${DEFAULTS.HOST}
# EDITION=${DEFAULTS.EDITION}
# TRUST_PROXY=${DEFAULTS.TRUST_PROXY}
# RATE_LIMIT_PER_MINUTE=${DEFAULTS.RATE_LIMIT_PER_MINUTE}
`;

/** `NAME=value`, quoted when the value holds anything a POSIX shell or `parseEnv` would read differently (`. ./.env` works). */
function line(name: string, value: string): string {
  if (/^[\w./:@+,-]*$/.test(value)) return `${name}=${value}`;
  if (value.includes("'") || /[\r\n]/.test(value)) throw new Error(`Cannot write ${name} to .env: its value holds a quote or a line break.`);
  return `${name}='${value}'`;
}

/**
 * Writes `settings` into `cwd/.env`: each one the file does not set yet is added (the file's
 * own lines are kept as they are); a missing file is created, readable only by its owner.
 * All or nothing: the new text goes to a temporary file renamed over `.env`, so a failure
 * leaves the old file whole. Returns the names it added.
 *
 * @example
 * recordSettings(process.cwd(), { PORT: '8443', PUBLIC_URL: 'https://localhost:8443' }); // ['PORT', 'PUBLIC_URL']
 */
export function recordSettings(cwd: string, settings: Record<string, string>): string[] {
  const file = join(cwd, '.env');
  const exists = existsSync(file);
  const present = envFileSettings(cwd);
  const added = Object.keys(settings).filter((name) => present[name] === undefined);
  if (added.length === 0) return [];
  const lines = added.map((name) => line(name, settings[name]!)).join('\n');
  let text: string;
  if (exists) {
    const old = readFileSync(file, 'utf8');
    text = `${old}${old === '' || old.endsWith('\n') ? '' : '\n'}${lines}\n`;
  } else {
    text = `${HEADER}${lines}\n${OTHERS}`;
  }
  const mode = exists ? statSync(file).mode & 0o777 : 0o600;
  const temporary = join(cwd, `.env.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { mode, flag: 'wx' });
    chmodSync(temporary, mode); // the umask may have narrowed it
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return added;
}
