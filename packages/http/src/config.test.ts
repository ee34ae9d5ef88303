import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig, readEnvironment } from './config.js';
import { recordSettings } from './env-file.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cert = join(dir, 'cert.pem');
const key = join(dir, 'key.pem');
writeFileSync(cert, 'not checked here');
writeFileSync(key, 'not checked here');
const KEY = 'a'.repeat(40);
const valid = { SERVICE_API_KEY: KEY, TLS_CERT_FILE: cert, TLS_KEY_FILE: key };

const problems = (vars: Record<string, string>) => {
  try {
    parseConfig(vars, dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    expect(parseConfig(valid, dir)).toEqual({
      edition: 'community',
      serviceApiKey: KEY,
      database: { engine: 'sqlite', path: join(dir, 'siteline.db') },
      host: '127.0.0.1',
      port: 8443,
      tls: { certFile: cert, keyFile: key },
      trustProxy: false,
      hstsMaxAgeSeconds: 31_536_000,
      rateLimitPerMinute: 600,
      collectBatch: { maxEvents: 500, maxDelayMs: 1000 },
      collectSpool: { dir: join(dir, 'siteline-spool'), maxBytes: 256 * 1024 * 1024 },
      limits: {
        maxConnections: 900,
        maxConnectionsPerIp: 100,
        handshakeTimeoutMs: 10_000,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        beaconsPerMinutePerIp: 600,
        authFailuresPerMinutePerIp: 30,
        openSessionsMb: 64,
      },
      columnCacheMb: 256,
      dashboardSessions: { idleMs: 30 * 60_000 },
      warnings: [],
    });
  });

  it('reads the limits, 0 turning a cap or budget off, and keeps the headers inside the request timeout', () => {
    const limits = parseConfig({ ...valid, MAX_CONNECTIONS: '4', MAX_CONNECTIONS_PER_IP: '0', TLS_HANDSHAKE_TIMEOUT_MS: '500', HEADERS_TIMEOUT_MS: '400',
      REQUEST_TIMEOUT_MS: '800', KEEP_ALIVE_TIMEOUT_MS: '100', BEACONS_PER_MINUTE_PER_IP: '0', AUTH_FAILURES_PER_MINUTE_PER_IP: '5', OPEN_SESSIONS_MB: '8' }, dir).limits;
    expect(limits).toEqual({ maxConnections: 4, maxConnectionsPerIp: 0, handshakeTimeoutMs: 500, headersTimeoutMs: 400, requestTimeoutMs: 800,
      keepAliveTimeoutMs: 100, beaconsPerMinutePerIp: 0, authFailuresPerMinutePerIp: 5, openSessionsMb: 8 });
    expect(problems({ ...valid, HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (30000): the headers are part of the request.',
    ]);
    expect(problems({ ...valid, TLS_HANDSHAKE_TIMEOUT_MS: '0', OPEN_SESSIONS_MB: '0' })).toEqual([
      'TLS_HANDSHAKE_TIMEOUT_MS must be an integer from 100 to 600000 (got "0").',
      'OPEN_SESSIONS_MB must be an integer from 1 to 65536 (got "0").',
    ]);
  });

  it('COLUMN_CACHE_MB sets the memory of the column cache (1 MiB to 1 TiB)', () => {
    expect(parseConfig({ ...valid, COLUMN_CACHE_MB: '1' }, dir).columnCacheMb).toBe(1);
    for (const bad of ['0', '-5', '1.5', '256MB', '1048577']) {
      expect(problems({ ...valid, COLUMN_CACHE_MB: bad })).toEqual([`COLUMN_CACHE_MB must be an integer from 1 to 1048576 (got ${JSON.stringify(bad)}).`]);
    }
  });

  it('DASHBOARD_IDLE_MINUTES sets how long an unused dashboard session lasts (1 to 1440 minutes)', () => {
    expect(parseConfig({ ...valid, DASHBOARD_IDLE_MINUTES: '5' }, dir).dashboardSessions).toEqual({ idleMs: 5 * 60_000 });
    expect(problems({ ...valid, DASHBOARD_IDLE_MINUTES: '0' })).toEqual(['DASHBOARD_IDLE_MINUTES must be an integer from 1 to 1440 (got "0").']);
  });

  it('resolves DATABASE_PATH against the directory, except :memory: (an in-memory database)', () => {
    expect(parseConfig({ ...valid, DATABASE_PATH: 'data/site.db' }, dir).database).toEqual({ engine: 'sqlite', path: join(dir, 'data/site.db') });
    expect(parseConfig({ ...valid, DATABASE_PATH: ':memory:' }, dir).database).toEqual({ engine: 'sqlite', path: ':memory:' });
  });

  it('reads DATABASE_URL as a SQLite path, a sqlite: URL or a clickhouse:// URL', () => {
    const database = (url: string, extra: Record<string, string> = {}) => parseConfig({ ...valid, DATABASE_URL: url, ...extra }, dir).database;
    expect(database('data/a.db')).toEqual({ engine: 'sqlite', path: join(dir, 'data/a.db') });
    expect(database('sqlite:./b.db')).toEqual({ engine: 'sqlite', path: join(dir, 'b.db') });
    expect(database('sqlite:///srv/c.db')).toEqual({ engine: 'sqlite', path: '/srv/c.db' });
    expect(database('sqlite::memory:')).toEqual({ engine: 'sqlite', path: ':memory:' });
    expect(database('clickhouse://app:p%40ss@ch1.internal:8124/analytics')).toEqual({
      engine: 'clickhouse', url: 'http://ch1.internal:8124', username: 'app', password: 'p@ss', database: 'analytics',
    });
    expect(database('clickhouses://ch1.internal')).toEqual({ engine: 'clickhouse', url: 'https://ch1.internal:8443', username: 'default', password: '', database: 'siteline' });
    expect(database('clickhouse://default:@127.0.0.1:8123/siteline', { CLICKHOUSE_CLUSTER: 'shards', CLICKHOUSE_NODES: 'http://10.0.0.1:8123, http://10.0.0.2:8123/' })).toEqual({
      engine: 'clickhouse', url: 'http://127.0.0.1:8123', username: 'default', password: '', database: 'siteline',
      cluster: 'shards', nodes: ['http://10.0.0.1:8123', 'http://10.0.0.2:8123'],
    });
  });

  it('refuses a bad DATABASE_URL with what is expected, never repeating the password', () => {
    const secret = 'S3cr3t-pa55';
    expect(problems({ ...valid, DATABASE_URL: `postgres://u:${secret}@db/x` })).toEqual([
      'DATABASE_URL must be a SQLite path or sqlite: URL, or clickhouse://user:password@host:8123/database; got a postgres:// URL.',
    ]);
    expect(problems({ ...valid, DATABASE_URL: `clickhouse://u:${secret}@ch1:8123/no-such;db` })).toEqual([
      'DATABASE_URL names the database "no-such;db"; use letters, digits and _ (at most 64).',
    ]);
    expect(problems({ ...valid, DATABASE_URL: `clickhouse://u:${secret}@ch1:8123/x?secure=1` })).toEqual([
      'DATABASE_URL clickhouse://u:***@ch1:8123/x?secure=1 must not have a query or fragment.',
    ]);
    expect(problems({ ...valid, DATABASE_URL: 'a.db', DATABASE_PATH: 'b.db' })).toEqual([
      'Set DATABASE_URL or DATABASE_PATH, not both (DATABASE_PATH is the older name of a SQLite DATABASE_URL).',
    ]);
    expect(problems({ ...valid, DATABASE_URL: 'a.db', CLICKHOUSE_CLUSTER: 'c' })).toEqual([
      'CLICKHOUSE_CLUSTER and CLICKHOUSE_NODES apply to a clickhouse:// DATABASE_URL only; this one is SQLite.',
    ]);
    expect(problems({ ...valid, DATABASE_URL: 'clickhouse://ch1', CLICKHOUSE_NODES: 'http://ch1:8123' })).toEqual([
      'CLICKHOUSE_NODES needs CLICKHOUSE_CLUSTER: the nodes are the servers of that cluster.',
    ]);
    expect(problems({ ...valid, DATABASE_URL: 'clickhouse://ch1', CLICKHOUSE_CLUSTER: 'c', CLICKHOUSE_NODES: 'ch2:8123' })).toEqual([
      'CLICKHOUSE_NODES must be a comma-separated list of http(s)://host:port addresses, got "ch2:8123".',
    ]);
    expect(JSON.stringify(problems({ ...valid, PORT: 'x', DATABASE_URL: `clickhouse://u:${secret}@ch1:8123/x#y` }))).not.toContain(secret);
  });

  it('reads the collector batch settings', () => {
    expect(parseConfig({ ...valid, COLLECT_BATCH_EVENTS: '2000', COLLECT_BATCH_MS: '250' }, dir).collectBatch).toEqual({ maxEvents: 2000, maxDelayMs: 250 });
    expect(problems({ ...valid, COLLECT_BATCH_EVENTS: '0', COLLECT_BATCH_MS: '60001' })).toEqual([
      'COLLECT_BATCH_EVENTS must be an integer from 1 to 100000 (got "0").',
      'COLLECT_BATCH_MS must be an integer from 1 to 60000 (got "60001").',
    ]);
  });

  it('reads the spool and SQLite durability settings', () => {
    const parsed = parseConfig({ ...valid, COLLECT_SPOOL_DIR: 'var/spool', COLLECT_SPOOL_MB: '16', SQLITE_SYNCHRONOUS: 'FULL' }, dir);
    expect([parsed.collectSpool, parsed.database]).toEqual([
      { dir: join(dir, 'var/spool'), maxBytes: 16 * 1024 * 1024 },
      { engine: 'sqlite', path: join(dir, 'siteline.db'), synchronous: 'full' },
    ]);
    expect(problems({ ...valid, COLLECT_SPOOL_MB: '0', SQLITE_SYNCHRONOUS: 'extra' })).toEqual([
      'COLLECT_SPOOL_MB must be an integer from 1 to 1048576 (got "0").',
      'SQLITE_SYNCHRONOUS must be normal or full, got "extra".',
    ]);
    expect(problems({ ...valid, DATABASE_URL: 'clickhouse://default:@127.0.0.1:8123/siteline', SQLITE_SYNCHRONOUS: 'full' })).toEqual([
      'SQLITE_SYNCHRONOUS applies to a SQLite DATABASE_URL only; this one is ClickHouse (its beacons go through the spool, which is always fsynced).',
    ]);
  });

  it('names every bad variable with what it expects, at once', () => {
    expect(problems({ ...valid, PORT: 'eighty', EDITION: 'enterprise', TRUST_PROXY: 'maybe', RATE_LIMIT_PER_MINUTE: '-1' })).toEqual([
      'EDITION must be community or cloud (got "enterprise").',
      'PORT must be an integer from 0 to 65535 (got "eighty").',
      'TRUST_PROXY must be true or false (got "maybe").',
      'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 1000000 (got "-1").',
    ]);
    expect(problems({ ...valid, PORT: '70000' })).toEqual(['PORT must be an integer from 0 to 65535 (got "70000").']);
  });

  it('requires the key and HTTPS files, and says how to get them', () => {
    const [missingKey, missingTls] = problems({});
    expect(missingKey).toMatch(/^SERVICE_API_KEY is required.*siteline start/);
    expect(missingTls).toMatch(/^TLS_CERT_FILE and TLS_KEY_FILE are required.*HTTPS only.*TRUST_PROXY=true/);
    expect(problems({ SERVICE_API_KEY: KEY, TLS_CERT_FILE: cert })).toEqual([
      'TLS_KEY_FILE is required when TLS_CERT_FILE is set: give both the certificate and its private key (PEM files).',
    ]);
    expect(problems({ ...valid, TLS_KEY_FILE: 'missing.pem' })).toEqual([
      `TLS_KEY_FILE must name a readable PEM file; ${join(dir, 'missing.pem')} does not exist.`,
    ]);
  });

  it('allows plain HTTP only behind a proxy on loopback, and never with TLS files (the proxy terminates TLS)', () => {
    expect(parseConfig({ SERVICE_API_KEY: KEY, TRUST_PROXY: 'true' }, dir)).toMatchObject({ tls: null, trustProxy: true });
    expect(problems({ ...valid, TRUST_PROXY: 'true' })).toEqual([
      'TLS_CERT_FILE and TLS_KEY_FILE cannot be used with TRUST_PROXY=true: the proxy terminates TLS and this server then speaks plain HTTP on loopback. Remove the TLS files (the proxy holds the certificate), or set TRUST_PROXY=false to serve HTTPS directly.',
    ]);
    expect(problems({ SERVICE_API_KEY: KEY, TRUST_PROXY: 'true', HOST: '0.0.0.0' })[0]).toMatch(/^HOST must be a loopback address .* when TRUST_PROXY=true/);
  });

  it('warns about a short key without ever repeating it', () => {
    const config = parseConfig({ ...valid, SERVICE_API_KEY: 'short-secret' }, dir);
    expect(config.warnings).toEqual([expect.stringMatching(/^SERVICE_API_KEY has fewer than 32 characters/)]);
    expect(JSON.stringify(config.warnings)).not.toContain('short-secret');
    expect(JSON.stringify(problems({ SERVICE_API_KEY: 'short-secret', PORT: 'x' }))).not.toContain('short-secret');
  });

  it('warns when a loopback PUBLIC_URL names another port than the server listens on', () => {
    expect(parseConfig({ ...valid, PORT: '18600', PUBLIC_URL: 'https://localhost:8443' }, dir).warnings).toEqual([
      'PUBLIC_URL https://localhost:8443 names port 8443, but the server listens on 18600: one-time links and tracker snippets point at PUBLIC_URL. Make the two agree in .env.',
    ]);
    expect(parseConfig({ ...valid, PORT: '18600', PUBLIC_URL: 'https://127.0.0.1:18600/' }, dir).warnings).toEqual([]);
    // A real host name is a proxy's or a port mapping's to route: no opinion.
    expect(parseConfig({ ...valid, PORT: '18600', PUBLIC_URL: 'https://stats.example.com' }, dir).warnings).toEqual([]);
    expect(parseConfig({ ...valid, PORT: '0', PUBLIC_URL: 'https://localhost:8443' }, dir).warnings).toEqual([]);
  });
});

