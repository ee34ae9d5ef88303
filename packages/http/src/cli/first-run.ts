/**
 * What `siteline start` fills in on a fresh checkout, and writes into `.env` once the server
 * listens, so that `siteline serve`, `users add`, `accounts add` and the tracker snippets all
 * name the same server afterwards: one source of truth for where the server is.
 */
import { join, relative } from 'node:path';
import { DEFAULTS, type EnvVars, isTrue, readEnvironment } from '../config.js';
import { DEV_CERT_DIR, ensureDevCertificate } from '../dev-cert.js';
import { envFileSettings, newServiceKey, recordSettings } from '../env-file.js';
import type { CliIo } from './io.js';

/** The configuration of a first run, and what it will write down. */
export interface FirstRun {
  /** The variables to run with: the configured ones and what this run decided. */
  vars: EnvVars;
  /** A Community key made in this run (shown once). */
  newKey?: string;
  /** The development certificate, when this run uses it. */
  devCert?: string;
  /** Settings for `.env` that do not depend on the port the server gets. */
  settings: Record<string, string>;
}

/** A path as `.env` should hold it: relative to the directory when inside it, so the directory can move. */
const pathFor = (cwd: string, file: string) => (relative(cwd, file).startsWith('..') ? file : relative(cwd, file));

/**
 * Decides what a first run lacks: a key (Community edition), a development certificate for
 * `localhost` (no TLS files, no proxy), and `PUBLIC_URL` (unless behind a proxy, whose origin
 * only the operator knows). Nothing is written to `.env` yet (see `recordFirstRun`); the
 * certificate files are made (and reused while valid).
 */
export function prepareFirstRun(io: CliIo): FirstRun {
  const vars = readEnvironment(io.cwd, io.env);
  const settings: Record<string, string> = {};
  let newKey: string | undefined;
  if ((vars.EDITION ?? DEFAULTS.EDITION) === 'community' && !vars.SERVICE_API_KEY) {
    newKey = newServiceKey();
    vars.SERVICE_API_KEY = settings.SERVICE_API_KEY = newKey;
  }
  let devCert: string | undefined;
  const proxied = isTrue(vars.TRUST_PROXY);
  if (!vars.TLS_CERT_FILE && !vars.TLS_KEY_FILE && !proxied) {
    const cert = ensureDevCertificate(join(io.cwd, DEV_CERT_DIR));
    if (cert.created) io.stderr.write(`Created a self-signed development certificate for localhost in ${DEV_CERT_DIR}/.\n`);
    vars.TLS_CERT_FILE = cert.certFile;
    vars.TLS_KEY_FILE = cert.keyFile;
    devCert = cert.certFile;
  }
  const port = vars.PORT ?? DEFAULTS.PORT;
  // Port 0 (a free one, in tests) is known only once the server listens: recordFirstRun sets both then.
  if (port !== '0') {
    settings.PORT = port;
    if (!vars.PUBLIC_URL && !proxied) vars.PUBLIC_URL = `https://localhost:${port}`;
  }
  if (vars.PUBLIC_URL) settings.PUBLIC_URL = vars.PUBLIC_URL;
  if (vars.TLS_CERT_FILE) settings.TLS_CERT_FILE = pathFor(io.cwd, vars.TLS_CERT_FILE);
  if (vars.TLS_KEY_FILE) settings.TLS_KEY_FILE = pathFor(io.cwd, vars.TLS_KEY_FILE);
  return { vars, settings, ...(newKey ? { newKey } : {}), ...(devCert ? { devCert } : {}) };
}

/**
 * Writes the first run's settings into `.env` (each one the file does not set yet; all or
 * nothing), with the port the server got, and says what it wrote. Returns the names written.
 */
export function recordFirstRun(io: CliIo, run: FirstRun, port: number): string[] {
  const { SERVICE_API_KEY, PORT, PUBLIC_URL, ...files } = run.settings;
  const local = PORT === undefined && PUBLIC_URL === undefined && !isTrue(run.vars.TRUST_PROXY);
  const settings: Record<string, string | undefined> = {
    SERVICE_API_KEY,
    PORT: PORT ?? String(port),
    PUBLIC_URL: PUBLIC_URL ?? (local ? `https://localhost:${port}` : undefined),
    ...files,
  };
  for (const [name, value] of Object.entries(settings)) if (value === undefined) delete settings[name];
  const before = envFileSettings(io.cwd);
  const written = recordSettings(io.cwd, settings as Record<string, string>);
  if (run.newKey && written.includes('SERVICE_API_KEY')) {
    io.stderr.write(`${Object.keys(before).length === 0 ? 'Created .env with' : 'Added to .env'} a new SERVICE_API_KEY. It is shown only this once; keep it secret:\n\n  ${run.newKey}\n\n`);
  }
  const where = written.filter((name) => name !== 'SERVICE_API_KEY');
  if (where.length > 0) io.stderr.write(`Wrote ${where.join(', ')} to .env: every siteline command run in this directory uses them.\n`);
  return written;
}
