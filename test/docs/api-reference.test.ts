/**
 * docs/api.md against the server: its generated blocks are what the OpenAPI document and a
 * server over the demo data give today, every path, parameter and field of the document is
 * named in it, and every example answer is a body the API's response schemas accept.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type EndpointName, ENDPOINT_PATHS } from '@siteline/core';
import { openApiDocument } from '@siteline/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodies } from '../../packages/http/src/openapi/schemas.js';
import { COMMON, renderApiReference } from '../../scripts/docs/api-reference.js';
import { type DemoServer, startDemoServer } from '../../scripts/docs/demo-server.js';

const file = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
const text = readFileSync(file, 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc = openApiDocument('/api/v1') as any;

/** The part of docs/api.md under `### GET <path>`, up to the next heading of that level or above. */
function section(path: string): string {
  const start = text.indexOf(`\n### GET ${path}\n`);
  expect(start, `docs/api.md has no section "### GET ${path}"`).toBeGreaterThan(0);
  const rest = text.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,3} /);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

describe('docs/api.md, the API reference', () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  }, 60_000);
  afterAll(() => server?.close());

  it('holds exactly what the OpenAPI document and a server over the demo data give (if not: npm run docs:api)', async () => {
    expect(await renderApiReference(text, server)).toBe(text);
  }, 60_000);

  it('has a section for every path of the OpenAPI document, naming each of its parameters and answer fields', () => {
    const common = text.slice(text.indexOf('## Common parameters'), text.indexOf('## Dates'));
    const parameterRow = (name: string) => new RegExp(`\\| \`${name}\` \\| (yes|no) \\|`);
    for (const name of COMMON) expect(common, `common parameter ${name}`).toMatch(parameterRow(name));
    for (const [path, item] of Object.entries(doc.paths as Record<string, { get: { parameters?: { name: string }[] } }>)) {
      const own = section(path);
      for (const { name } of item.get.parameters ?? []) {
        if (!COMMON.includes(name)) expect(own, `${path} parameter ${name}`).toMatch(parameterRow(name));
      }
    }
    // The answer's own fields, and those of its rows (the plain ones; `comparison` is one line of its own).
    for (const [endpoint, path] of Object.entries(ENDPOINT_PATHS) as [EndpointName, string][]) {
      const own = section(path);
      const body = doc.components.schemas[`${endpoint[0]!.toUpperCase()}${endpoint.slice(1)}Response`];
      const refs = [...JSON.stringify(body).matchAll(/#\/components\/schemas\/(\w+)/g)].map((m) => m[1]!).filter((r) => !r.startsWith('Compared'));
      const schemas = [body, ...(body.anyOf ?? []), ...refs.map((r) => doc.components.schemas[r])];
      for (const schema of schemas) {
        for (const field of Object.keys(schema.properties ?? {})) {
          if (field !== 'comparison') expect(own, `${path} field ${field}`).toMatch(new RegExp(`\\| \`([\\w]+(\\[\\])?\\.)?${field}\` \\|`));
        }
      }
    }
  });

  it('shows for every endpoint an example answer that the API\'s response schema accepts', () => {
    for (const [endpoint, path] of Object.entries(ENDPOINT_PATHS) as [EndpointName, string][]) {
      const json = /```json\n([\s\S]*?)\n```/.exec(section(path));
      expect(json, `${path} has an example answer`).not.toBeNull();
      const parsed = bodies[endpoint].safeParse(JSON.parse(json![1]!));
      expect(parsed.success, `${path}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
