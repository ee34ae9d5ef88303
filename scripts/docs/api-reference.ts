/**
 * The generated parts of docs/api.md: each endpoint's parameters and answer fields read from
 * the OpenAPI document the server serves, the errors and limits from the definitions the
 * server uses, and one example per endpoint whose answer is the real answer of a server over
 * the demo data. The prose around them is written by hand; `npm run docs:api` refreshes the
 * generated blocks and test/docs/api-reference.test.ts fails when the file differs from them.
 *
 * A block is `<!-- generated: <name> -->` ... `<!-- end generated -->`; every path of the
 * document needs its `endpoint <path>` block, and an unknown name is an error.
 */
import {
  DEFAULT_LIMIT,
  LIVE_WINDOW_MS,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_VALUE_LENGTH,
  MAX_FILTER_VALUES,
  MAX_FUNNEL_NAME_LENGTH,
  MAX_FUNNEL_STEPS,
  MAX_FUNNELS,
  MIN_FUNNEL_STEPS,
  MAX_GOAL_PATTERN_LENGTH,
  MAX_GOALS,
  MAX_HOUR_RANGE_DAYS,
  MAX_LIMIT,
  MAX_PROPERTIES,
  MAX_PROPERTY_KEY_LENGTH,
  MAX_PROPERTY_VALUE_LENGTH,
  MAX_RANGE_DAYS,
} from '@siteline/core';
import { DEFAULT_AUTH_FAILURE_LIMIT, DEFAULTS, MAX_URL_LENGTH, openApiDocument } from '@siteline/http';
// Not exported by the package (its users never need it), read from its one definition.
import { MAX_EVENT_NAME_LENGTH } from '../../packages/core/src/query/messages.js';
import { type DemoServer, formatAnswer } from './demo-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = '/api/v1';
/** The parameters most endpoints share, described once under "Common parameters". */
export const COMMON = ['site_id', 'from', 'to', 'period', 'filters', 'compare', 'imported', 'format'];

/** The one example request of each path (its query), as a reader would send it to the demo site. */
export const EXAMPLES: Record<string, string> = {
  '/stats': 'site_id=ST-demo&period=7d',
  '/stats/timeseries': 'site_id=ST-demo&period=7d',
  '/pages': 'site_id=ST-demo&period=7d&limit=3',
  '/referrers': 'site_id=ST-demo&period=7d&filters=[["is","channel",["Social"]]]',
  '/channels': 'site_id=ST-demo&period=7d',
  '/locations': 'site_id=ST-demo&period=7d&filters=[["is","country",["DE","AT","CH"]]]',
  '/devices': 'site_id=ST-demo&period=7d&breakdown=browser',
  '/events': 'site_id=ST-demo&period=7d',
  '/campaigns': 'site_id=ST-demo&period=7d&filters=[["is","utm_medium",["email"]]]',
  '/live': 'site_id=ST-demo',
  '/properties': 'site_id=ST-demo&period=7d&name=signup&property=plan',
  '/goals': 'site_id=ST-demo&period=7d&compare=previous_period',
  '/funnels': 'site_id=ST-demo&period=30d&funnel=Pricing to signup',
  '/export': 'site_id=ST-demo&period=1d',
  '/openapi.json': '',
};

/** A CSV example for the Formats section. */
const CSV_EXAMPLE = 'site_id=ST-demo&period=7d&limit=3&format=csv';

