import { isAbsolute, resolve } from 'node:path';

/** Where the backend is, as configured (`DATABASE_URL`, `CLICKHOUSE_CLUSTER`, `CLICKHOUSE_NODES`). */
export type DatabaseLocation =
  | {
      engine: 'sqlite';
      /** Absolute path of the file, or `:memory:`. */
      path: string;
      /** When a commit is durable (`SQLITE_SYNCHRONOUS`); default `normal`: see docs/behaviour.md, "What 202 promises". */
      synchronous?: 'normal' | 'full';
    }
  | {
      engine: 'clickhouse';
      /** HTTP(S) address of the server, without credentials or path, e.g. `http://127.0.0.1:8123`. */
      url: string;
      username: string;
      password: string;
      database: string;
      /** Cluster name in the servers' `remote_servers`: tables are sharded over it. */
      cluster?: string;
      /** HTTP addresses of every server of the cluster, for creating the schema on each (else `ON CLUSTER` DDL). */
      nodes?: string[];
    };

/** The default `DATABASE_URL`: the embedded SQLite file. */
export const DEFAULT_DATABASE_URL = './siteline.db';

const CLICKHOUSE_SCHEMES: Record<string, string> = { 'clickhouse:': 'http:', 'clickhouses:': 'https:' };
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Reads `DATABASE_URL`: a SQLite path (`./siteline.db`, `/srv/siteline.db`, `:memory:`) or
 * `sqlite:` URL (`sqlite:./siteline.db`, `sqlite:///srv/siteline.db`, `sqlite::memory:`), or
 * `clickhouse://user:password@host:8123/database` (`clickhouses://` for HTTPS). Relative
 * paths are resolved against `cwd`. Returns the location or a problem to report; a problem
 * never contains the password.
 *
 * @example parseDatabaseUrl('clickhouse://default:secret@127.0.0.1:8123/siteline', '/srv')
 * // { location: { engine: 'clickhouse', url: 'http://127.0.0.1:8123', username: 'default', password: 'secret', database: 'siteline' } }
 */
export function parseDatabaseUrl(value: string, cwd: string, cluster?: { name?: string; nodes?: string }): { location: DatabaseLocation } | { problem: string } {
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'sqlite:') {
    const rest = value.slice('sqlite:'.length);
    const path = rest.startsWith('//') ? rest.slice(2) : rest;
    if (path === '') return { problem: 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./siteline.db or sqlite:///srv/siteline.db.' };
    return sqliteLocation(path, cwd, cluster);
  }
  if (scheme && CLICKHOUSE_SCHEMES[scheme]) return clickhouseLocation(value, scheme, cluster);
  // A Windows drive letter (C:) or no scheme at all: a path.
  if (scheme && scheme.length > 2) {
    return { problem: `DATABASE_URL must be a SQLite path or sqlite: URL, or clickhouse://user:password@host:8123/database; got a ${scheme}// URL.` };
  }
  return sqliteLocation(value, cwd, cluster);
}

function sqliteLocation(path: string, cwd: string, cluster: { name?: string; nodes?: string } | undefined) {
  if (cluster?.name || cluster?.nodes) return { problem: 'CLICKHOUSE_CLUSTER and CLICKHOUSE_NODES apply to a clickhouse:// DATABASE_URL only; this one is SQLite.' };
  if (path === ':memory:') return { location: { engine: 'sqlite', path } as const };
  return { location: { engine: 'sqlite', path: isAbsolute(path) ? path : resolve(cwd, path) } as const };
}

function clickhouseLocation(value: string, scheme: string, cluster: { name?: string; nodes?: string } | undefined) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'DATABASE_URL is not a valid clickhouse:// URL; expected clickhouse://user:password@host:8123/database.' };
  }
  const shown = redactDatabaseUrl(value);
  if (!url.hostname) return { problem: `DATABASE_URL ${shown} names no host.` };
  if (url.search || url.hash) return { problem: `DATABASE_URL ${shown} must not have a query or fragment.` };
  const database = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')) || 'siteline';
  if (!NAME.test(database)) return { problem: `DATABASE_URL names the database ${JSON.stringify(database)}; use letters, digits and _ (at most 64).` };
  const port = url.port || (scheme === 'clickhouses:' ? '8443' : '8123');
  const location: DatabaseLocation = {
    engine: 'clickhouse',
    url: `${CLICKHOUSE_SCHEMES[scheme]}//${url.hostname}:${port}`,
    username: decodeURIComponent(url.username) || 'default',
    password: decodeURIComponent(url.password),
    database,
  };
  if (cluster?.name) {
    if (!NAME.test(cluster.name)) return { problem: `CLICKHOUSE_CLUSTER must be a cluster name of letters, digits and _, got ${JSON.stringify(cluster.name)}.` };
    location.cluster = cluster.name;
  }
  if (cluster?.nodes) {
    if (!location.cluster) return { problem: 'CLICKHOUSE_NODES needs CLICKHOUSE_CLUSTER: the nodes are the servers of that cluster.' };
    const nodes = cluster.nodes.split(',').map((n) => n.trim()).filter(Boolean);
    for (const node of nodes) {
      if (!/^https?:\/\/[^/@\s]+(:\d+)?\/?$/.test(node)) return { problem: `CLICKHOUSE_NODES must be a comma-separated list of http(s)://host:port addresses, got ${JSON.stringify(node)}.` };
    }
    location.nodes = nodes.map((n) => n.replace(/\/$/, ''));
  }
  return { location };
}

/**
 * A database URL safe to print: the password replaced by `***`.
 * @example redactDatabaseUrl('clickhouse://app:s3cret@ch1:8123/siteline') // 'clickhouse://app:***@ch1:8123/siteline'
 */
export function redactDatabaseUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

/**
 * A location as logs and messages show it: never the password.
 * @example describeLocation({ engine: 'sqlite', path: '/srv/siteline.db' }) // 'sqlite:/srv/siteline.db'
 */
export function describeLocation(location: DatabaseLocation): string {
  if (location.engine === 'sqlite') return `sqlite:${location.path}`;
  // http://host:8123 -> clickhouse://user@host:8123/database (https -> clickhouses).
  const where = `${location.url.replace(/^http/, 'clickhouse').replace('://', `://${location.username}@`)}/${location.database}`;
  return location.cluster ? `${where} (cluster ${location.cluster})` : where;
}
