/**
 * Mounting the Siteline read API in a plain `node:https` server next to your
 * own routes: call the handler with a `next` for everything it does not serve.
 *
 * Run: SERVICE_API_KEY=... TLS_CERT_FILE=cert.pem TLS_KEY_FILE=key.pem npx tsx examples/node-https.ts
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createSqliteStorage } from '@siteline/core';
import { communityAuthenticator, createApiHandler } from '@siteline/http';

const storage = createSqliteStorage(process.env.DATABASE_PATH ?? 'siteline.db');
const api = createApiHandler({ storage, authenticate: communityAuthenticator(process.env.SERVICE_API_KEY!) });
const tls = { cert: readFileSync(process.env.TLS_CERT_FILE!), key: readFileSync(process.env.TLS_KEY_FILE!) };

https
  .createServer(tls, (req, res) =>
    api(req, res, () => {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('your own routes here\n');
    }),
  )
  .listen(8443);
