/**
 * Mounting the Siteline read API inside an existing Express app.
 * The handler serves `/api/v1/*` and passes every other request on with
 * `next()`, so it sits in front of your own routes.
 *
 * Run: SERVICE_API_KEY=... TLS_CERT_FILE=cert.pem TLS_KEY_FILE=key.pem npx tsx examples/express-app.ts
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createSqliteStorage, type Storage } from '@siteline/core';
import { communityAuthenticator, createApiHandler } from '@siteline/http';
import express from 'express';

/** Your app, with the analytics API mounted in front of its own routes. */
export function createApp(storage: Storage, serviceKey: string) {
  const app = express();
  const analytics = createApiHandler({ storage, authenticate: communityAuthenticator(serviceKey) });
  app.use((req, res, next) => void analytics(req, res, next));
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const storage = createSqliteStorage(process.env.DATABASE_PATH ?? 'siteline.db');
  const app = createApp(storage, process.env.SERVICE_API_KEY!);
  const tls = { cert: readFileSync(process.env.TLS_CERT_FILE!), key: readFileSync(process.env.TLS_KEY_FILE!) };
  https.createServer(tls, app).listen(8443, () => console.log('https://localhost:8443/api/v1/stats?site_id=...'));
}
