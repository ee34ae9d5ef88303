/**
 * The server the documentation's examples are answered by: the demo site as `siteline start`
 * makes it, on a SQLite file, behind the real API handler over HTTPS on loopback, with its
 * clock fixed so that the answers are the same on every run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDemoSite, openSqliteBackend } from '@siteline/core';
import { communityAuthenticator, createApiHandler, ensureDevCertificate, silentLogger } from '@siteline/http';

/** The instant the documented answers were taken at: the demo's data ends here, and "today" is its day. */
export const DOCS_NOW = Date.parse('2026-11-26T14:30:00Z');

export interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

export interface DemoServer {
  get(target: string): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * Starts the server; `close()` stops it and removes its files.
 * @example const server = await startDemoServer(); const { body } = await server.get('/api/v1/stats?site_id=ST-demo');
 */
export async function startDemoServer(): Promise<DemoServer> {
  const dir = mkdtempSync(join(tmpdir(), 'siteline-docs-'));
  const backend = openSqliteBackend(join(dir, 'docs.db'));
  await addDemoSite(backend.storage, { now: DOCS_NOW });
  const key = 'docs-example-key-'.padEnd(64, 'x');
  const handler = createApiHandler({ storage: backend.storage, authenticate: communityAuthenticator(key), rateLimit: false, logger: silentLogger, now: () => DOCS_NOW });
  const cert = ensureDevCertificate(join(dir, 'tls'));
  const ca = readFileSync(cert.certFile);
  const server = https.createServer({ cert: ca, key: readFileSync(cert.keyFile) }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get: (target) =>
      new Promise((resolve, reject) => {
        const headers = { Authorization: `Bearer ${key}` };
        https.get({ host: '127.0.0.1', port, path: target, ca, servername: 'localhost', headers, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
            resolve({ status: res.statusCode!, headers: res.headers as Record<string, string | undefined>, body });
          });
        }).on('error', reject);
      }),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
const isObject = (v: Value): v is { [key: string]: Value } => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A row: an object whose values are plain values or objects of plain values (a row's `comparison`). */
const isRow = (v: Value) => isObject(v) && Object.values(v).every((x) => !Array.isArray(x) && (!isObject(x) || Object.values(x).every((y) => !isObject(y) && !Array.isArray(y))));

function oneLine(v: Value): string {
  if (isObject(v)) return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${oneLine(x)}`).join(', ')}}`;
  if (Array.isArray(v)) return `[${v.map(oneLine).join(', ')}]`;
  return JSON.stringify(v);
}

/** JSON as a reader scans it: a row per line, everything else indented. */
export function readableJson(v: Value, indent = ''): string {
  if (isRow(v) && indent === '' && Object.values(v as object).every((x) => !isObject(x))) return oneLine(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => `${inner}${isRow(x) ? oneLine(x) : readableJson(x, inner)}`).join(',\n')}\n${indent}]`;
  if (isObject(v)) return `{\n${Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${isRow(x) ? oneLine(x) : readableJson(x, inner)}`).join(',\n')}\n${indent}}`;
  return JSON.stringify(v);
}

/** How an answer is shown in the docs: JSON made readable; the export and the document abridged (said so in the text). */
export function formatAnswer(path: string, answer: Answer): { language: string; text: string } {
  if (path === '/export') {
    const lines = answer.body.split('\n');
    return { language: 'ndjson', text: `${lines.slice(0, 2).join('\n')}\n… (${lines.filter(Boolean).length.toLocaleString('en-US')} lines in all)` };
  }
  if (path === '/openapi.json') {
    const doc = JSON.parse(answer.body) as { openapi: string; info: { title: string; version: string }; paths: Record<string, unknown> };
    return {
      language: 'text',
      text: `{"openapi": ${JSON.stringify(doc.openapi)}, "info": {"title": ${JSON.stringify(doc.info.title)}, "version": ${JSON.stringify(doc.info.version)}, …},\n "paths": {${Object.keys(doc.paths).map((p) => JSON.stringify(p)).join(', ')}}, …}`,
    };
  }
  return { language: 'json', text: readableJson(JSON.parse(answer.body) as Value) };
}
