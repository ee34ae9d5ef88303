import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { type DatabaseLocation, DEFAULT_DATABASE_URL, parseDatabaseUrl } from './database-url.js';
import type { ServerLimits } from './server-limits.js';

/** Environment variables the server reads (from `.env`, overridden by the real environment). */
export type EnvVars = Record<string, string | undefined>;

/** The standalone server's settings, validated. */
export interface ServerConfig {
  edition: 'community' | 'cloud';
  /** The Community key; `''` in the Cloud edition, whose keys live in the database. */
  serviceApiKey: string;
  /** Where the data lives: the SQLite file (default `./siteline.db`) or a ClickHouse server or cluster. */
  database: DatabaseLocation;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Certificate and key files; `null` only behind a TLS-terminating proxy. */
  tls: { certFile: string; keyFile: string } | null;
  /** Plain HTTP on loopback, trusting the proxy's `X-Forwarded-Proto`. */
  trustProxy: boolean;
  /** `Strict-Transport-Security: max-age=` of every HTTPS answer (`HSTS_MAX_AGE_SECONDS`; default a year, 0 for a development host). */
  hstsMaxAgeSeconds?: number;
  /** Requests per key and minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /**
   * The collector's writes: at most `maxEvents` events each (SQLite commits as soon as the
   * previous commit is done); through the spool (ClickHouse), beacons gather `maxDelayMs` at
   * most before one insert.
   */
  collectBatch: { maxEvents: number; maxDelayMs: number };
  /** Where ClickHouse beacons are appended and fsynced before their 202 (`COLLECT_SPOOL_DIR`), and the bytes it may hold (`COLLECT_SPOOL_MB`). */
  collectSpool: { dir: string; maxBytes: number };
  /** Connections, timeouts and budgets of clients without a key (README: "Limits a deployment should set"). */
  limits: ServerLimits;
  /** Memory of the SQLite store's column cache of filtered reads, MiB (`COLUMN_CACHE_MB`; default 256). */
  columnCacheMb: number;
  /** Dashboard sessions end after this long unused (`DASHBOARD_IDLE_MINUTES`); default 30 minutes. */
  dashboardSessions?: { idleMs: number };
  /** The origin people reach the server at (`PUBLIC_URL`): one-time links, tracker snippets and the sign-in Origin check use it. */
  publicUrl?: string;
  /** Where one-time links are mailed from (`SMTP_URL`, `MAIL_FROM`); absent: links are only shown. */
  smtp?: { url: string; from: string };
  /** Worth saying at start, not worth refusing to start (a short key). */
  warnings: string[];
}

/** One or more variables are wrong; `problems` names each with what is expected. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (.env file or environment):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Defaults of the optional variables, as documented in the README. */
export const DEFAULTS = {
  DATABASE_URL: DEFAULT_DATABASE_URL,
  HOST: '127.0.0.1',
  PORT: '8443',
  EDITION: 'community',
  TRUST_PROXY: 'false',
  RATE_LIMIT_PER_MINUTE: '600',
  COLLECT_BATCH_EVENTS: '500',
  COLLECT_BATCH_MS: '1000',
  COLLECT_SPOOL_DIR: './siteline-spool',
  COLLECT_SPOOL_MB: '256',
  // Limits (README: "Limits a deployment should set"): below a descriptor limit of 1,024 with room to spare,
  // timeouts a slow phone meets with margin, budgets far above one person and far below a flood.
  MAX_CONNECTIONS: '900',
  MAX_CONNECTIONS_PER_IP: '100',
  TLS_HANDSHAKE_TIMEOUT_MS: '10000',
  HEADERS_TIMEOUT_MS: '10000',
  REQUEST_TIMEOUT_MS: '30000',
  KEEP_ALIVE_TIMEOUT_MS: '5000',
  BEACONS_PER_MINUTE_PER_IP: '600',
  AUTH_FAILURES_PER_MINUTE_PER_IP: '30',
  OPEN_SESSIONS_MB: '64',
  DASHBOARD_IDLE_MINUTES: '30',
  COLUMN_CACHE_MB: '256',
  HSTS_MAX_AGE_SECONDS: '31536000',
} as const;

/** Below this length `SERVICE_API_KEY` is accepted with a warning (decisions.md section 7). */
export const MIN_KEY_LENGTH = 32;

