/**
 * The OpenAPI 3.1 document of the read API (query-extensions.md section 5),
 * generated from the zod schemas the server validates requests with (core's
 * `query/schema.ts`) and the response schemas of `schemas.ts`, so it cannot
 * drift from what the server does.
 */
import {
  breakdownSchema,
  compareSchema,
  dateSchema,
  ENDPOINT_OWN_PARAMETERS,
  ENDPOINT_PATHS,
  type EndpointName,
  eventNameSchema,
  filterConditionsSchema,
  formatSchema,
  funnelNameSchema,
  funnelStepsSchema,
  importedSchema,
  intervalSchema,
  limitSchema,
  periodSchema,
  propertySchema,
  requiredEventNameSchema,
  siteIdSchema,
} from '@siteline/core';
import { z } from 'zod';
import { EXPORT_PATH } from '../export-stream.js';
import { bodies, errors, registry } from './schemas.js';

/** Where the document is served, below the API's base path. */
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/** A zod schema as a JSON Schema 2020-12 object (OpenAPI 3.1's dialect) without `$schema`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const idOf = (schema: z.ZodType) => registry.get(schema)!.id;

const SUMMARIES: Record<EndpointName, string> = {
  stats: 'Visitors, pageviews, sessions, bounce rate and average duration',
  timeseries: 'The same counts per day, hour, ISO week or month',
  pages: 'Top pages by pageviews',
  referrers: 'Visitors and sessions per referring host',
  channels: 'Visitors and sessions per marketing channel',
  locations: 'Visitors per country',
  devices: 'Visitors per device type, browser or operating system',
  events: 'Custom events with their count',
  campaigns: 'Sessions with the full UTM source, medium and campaign',
  live: 'Visitors with a pageview in the last 5 minutes',
  properties: 'The property keys of a custom event, or the values of one key',
  goals: 'Every goal of the site with its visitors, conversions and conversion rate',
  funnels: 'Each step of a funnel with its visitors, drop-off and conversion rates',
};

const query = (name: string, schema: Json, description: string, required = false) => ({ name, in: 'query', required, description, schema });

/** The parameters of an endpoint, in the order the server checks them. */
function parameters(endpoint: EndpointName): Json[] {
  const list: Json[] = [query('site_id', jsonSchema(siteIdSchema, 'input'), 'The site, `ST-` followed by letters and digits.', true)];
  if (endpoint === 'live') return list;
  list.push(
    query('from', jsonSchema(dateSchema('from')), 'First day of the range (inclusive, the site\'s time zone); needs `to`.'),
    query('to', jsonSchema(dateSchema('to')), 'Last day of the range (inclusive); needs `from`.'),
    query('period', jsonSchema(periodSchema), 'Today and the days before, when `from`/`to` are not given; default `30d`.'),
    {
      name: 'filters',
      in: 'query',
      required: false,
      description:
        'JSON array of `[operator, dimension, values]` conditions, all of which must hold (docs/api.md, Filters). ' +
        'Session dimensions select sessions by their attributes; `page` selects sessions with a matching pageview and those pageviews; ' +
        '`event` selects sessions with a matching custom event and those events; `prop:<key>` reads a custom event\'s property ' +
        '(`\'\'` when the event lacks it) and selects like `event` (an event passes when every `event` and `prop:` condition holds); ' +
        '`goal` selects sessions by the goals (display names) they convert on. An empty array is no filter.',
      content: {
        'application/json': { schema: jsonSchema(filterConditionsSchema), example: [['is', 'country', ['DE', 'AT']], ['is', 'page', ['/pricing']]] },
      },
    },
    query('compare', jsonSchema(compareSchema), 'Adds `comparison`: the same numbers over the previous period or the same dates a year earlier.'),
    query(
      'imported',
      jsonSchema(importedSchema),
      'Imported daily totals (a Plausible import) count on the days the site has no events of its own, when the filters can be answered ' +
        'from one imported table (default `include`); `exclude` leaves them out. A body of a site with such days in the range says which in `imported`.',
    ),
  );
  for (const own of ENDPOINT_OWN_PARAMETERS[endpoint]) {
    if (own === 'interval') list.push(query('interval', jsonSchema(intervalSchema), 'Bucket size; default `day`. `hour` takes ranges of at most 7 days.'));
    if (own === 'limit') list.push(query('limit', jsonSchema(limitSchema), 'Rows to return; default 20.'));
    if (own === 'breakdown') list.push(query('breakdown', jsonSchema(breakdownSchema), 'Default `device_type`.'));
    if (own === 'name' && endpoint === 'properties') {
      list.push(query('name', jsonSchema(requiredEventNameSchema), 'The custom event whose properties are read.', true));
    } else if (own === 'name') list.push(query('name', jsonSchema(eventNameSchema), 'One event name; all when absent.'));
    if (own === 'property') list.push(query('property', jsonSchema(propertySchema), 'One property key: its values are listed instead of the keys.'));
    if (own === 'funnel') list.push(query('funnel', jsonSchema(funnelNameSchema, 'input'), 'The name of a funnel saved for the site. Exactly one of `funnel` and `steps`.'));
    if (own === 'steps') {
      list.push({
        name: 'steps',
        in: 'query',
        required: false,
        description:
          'JSON array of 2 to 8 steps, each `{"page": <pattern>}` (a pageview whose path matches; `*` matches any run of characters, the whole path must match) ' +
          'or `{"event": <name>}` (a custom event of that name). A session reaches step k when it has events meeting steps 1 to k in the order they were recorded, ' +
          'others between them. Exactly one of `funnel` and `steps`.',
        content: { 'application/json': { schema: jsonSchema(funnelStepsSchema), example: [{ page: '/pricing' }, { page: '/signup' }, { event: 'signup' }] } },
      });
    }
  }
  list.push(query('format', jsonSchema(formatSchema), 'Default `json`. `csv`: the rows as an RFC 4180 CSV file (text/csv), header row of the JSON field names, `comparison` fields as `comparison_<field>`.'));
  return list;
}

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });
const RATE_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per window for this key.', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the window.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window ends.', { type: 'integer' }),
};
const REQUEST_ID = { 'X-Request-Id': header('The request\'s id, also in the server log.', { type: 'string', format: 'uuid' }) };
const errorResponse = (status: keyof typeof errors, description: string, headers: Json = {}) => ({
  description,
  headers: { ...REQUEST_ID, ...headers },
  content: { 'application/json': { schema: ref(idOf(errors[status])) } },
});