const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** What a parameter's schema accepts, in a few words. */
function accepts(name: string, schema: Json | undefined): string {
  if (name === 'filters') return `JSON, at most ${MAX_FILTER_CONDITIONS} conditions (see Filters)`;
  if (name === 'steps') return `JSON, ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps (see Funnels)`;
  if (!schema) return '';
  if (schema.enum) return (schema.enum as string[]).map(code).join(', ');
  if (schema.format === 'date') return '`YYYY-MM-DD`';
  if (schema.pattern === '^ST-[A-Za-z0-9]+$') return `\`ST-\` and letters or digits, at most ${schema.maxLength} characters`;
  if (schema.type === 'integer' || schema.type === 'number') return `${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'string' && schema.maxLength !== undefined) return `${schema.minLength ?? 0} to ${schema.maxLength} characters`;
  return schema.type ?? '';
}

function parameterTable(parameters: Json[]): string {
  const rows = parameters.map((p) => `| ${code(p.name)} | ${p.required ? 'yes' : 'no'} | ${accepts(p.name, p.schema)} | ${cell(p.description ?? '')} |`);
  return ['| parameter | required | accepts | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** Follows a `$ref` into the document's component schemas. */
const resolve = (doc: Json, schema: Json): Json => (schema.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);

function typeOf(doc: Json, schema: Json): string {
  const s = resolve(doc, schema);
  if (s.enum) return 'string';
  if (s.type === 'array') return `array of ${s.items.$ref ? String(s.items.$ref).split('/').pop() : typeOf(doc, s.items)}`;
  if (s.format === 'date') return 'string (date)';
  if (Array.isArray(s.type)) return (s.type as string[]).join(' or ');
  return s.type ?? 'object';
}

/** Rows of `field | type | meaning` for an object schema, rows of arrays of objects spelled `list[].field`, of objects `object.field`. */
function fieldRows(doc: Json, schema: Json, prefix = ''): string[] {
  const object = resolve(doc, schema);
  const rows: string[] = [];
  for (const [name, raw] of Object.entries(object.properties as Record<string, Json>)) {
    const field = resolve(doc, raw);
    const path = `${prefix}${name}`;
    const rowsBelow = field.type === 'array' && resolve(doc, field.items).properties ? 'One row each, with the fields below.' : '';
    rows.push(`| ${code(path)} | ${typeOf(doc, raw)} | ${cell(field.description ?? raw.description ?? rowsBelow)} |`);
    if (field.type === 'array' && resolve(doc, field.items).properties) rows.push(...fieldRows(doc, field.items, `${path}[].`));
    // An object field with fields of its own (`imported`): each of them, as `imported.included`.
    else if (field.type === 'object' && field.properties && name !== 'comparison') rows.push(...fieldRows(doc, raw, `${path}.`));
  }
  return rows;
}

/** The names a `comparison` holds in the compared body (the body's own, its rows', or both), or undefined when the endpoint has none. */
function comparisonLine(doc: Json, variants: Json[]): string | undefined {
  for (const variant of variants) {
    const props = variant.properties as Record<string, Json>;
    const lines: string[] = [];
    if (props.comparison) {
      const c = resolve(doc, props.comparison.type === 'array' ? props.comparison.items : props.comparison);
      const where = props.comparison.type === 'array' ? 'the rows of the compared range, with the same fields' : `${Object.keys(c.properties).map(code).join(', ')} of the compared range`;
      lines.push(`With \`compare\`, the answer also has \`comparison\`: ${where}.`);
    }
    for (const [list, value] of Object.entries(props)) {
      const row = value.type === 'array' ? resolve(doc, value.items) : undefined;
      const comparison = row?.properties?.comparison;
      if (!comparison) continue;
      lines.push(lines.length > 0
        ? `Each row of \`${list}\` also has \`comparison\`: ${Object.keys(comparison.properties).map(code).join(', ')} of the same row in the compared range.`
        : `With \`compare\`, each row of \`${list}\` also has \`comparison\`: ${Object.keys(comparison.properties).map(code).join(', ')} of the same row in the compared range (zeros where it has no data).`);
    }
    if (lines.length > 0) return lines.join(' ');
  }
  return undefined;
}

/** The `curl` line of a request to the reader's own server, every parameter URL-encoded. */
export function curlLine(path: string, query: string): string {
  const params = [...new URLSearchParams(query)];
  const start = `curl -G --cacert "$TLS_CERT_FILE" -H "Authorization: Bearer $SERVICE_API_KEY" "$PUBLIC_URL${BASE}${path}"`;
  return [start, ...params.map(([k, v]) => `  --data-urlencode '${k}=${v}'`)].join(' \\\n');
}

async function exampleBlock(server: DemoServer, path: string, query: string): Promise<string> {
  const answer = await server.get(`${BASE}${path}${query ? `?${new URLSearchParams(query)}` : ''}`);
  if (answer.status !== 200) throw new Error(`The example of ${path} answered ${answer.status}: ${answer.body}`);
  const shown = formatAnswer(path, answer);
  const request = path === '/openapi.json' ? `curl --cacert "$TLS_CERT_FILE" "$PUBLIC_URL${BASE}/openapi.json"` : curlLine(path, query);
  return ['```sh', request, '```', '', `\`\`\`${shown.language}`, shown.text, '```'].join('\n');
}

