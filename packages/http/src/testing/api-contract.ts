/**
 * Test support: every response an HTTP test receives from the read API is
 * checked against the OpenAPI document (`openApiDocument`), with an
 * independent JSON Schema validator (Ajv, draft 2020-12, OpenAPI 3.1's
 * dialect): its status must be documented for the path and method, and its
 * JSON body must match the documented schema. Responses outside the API's
 * base path (the collector, an app's own routes) are left alone. Not exported
 * from the package; tests import it as `@siteline/http/testing`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { HTTP_MESSAGES } from '../errors.js';
import { openApiDocument } from '../openapi/document.js';

const BASE = '/api/v1';
const DOC_ID = 'https://siteline.test/openapi.json';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = openApiDocument(BASE) as Json;
const METHOD_NOT_ALLOWED = JSON.stringify({ error: HTTP_MESSAGES.methodNotAllowed });
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** JSON pointer escaping of one path segment. */
const segment = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

export interface ApiReply {
  method: string;
  /** The request target or full URL. */
  url: string;
  status: number;
  /** Response body text (empty for HEAD). */
  body: string;
  contentType?: string | undefined;
}

/** How many responses were checked (tests assert it grew, so the check cannot silently stop running). */
export let checkedResponses = 0;

/**
 * Throws when `reply` is not a response the OpenAPI document describes.
 * @example checkApiResponse({ method: 'GET', url: '/api/v1/stats?site_id=ST-a', status: 200, body: '{"visitors":1,...}' });
 */
export function checkApiResponse(reply: ApiReply): void {
  const { pathname } = new URL(reply.url, 'https://localhost');
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return;
  const path = pathname.slice(BASE.length);
  const method = reply.method.toLowerCase() === 'head' ? 'get' : reply.method.toLowerCase();
  let pointer: string;
  const item = doc.paths[path] as Json | undefined;
  if (!item) {
    // An unknown path: only the checks that come before routing, or 404.
    const name = { 403: 'HttpsRequired', 404: 'NotFound', 414: 'UriTooLong' }[reply.status];
    if (!name) throw new Error(`${reply.method} ${reply.url}: status ${reply.status} for an undocumented path (expected 403, 404 or 414)`);
    pointer = `#/components/responses/${name}`;
  } else {
    const operation = item[method] as Json | undefined;
    if (!operation) {
      // The document's description (not an operation) says what any other method gets.
      if (reply.status === 405 && reply.body === METHOD_NOT_ALLOWED) return void checkedResponses++;
      throw new Error(`${reply.method} ${reply.url}: expected 405 ${METHOD_NOT_ALLOWED} for a method the document has no operation for, got ${reply.status} ${reply.body.slice(0, 200)}`);
    }
    if (!operation.responses[String(reply.status)]) {
      throw new Error(`${reply.method} ${reply.url}: status ${reply.status} is not documented for ${method.toUpperCase()} ${path}`);
    }
    const response = operation.responses[String(reply.status)] as Json;
    pointer = response.$ref ?? `#/paths/${segment(path)}/${method}/responses/${reply.status}`;
  }
  checkedResponses++;
  if (reply.method.toUpperCase() === 'HEAD' || reply.body === '') return;
  // The media type (without parameters) must be one the response documents; JSON when not told.
  const media = reply.contentType?.split(';', 1)[0]!.trim() ?? 'application/json';
  const content = (resolve(pointer).content ?? {}) as Json;
  if (!content[media]) {
    throw new Error(`${reply.method} ${reply.url}: Content-Type ${reply.contentType}, documented ${Object.keys(content).join(', ')}`);
  }
  const key = `${pointer}/content/${segment(media)}/schema`;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile({ $ref: `${DOC_ID}${key}` })));
  // JSON bodies are checked as values; other media types (CSV) as the text they are.
  const body: unknown = media === 'application/json' ? JSON.parse(reply.body) : reply.body;
  if (!validate(body)) {
    throw new Error(`${reply.method} ${reply.url} ${reply.status}: the body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${reply.body.slice(0, 500)}`);
  }
}

/** The object a `#/...` pointer of the document names. */
function resolve(pointer: string): Json {
  return pointer.slice(2).split('/').reduce<Json>((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

/** Responses `checkedListener` found not to match the document (a test's `afterAll` asserts none). */
export const contractFailures: string[] = [];

/**
 * Wraps a request listener so that every response it sends is checked with
 * `checkApiResponse` on the server side, for tests whose client cannot (an SDK
 * under test, a fetch that hides the raw body). Mismatches go to `contractFailures`.
 * @example https.createServer(tls, checkedListener(createApiHandler(options)));
 */
export function checkedListener<Req extends IncomingMessage, Res extends ServerResponse>(
  listener: (req: Req, res: Res) => unknown,
): (req: Req, res: Res) => unknown {
  return (req, res) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
    };
    const raw = res as unknown as { write: (...args: unknown[]) => unknown; end: (...args: unknown[]) => unknown };
    const write = raw.write.bind(res);
    const end = raw.end.bind(res);
    raw.write = (chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest));
    raw.end = (chunk?: unknown, ...rest: unknown[]) => (keep(chunk), end(chunk, ...rest));
    res.on('finish', () => {
      try {
        const type = res.getHeader('content-type');
        checkApiResponse({ method: req.method ?? 'GET', url: req.url ?? '/', status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), contentType: type === undefined ? undefined : String(type) });
      } catch (error) {
        contractFailures.push((error as Error).message);
      }
    });
    return listener(req, res);
  };
}