const RESPONSES = {
  Unauthorized: errorResponse(401, 'Key missing, invalid or revoked.', { 'WWW-Authenticate': header('`Bearer`.') }),
  HttpsRequired: errorResponse(403, 'The request did not arrive over HTTPS.'),
  NotFound: errorResponse(404, 'The site does not exist or this key may not read it (`Site not found.`); or no such path (`Not Found`).', RATE_HEADERS),
  UriTooLong: errorResponse(414, 'The request target is longer than 8,192 characters.'),
  ValidationError: errorResponse(422, 'A parameter is missing or invalid: the first failing rule; or the server\'s storage cannot answer the query (a feature it lacks).', RATE_HEADERS),
  TooManyRequests: errorResponse(429, 'The key spent its request budget.', { ...RATE_HEADERS, 'Retry-After': header('Seconds to wait.', { type: 'integer' }) }),
  ServerError: errorResponse(500, 'The server failed; the detail is in its log under the request id.'),
};
/** `format=csv`: the rows of the JSON body (`CSV_TABLES`), each record ended by CRLF. */
const CSV_CONTENT = {
  schema: { type: 'string', pattern: '^[^\\r\\n]+\\r\\n', description: 'UTF-8 CSV; sent with `Content-Disposition: attachment; filename="<site>-<endpoint>-<from>-<to>.csv"`.' },
  example: 'url,pageviews,visitors,bounce_rate,avg_duration\r\n/pricing,3,3,50,75\r\n',
};
const use = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });

function operation(endpoint: EndpointName): Json {
  return {
    operationId: endpoint,
    summary: SUMMARIES[endpoint],
    parameters: parameters(endpoint),
    responses: {
      200: {
        description: endpoint === 'live' ? 'The live count.' : 'The report; with `comparison` exactly when `compare` was given.',
        headers: {
          ...REQUEST_ID,
          ...RATE_HEADERS,
          ...(endpoint === 'live' ? {} : { 'Content-Disposition': header('With `format=csv` only: `attachment; filename="<site>-<endpoint>-<from>-<to>.csv"`.') }),
        },
        content: {
          'application/json': { schema: ref(idOf(bodies[endpoint])) },
          ...(endpoint === 'live' ? {} : { 'text/csv': CSV_CONTENT }),
        },
      },
      ...errorResponses(),
    },
  };
}