async function endpointBlock(doc: Json, server: DemoServer, path: string): Promise<string> {
  const op = doc.paths[path].get as Json;
  const params = (op.parameters ?? []) as Json[];
  const names = params.map((p) => p.name as string);
  const commons = COMMON.filter((n) => names.includes(n));
  const own = params.filter((p) => !COMMON.includes(p.name));
  const parts: string[] = [];
  if (path !== '/openapi.json') {
    parts.push(`${op.summary}.`);
    const which = commons.length === COMMON.length ? 'all the common parameters' : `of the common parameters ${commons.map(code).join(', ')} only`;
    parts.push(own.length === 0 ? `Takes ${which}.` : `Takes ${which}, and:\n\n${parameterTable(own)}`);
  } else {
    parts.push('No key needed.');
  }
  const json = op.responses['200'].content['application/json'];
  if (json && path !== '/openapi.json') {
    const body = resolve(doc, json.schema);
    const raw = (body.anyOf ?? [body]) as Json[];
    const variants = raw.map((v) => resolve(doc, v));
    // The plain answers (no `comparison`); /properties has one with `property` and one without.
    const plain = variants.filter((v, i) => !v.properties.comparison && !JSON.stringify(raw[i]).includes('Compared') && !JSON.stringify(v).includes('Compared'));
    const seen = new Set<string>();
    const rows = plain.flatMap((v) => fieldRows(doc, v)).filter((r) => (seen.has(r) ? false : (seen.add(r), true)));
    parts.push(['| field | type | meaning |', '|---|---|---|', ...rows].join('\n'));
    const compared = comparisonLine(doc, variants);
    if (compared) parts.push(compared);
  }
  parts.push(await exampleBlock(server, path, EXAMPLES[path]!));
  return parts.join('\n\n');
}

function commonBlock(doc: Json): string {
  const params = (doc.paths['/stats'].get.parameters as Json[]).filter((p) => COMMON.includes(p.name));
  return parameterTable(params);
}

function errorsBlock(doc: Json): string {
  const statuses = [401, 403, 404, 405, 414, 422, 429, 500];
  const responses = doc.paths['/stats'].get.responses as Record<string, Json>;
  const byStatus: Record<number, Json> = {};
  for (const status of statuses) {
    if (status === 405) continue; // not an operation's answer: the document says it once, in info.description
    const response = doc.components.responses[String(responses[status]!.$ref).split('/').pop()!] as Json;
    const error = resolve(doc, response.content['application/json'].schema).properties.error as Json;
    byStatus[status] = { response, messages: error.const !== undefined ? [error.const] : (error.enum as string[]) };
  }
  const rows = statuses.map((status) => {
    if (status === 405) return '| 405 | Any method but GET or HEAD, on a path that exists. | `{"error":"Method Not Allowed"}` | `Allow` |';
    const { response, messages } = byStatus[status]!;
    const shown = status === 422 ? 'one of the messages below' : messages.map((m: string) => code(`{"error":"${m}"}`)).join(' or ');
    const headers = Object.keys(response.headers ?? {}).filter((h) => h !== 'X-Request-Id').map(code).join(', ');
    return `| ${status} | ${cell(response.description)} | ${shown} | ${headers || '-'} |`;
  });
  const validation = (byStatus[422]!.messages as string[]).map((m) => `- ${code(m)}`);
  return [
    '| status | when | body | headers besides `X-Request-Id` |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Every 422 message (the rules are checked in the order `site_id`, `from`/`to`, `period`, `filters`, `compare`, `interval`, the endpoint\'s own parameters, `format`; the first that fails is the answer):',
    '',
    ...validation,
  ].join('\n');
}