const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` }).transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be an integer from ${min} to ${max}` });

const boolean = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }).transform(isTrue);

/** How a yes/no variable says yes. */
export function isTrue(value: string | undefined): boolean {
  return value === 'true' || value === '1' || value === 'yes';
}

const schema = z.object({
  EDITION: z.enum(['community', 'cloud'], { error: 'must be community or cloud' }).default(DEFAULTS.EDITION),
  SERVICE_API_KEY: z.string().optional(),
  HOST: z.string().regex(/^[\w.:-]+$/, { error: 'must be a host name or IP address, e.g. 127.0.0.1 or 0.0.0.0' }).default(DEFAULTS.HOST),
  PORT: integer(0, 65535).default(Number(DEFAULTS.PORT)),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  TRUST_PROXY: boolean.default(false),
  RATE_LIMIT_PER_MINUTE: integer(0, 1_000_000).default(Number(DEFAULTS.RATE_LIMIT_PER_MINUTE)),
  COLLECT_BATCH_EVENTS: integer(1, 100_000).default(Number(DEFAULTS.COLLECT_BATCH_EVENTS)),
  COLLECT_BATCH_MS: integer(1, 60_000).default(Number(DEFAULTS.COLLECT_BATCH_MS)),
  COLLECT_SPOOL_DIR: z.string().max(4096, { error: 'must be a directory path of at most 4096 characters' }).default(DEFAULTS.COLLECT_SPOOL_DIR),
  COLLECT_SPOOL_MB: integer(1, 1_048_576).default(Number(DEFAULTS.COLLECT_SPOOL_MB)),
  SQLITE_SYNCHRONOUS: z.string().optional(),
  MAX_CONNECTIONS: integer(0, 1_000_000).default(Number(DEFAULTS.MAX_CONNECTIONS)),
  MAX_CONNECTIONS_PER_IP: integer(0, 1_000_000).default(Number(DEFAULTS.MAX_CONNECTIONS_PER_IP)),
  TLS_HANDSHAKE_TIMEOUT_MS: integer(100, 600_000).default(Number(DEFAULTS.TLS_HANDSHAKE_TIMEOUT_MS)),
  HEADERS_TIMEOUT_MS: integer(100, 600_000).default(Number(DEFAULTS.HEADERS_TIMEOUT_MS)),
  REQUEST_TIMEOUT_MS: integer(100, 3_600_000).default(Number(DEFAULTS.REQUEST_TIMEOUT_MS)),
  KEEP_ALIVE_TIMEOUT_MS: integer(100, 600_000).default(Number(DEFAULTS.KEEP_ALIVE_TIMEOUT_MS)),
  BEACONS_PER_MINUTE_PER_IP: integer(0, 1_000_000).default(Number(DEFAULTS.BEACONS_PER_MINUTE_PER_IP)),
  AUTH_FAILURES_PER_MINUTE_PER_IP: integer(0, 1_000_000).default(Number(DEFAULTS.AUTH_FAILURES_PER_MINUTE_PER_IP)),
  OPEN_SESSIONS_MB: integer(1, 65_536).default(Number(DEFAULTS.OPEN_SESSIONS_MB)),
  DASHBOARD_IDLE_MINUTES: integer(1, 1440).default(Number(DEFAULTS.DASHBOARD_IDLE_MINUTES)),
  COLUMN_CACHE_MB: integer(1, 1_048_576).default(Number(DEFAULTS.COLUMN_CACHE_MB)),
  HSTS_MAX_AGE_SECONDS: integer(0, 63_072_000).default(Number(DEFAULTS.HSTS_MAX_AGE_SECONDS)),
  PUBLIC_URL: z.string().max(2048).refine((v) => /^https:\/\/[^/?#\s]+\/?$/.test(v), { error: 'must be the https:// origin people reach the server at, e.g. https://stats.example.com' }).optional(),
  SMTP_URL: z.string().max(2048).refine((v) => /^smtps?:\/\/[^\s]+$/.test(v), { error: 'must be smtp://user:password@host:port or smtps://…' }).optional(),
  MAIL_FROM: z.string().max(320).optional(),
});

/**
 * The variables in effect: `.env` in `cwd` (parsed with Node's own
 * `util.parseEnv`), then the real environment on top. Empty values count as unset.
 * @example const vars = readEnvironment(process.cwd(), process.env);
 */
export function readEnvironment(cwd: string, env: EnvVars = process.env): EnvVars {
  const file = resolve(cwd, '.env');
  const merged: EnvVars = { ...(existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {}) };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  for (const [name, value] of Object.entries(merged)) if (value?.trim() === '') delete merged[name];
  return merged;
}

/**
 * Validates the variables, reporting every bad one at once (`ConfigError`).
 * Relative paths are resolved against `cwd`.
 * @example const config = parseConfig(readEnvironment(process.cwd()), process.cwd());
 */
export function parseConfig(vars: EnvVars, cwd: string): ServerConfig {
  const problems: string[] = [];
  const result = schema.safeParse(vars);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0]);
      // SMTP_URL may hold a password: never repeated.
      problems.push(`${name} ${issue.message} (got ${name === 'SMTP_URL' ? 'a value not shown here' : JSON.stringify(vars[name])}).`);
    }
  }
  const key = vars.SERVICE_API_KEY ?? '';
  const edition = result.data?.EDITION ?? 'community';
  if (edition === 'community' && key === '') {
    problems.push('SERVICE_API_KEY is required: the secret clients send as "Authorization: Bearer <key>" (run `siteline start` once to create one).');
  }
  const certFile = vars.TLS_CERT_FILE && resolve(cwd, vars.TLS_CERT_FILE);
  const keyFile = vars.TLS_KEY_FILE && resolve(cwd, vars.TLS_KEY_FILE);
  const trustProxy = result.data?.TRUST_PROXY ?? false;
  if (!certFile !== !keyFile) {
    problems.push(`${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is required when ${certFile ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'} is set: give both the certificate and its private key (PEM files).`);
  } else if (certFile && trustProxy) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE cannot be used with TRUST_PROXY=true: the proxy terminates TLS and this server then speaks plain HTTP on loopback. Remove the TLS files (the proxy holds the certificate), or set TRUST_PROXY=false to serve HTTPS directly.');
  } else if (!certFile && !trustProxy) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE are required: the server speaks HTTPS only. Set them to PEM files, run `siteline start` for a development certificate, or set TRUST_PROXY=true behind a TLS-terminating proxy.');
  }
  for (const [name, file] of [['TLS_CERT_FILE', certFile], ['TLS_KEY_FILE', keyFile]] as const) {
    if (file && !existsSync(file)) problems.push(`${name} must name a readable PEM file; ${file} does not exist.`);
  }
  const database = databaseLocation(vars, cwd);
  if ('problem' in database) problems.push(database.problem);
  const host = result.data?.HOST ?? DEFAULTS.HOST;
  if (trustProxy && !isLoopback(host)) {
    problems.push(`HOST must be a loopback address (127.0.0.1, ::1 or localhost) when TRUST_PROXY=true, got ${JSON.stringify(host)}: plain HTTP may only be reachable by the proxy on this machine.`);
  }
  if (result.data && result.data.HEADERS_TIMEOUT_MS > result.data.REQUEST_TIMEOUT_MS) {
    problems.push(`HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (${result.data.REQUEST_TIMEOUT_MS}): the headers are part of the request.`);
  }
  if (problems.length > 0 || !result.success || 'problem' in database) throw new ConfigError(problems);

  const data = result.data;
  const warnings: string[] = [];
  if (edition === 'community' && key.length < MIN_KEY_LENGTH) {
    warnings.push(`SERVICE_API_KEY has fewer than ${MIN_KEY_LENGTH} characters; use a long random key (e.g. \`openssl rand -hex 32\`).`);
  }
  const publicUrl = data.PUBLIC_URL ? new URL(data.PUBLIC_URL) : undefined;
  const publicPort = publicUrl && Number(publicUrl.port || 443);
  // Only a loopback PUBLIC_URL must name this very port; a real host name is a proxy's to route.
  if (publicUrl && !trustProxy && data.PORT !== 0 && isLoopback(publicUrl.hostname.replace(/^\[|\]$/g, '')) && publicPort !== data.PORT) {
    warnings.push(`PUBLIC_URL ${publicUrl.origin} names port ${publicPort}, but the server listens on ${data.PORT}: one-time links and tracker snippets point at PUBLIC_URL. Make the two agree in .env.`);
  }
  return {
    edition,
    serviceApiKey: edition === 'community' ? key : '',
    database: database.location,
    host,
    port: data.PORT,
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    trustProxy,
    hstsMaxAgeSeconds: data.HSTS_MAX_AGE_SECONDS,
    rateLimitPerMinute: data.RATE_LIMIT_PER_MINUTE,
    collectBatch: { maxEvents: data.COLLECT_BATCH_EVENTS, maxDelayMs: data.COLLECT_BATCH_MS },
    collectSpool: { dir: resolve(cwd, data.COLLECT_SPOOL_DIR), maxBytes: data.COLLECT_SPOOL_MB * 1024 * 1024 },
    limits: {
      maxConnections: data.MAX_CONNECTIONS,
      maxConnectionsPerIp: data.MAX_CONNECTIONS_PER_IP,
      handshakeTimeoutMs: data.TLS_HANDSHAKE_TIMEOUT_MS,
      headersTimeoutMs: data.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: data.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: data.KEEP_ALIVE_TIMEOUT_MS,
      beaconsPerMinutePerIp: data.BEACONS_PER_MINUTE_PER_IP,
      authFailuresPerMinutePerIp: data.AUTH_FAILURES_PER_MINUTE_PER_IP,
      openSessionsMb: data.OPEN_SESSIONS_MB,
    },
    columnCacheMb: data.COLUMN_CACHE_MB,
    dashboardSessions: { idleMs: data.DASHBOARD_IDLE_MINUTES * 60_000 },
    ...(publicUrl ? { publicUrl: publicUrl.origin } : {}),
    ...(data.SMTP_URL ? { smtp: { url: data.SMTP_URL, from: data.MAIL_FROM ?? 'Siteline <siteline@localhost>' } } : {}),
    warnings,
  };
}