/** The error answers every read (report or export) can give, all JSON. */
function errorResponses(): Json {
  return {
    401: use('Unauthorized'),
    403: use('HttpsRequired'),
    404: use('NotFound'),
    414: use('UriTooLong'),
    422: use('ValidationError'),
    429: use('TooManyRequests'),
    500: use('ServerError'),
  };
}

/** `GET /export` (issue 27): the raw events of a range in the import format. */
function exportOperation(): Json {
  return {
    operationId: 'exportEvents',
    summary: 'The site\'s raw events of the range as NDJSON, in the import format',
    description:
      'One JSON object a line, in time order: the import format (docs/import-format.md) with the stored visitor and session ids, ' +
      'path, referrer source (as `https://<source>/`), UTM fields, country, device, browser and OS, and a custom event\'s `props` (its stored values, as strings). ' +
      'Importing it into an empty store with the same site (and the same goals) gives the same reports. ' +
      'Streamed (chunked); an error after the first byte cuts the transfer off.',
    parameters: parameters('stats').filter((p) => ['site_id', 'from', 'to', 'period'].includes(p.name as string)),
    responses: {
      200: {
        description: 'The events, one import line each.',
        headers: { ...REQUEST_ID, ...RATE_HEADERS, 'Content-Disposition': header('`attachment; filename="<site>-export-<from>-<to>.ndjson"`.') },
        content: {
          'application/x-ndjson': {
            schema: { type: 'string', pattern: '^(?:\\{[^\\n]*\\}\\n)*$', description: 'UTF-8 NDJSON, every line ended by LF.' },
            example: '{"site_id":"ST-demo","ts":"2026-11-02T10:00:00.000Z","type":"pageview","url":"/","visitor_id":"v1","session_id":"s1","utm_source":"","utm_medium":"","utm_campaign":"","country_code":"DE","device_type":"Desktop","browser":"Firefox","os":"Linux"}\n',
          },
        },
      },
      ...errorResponses(),
    },
  };
}

/** Every schema of `registry` under `components/schemas`, referring to each other by `$ref`. */
function componentSchemas(): Json {
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
}

const documents = new Map<string, Json>();

/**
 * The OpenAPI 3.1 document for an API mounted at `basePath` (e.g. `/api/v1`).
 * Built once per base path.
 * @example const doc = openApiDocument('/api/v1'); // doc.paths['/stats'].get.parameters ...
 */
export function openApiDocument(basePath: string): Json {
  let doc = documents.get(basePath);
  if (doc) return doc;
  const paths: Json = {};
  for (const [endpoint, path] of Object.entries(ENDPOINT_PATHS) as [EndpointName, string][]) {
    paths[path] = { get: operation(endpoint) };
  }
  paths[EXPORT_PATH] = { get: exportOperation() };
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      security: [],
      responses: {
        200: { description: 'The OpenAPI 3.1 document.', headers: REQUEST_ID, content: { 'application/json': { schema: { type: 'object' } } } },
        403: use('HttpsRequired'),
        414: use('UriTooLong'),
        500: use('ServerError'),
      },
    },
  };
  doc = {
    openapi: '3.1.0',
    info: {
      title: 'Siteline read API',
      version: '1.0.0',
      description:
        'Read-only web analytics. HTTPS only; every endpoint but this document needs a key (`Authorization: Bearer <key>` or `api_key=`). ' +
        'The API is read-only: every path answers GET and HEAD (HEAD: the same status and headers, no body). ' +
        'Any other method on these paths gets 405 with `Allow: GET, HEAD` and the body `{"error":"Method Not Allowed"}`, before the key is checked. ' +
        'An unknown path gets 404 `Not Found` (components.responses.NotFound).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: basePath }],
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token (recommended).' },
        apiKey: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The API key as a query parameter (it then appears in access logs).' },
      },
      schemas: componentSchemas(),
      responses: RESPONSES,
    },
  };
  documents.set(basePath, doc);
  return doc;
}
