import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS } from './config.js';

const TEMPLATE = (key: string) => `# Siteline server settings; real environment variables override this file.
# Keep it secret: SERVICE_API_KEY reads every site's analytics.
SERVICE_API_KEY=${key}
# DATABASE_URL=${DEFAULTS.DATABASE_URL}   (or clickhouse://user:password@host:8123/siteline)
# HOST=${DEFAULTS.HOST}
# PORT=${DEFAULTS.PORT}
# TLS_CERT_FILE=/etc/siteline/cert.pem
# TLS_KEY_FILE=/etc/siteline/key.pem
# EDITION=${DEFAULTS.EDITION}
# TRUST_PROXY=${DEFAULTS.TRUST_PROXY}
# RATE_LIMIT_PER_MINUTE=${DEFAULTS.RATE_LIMIT_PER_MINUTE}
`;

/**
 * Gives a fresh checkout a key: when neither the environment nor `cwd/.env`
 * sets `SERVICE_API_KEY`, writes a random 64-hex one into `.env` (creating it
 * with mode 600, or appending to it) and returns it, so the caller can show
 * it once. Returns `undefined` when a key was already configured.
 *
 * @example
 * const key = ensureServiceKey(process.cwd(), process.env);
 * if (key) console.error(`New API key: ${key}`);
 */
export function ensureServiceKey(cwd: string, env: Record<string, string | undefined>): string | undefined {
  if (env.SERVICE_API_KEY?.trim()) return undefined;
  const file = join(cwd, '.env');
  const key = randomBytes(32).toString('hex');
  if (!existsSync(file)) {
    writeFileSync(file, TEMPLATE(key), { mode: 0o600, flag: 'wx' });
    return key;
  }
  const text = readFileSync(file, 'utf8');
  if (/^[ \t]*(export[ \t]+)?SERVICE_API_KEY[ \t]*=[ \t]*[^\s#]/m.test(text)) return undefined;
  appendFileSync(file, `${text.endsWith('\n') || text === '' ? '' : '\n'}SERVICE_API_KEY=${key}\n`);
  return key;
}
