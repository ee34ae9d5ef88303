/**
 * Reading bounded bodies and writing the collector's responses. Every response carries
 * `Access-Control-Allow-Origin: *`: the tracker posts from other origins, and a developer
 * debugging with `fetch` should be able to read the error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** CORS headers of every collector response. */
export const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*' } as const;

/** Answer to `OPTIONS /collect` (only sent by clients that post `application/json`). */
export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
} as const;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'tooLarge' | 'aborted' };

/**
 * The request body as UTF-8 text; `tooLarge` as soon as more than `limit` bytes are
 * declared or received (the rest is not read); `aborted` when the client went away.
 * @example const body = await readBody(req, 8192);
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve({ ok: false, reason: 'tooLarge' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        resolve({ ok: false, reason: 'tooLarge' });
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    };
    const onError = () => {
      cleanup();
      resolve({ ok: false, reason: 'aborted' });
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * Sends a JSON body (or none, for 202/204) with the collector's headers.
 * @example sendJson(res, 400, { error: 'The body must be a JSON object.' })
 */
export function sendJson(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): number {
  if (res.headersSent) return status;
  const json = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS_HEADERS,
    ...headers,
    ...(json ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(json)),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(json);
  return status;
}

/** The headers of a 202 without a body, as the raw `[name, value, ...]` list `writeHead` takes without walking an object. */
const ACCEPTED_HEADERS = [
  'Access-Control-Allow-Origin', '*', 'Cache-Control', 'no-store', 'Content-Length', '0', 'X-Content-Type-Options', 'nosniff',
];

/**
 * Answers 202 with no body and the collector's headers (`sendJson(res, 202)`, once per stored beacon, so made once).
 * @example sendAccepted(res)
 */
export function sendAccepted(res: ServerResponse): number {
  if (res.headersSent) return 202;
  res.writeHead(202, ACCEPTED_HEADERS);
  res.end();
  return 202;
}

/**
 * Whether a `/collect` body type is one the collector reads: `text/plain` (what
 * `sendBeacon` with a string or text Blob sends, no preflight), `application/json`, or none.
 * @example acceptedContentType('text/plain;charset=UTF-8') // true
 */
export function acceptedContentType(header: string | undefined): boolean {
  if (header === undefined || header === '') return true;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'text/plain' || type === 'application/json';
}