describe('readEnvironment', () => {
  it('reads .env with util.parseEnv and lets the real environment override it', () => {
    const envDir = mkdtempSync(join(dir, 'env-'));
    writeFileSync(join(envDir, '.env'), `# comment\nSERVICE_API_KEY=${KEY}\nPORT=9000\nHOST="0.0.0.0"\nDATABASE_PATH=data/site.db\nTLS_CERT_FILE=\n`);
    expect(readEnvironment(envDir, {})).toEqual({ SERVICE_API_KEY: KEY, PORT: '9000', HOST: '0.0.0.0', DATABASE_PATH: 'data/site.db' });
    const config = loadConfig(envDir, { PORT: '9443', TRUST_PROXY: 'yes', HOST: '127.0.0.1' });
    expect(config).toMatchObject({ port: 9443, host: '127.0.0.1', trustProxy: true, database: { engine: 'sqlite', path: join(envDir, 'data/site.db') } });
  });
});

describe('recordSettings (what siteline start writes into .env)', () => {
  it('creates .env readable only by its owner, which util.parseEnv and a POSIX shell both read', () => {
    const fresh = mkdtempSync(join(dir, 'fresh-'));
    const settings = { SERVICE_API_KEY: 'f'.repeat(64), PORT: '18600', PUBLIC_URL: 'https://localhost:18600', TLS_CERT_FILE: '.siteline/dev-cert.pem', TLS_KEY_FILE: 'my keys/key.pem' };
    expect(recordSettings(fresh, settings)).toEqual(Object.keys(settings));
    expect(statSync(join(fresh, '.env')).mode & 0o777).toBe(0o600);
    expect(readEnvironment(fresh, {})).toEqual(settings);
    const shell = execFileSync('sh', ['-c', 'set -a; . ./.env; set +a; printf "%s|" "$SERVICE_API_KEY" "$PORT" "$PUBLIC_URL" "$TLS_CERT_FILE" "$TLS_KEY_FILE"'], { cwd: fresh, encoding: 'utf8' });
    expect(shell).toBe(`${'f'.repeat(64)}|18600|https://localhost:18600|.siteline/dev-cert.pem|my keys/key.pem|`);
    expect(recordSettings(fresh, settings)).toEqual([]); // all there: the file is left alone
  });

  it('adds only what an existing .env lacks, keeping its lines and its mode', () => {
    const existing = mkdtempSync(join(dir, 'existing-'));
    writeFileSync(join(existing, '.env'), '# mine\nPORT=9000\nPUBLIC_URL=', { mode: 0o640 });
    expect(recordSettings(existing, { PORT: '8443', PUBLIC_URL: 'https://localhost:9000' })).toEqual(['PUBLIC_URL']);
    expect(readFileSync(join(existing, '.env'), 'utf8')).toBe('# mine\nPORT=9000\nPUBLIC_URL=\nPUBLIC_URL=https://localhost:9000\n');
    expect(readEnvironment(existing, {})).toEqual({ PORT: '9000', PUBLIC_URL: 'https://localhost:9000' });
    expect(statSync(join(existing, '.env')).mode & 0o777).toBe(0o640);
  });
});