/**
 * The backend's location from `DATABASE_URL` (or the older `DATABASE_PATH`, a SQLite file),
 * `CLICKHOUSE_CLUSTER` and `CLICKHOUSE_NODES`; the default is `./siteline.db`. A problem never
 * contains the password. Commands that only touch data read just this.
 * @example databaseLocation({ DATABASE_URL: 'clickhouse://default:@127.0.0.1:8123/siteline' }, process.cwd())
 */
export function databaseLocation(vars: EnvVars, cwd: string): { location: DatabaseLocation } | { problem: string } {
  if (vars.DATABASE_URL !== undefined && vars.DATABASE_PATH !== undefined) {
    return { problem: 'Set DATABASE_URL or DATABASE_PATH, not both (DATABASE_PATH is the older name of a SQLite DATABASE_URL).' };
  }
  const value = vars.DATABASE_URL ?? vars.DATABASE_PATH ?? DEFAULTS.DATABASE_URL;
  if (value.length > 4096) return { problem: `${vars.DATABASE_URL !== undefined ? 'DATABASE_URL' : 'DATABASE_PATH'} must be at most 4096 characters.` };
  if (vars.DATABASE_PATH !== undefined && /^[a-z][a-z0-9+.-]+:\/\//i.test(value)) {
    return { problem: 'DATABASE_PATH is a SQLite file path; put a clickhouse:// address in DATABASE_URL.' };
  }
  const found = parseDatabaseUrl(value, cwd, { name: vars.CLICKHOUSE_CLUSTER, nodes: vars.CLICKHOUSE_NODES });
  const synchronous = vars.SQLITE_SYNCHRONOUS?.toLowerCase();
  if (synchronous === undefined || 'problem' in found) return found;
  if (synchronous !== 'normal' && synchronous !== 'full') {
    return { problem: `SQLITE_SYNCHRONOUS must be normal or full, got ${JSON.stringify(vars.SQLITE_SYNCHRONOUS)}.` };
  }
  if (found.location.engine !== 'sqlite') return { problem: 'SQLITE_SYNCHRONOUS applies to a SQLite DATABASE_URL only; this one is ClickHouse (its beacons go through the spool, which is always fsynced).' };
  return { location: { ...found.location, synchronous } };
}

/**
 * `readEnvironment` and `parseConfig` in one step.
 * @example const config = loadConfig(process.cwd());
 */
export function loadConfig(cwd: string, env: EnvVars = process.env): ServerConfig {
  return parseConfig(readEnvironment(cwd, env), cwd);
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