function limitsBlock(): string {
  const rows: [string, string][] = [
    ['Longest range (`from` to `to`)', `${MAX_RANGE_DAYS.toLocaleString('en-US')} days`],
    ['`interval=hour`', `ranges of at most ${MAX_HOUR_RANGE_DAYS} days`],
    ['`limit` (`/pages`, `/properties`)', `default ${DEFAULT_LIMIT}, 1 to ${MAX_LIMIT}`],
    ['`filters`', `at most ${MAX_FILTER_CONDITIONS} conditions, each with 1 to ${MAX_FILTER_VALUES} values of at most ${MAX_FILTER_VALUE_LENGTH} characters`],
    ['`name` (an event name)', `1 to ${MAX_EVENT_NAME_LENGTH} characters`],
    ['`property`, and a `prop:` filter\'s key', `1 to ${MAX_PROPERTY_KEY_LENGTH} characters`],
    ['A custom event\'s `props` (recorded)', `at most ${MAX_PROPERTIES} entries; values of at most ${MAX_PROPERTY_VALUE_LENGTH.toLocaleString('en-US')} characters`],
    ['Goals of a site', `at most ${MAX_GOALS}; a page pattern of 1 to ${MAX_GOAL_PATTERN_LENGTH} characters`],
    ['Funnels of a site', `at most ${MAX_FUNNELS}; a name of 1 to ${MAX_FUNNEL_NAME_LENGTH} characters; ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps (also \`steps\`)`],
    ['`/live` window', `the last ${LIVE_WINDOW_MS / 60_000} minutes; poll it at most every 30 seconds`],
    ['Request target (path and query)', `${MAX_URL_LENGTH.toLocaleString('en-US')} characters (414 beyond)`],
    ['Requests per key', `${DEFAULTS.RATE_LIMIT_PER_MINUTE} in any 60 seconds (\`RATE_LIMIT_PER_MINUTE\`)`],
    ['Wrong or missing keys per client address', `${DEFAULT_AUTH_FAILURE_LIMIT.limit} a minute, then 429 (\`AUTH_FAILURES_PER_MINUTE_PER_IP\`)`],
  ];
  return ['| limit | value |', '|---|---|', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
}

async function csvBlock(server: DemoServer): Promise<string> {
  const answer = await server.get(`${BASE}/pages?${new URLSearchParams(CSV_EXAMPLE)}`);
  if (answer.status !== 200) throw new Error(`The CSV example answered ${answer.status}`);
  return ['```sh', `${curlLine('/pages', CSV_EXAMPLE)} \\\n  -OJ`, '```', '', `Saves \`${/filename="([^"]+)"/.exec(answer.headers['content-disposition'] ?? '')?.[1]}\`:`, '', '```csv', answer.body.replaceAll('\r\n', '\n').trimEnd(), '```'].join('\n');
}

const BLOCK = /<!-- generated: ([^>]+?) -->\n[\s\S]*?<!-- end generated -->/g;

/**
 * docs/api.md with every generated block filled in from the OpenAPI document and the demo
 * server. Throws when a path of the document has no block or a block names nothing known.
 * @example const text = await renderApiReference(readFileSync('docs/api.md', 'utf8'), server);
 */
export async function renderApiReference(template: string, server: DemoServer): Promise<string> {
  const doc = openApiDocument(BASE) as Json;
  const names = [...template.matchAll(BLOCK)].map((m) => m[1]!);
  const missing = Object.keys(doc.paths).filter((path) => !names.includes(`endpoint ${path}`));
  if (missing.length > 0) throw new Error(`docs/api.md has no generated block for ${missing.join(', ')}: add <!-- generated: endpoint <path> --><!-- end generated -->`);
  const blocks = new Map<string, string>();
  for (const name of names) {
    if (name.startsWith('endpoint ')) {
      const path = name.slice('endpoint '.length);
      if (!doc.paths[path]) throw new Error(`docs/api.md has a block for ${path}, which the OpenAPI document does not have.`);
      blocks.set(name, await endpointBlock(doc, server, path));
    } else if (name === 'common parameters') blocks.set(name, commonBlock(doc));
    else if (name === 'errors') blocks.set(name, errorsBlock(doc));
    else if (name === 'limits') blocks.set(name, limitsBlock());
    else if (name === 'csv example') blocks.set(name, await csvBlock(server));
    else throw new Error(`docs/api.md names an unknown generated block "${name}".`);
  }
  return template.replace(BLOCK, (_, name: string) => `<!-- generated: ${name} -->\n${blocks.get(name)}\n<!-- end generated -->`);
}
