/**
 * @siteline/http: the Siteline read API (`/api/v1`) as a `node:http` /
 * `node:https` request listener, plus the standalone server and the
 * `siteline` command.
 *
 * @example
 * import https from 'node:https';
 * import { openSqliteBackend } from '@siteline/core';
 * import { createApiHandler, communityAuthenticator } from '@siteline/http';
 * const backend = openSqliteBackend('siteline.db');
 * const handler = createApiHandler({ storage: backend.storage, authenticate: communityAuthenticator(key) });
 * https.createServer({ key: tlsKey, cert: tlsCert }, handler).listen(8443);
 */
export { createApiHandler, type ApiHandler, type ApiHandlerOptions, MAX_URL_LENGTH } from './handler.js';
export { communityAuthenticator, communityKeyTag, cloudAuthenticator, presentedKey, type Authenticator, type Principal, MAX_KEY_LENGTH } from './auth.js';
export { HttpError, HTTP_MESSAGES } from './errors.js';
export { openApiDocument, OPENAPI_PATH } from './openapi/document.js';
export { RateLimiter, type RateLimitOptions, type RateLimitResult } from './rate-limit.js';
export { DEFAULT_AUTH_FAILURE_LIMIT, type AuthFailureLimit } from './auth-failures.js';
export { jsonLogger, silentLogger, redactUrl, type Logger, type LogEntry } from './log.js';
export * from './collect/index.js';
export * from './dashboard/index.js';
export { startServer, runServer, authenticatorFor, type RunningServer, type StartServerOptions } from './server.js';
export { loadConfig, parseConfig, databaseLocation, ConfigError, DEFAULTS, type ServerConfig } from './config.js';
export type { ServerLimits } from './server-limits.js';
export { openBackend, type OpenBackendOptions } from './backend.js';
export { parseDatabaseUrl, describeLocation, redactDatabaseUrl, type DatabaseLocation } from './database-url.js';
export { ensureDevCertificate, DEV_CERT_DIR, type DevCertificate } from './dev-cert.js';
