/**
 * `npm run docs:api`: refreshes the generated blocks of docs/api.md (parameters and fields
 * from the OpenAPI document, errors and limits from their definitions, the example answers
 * from a server over the demo data). `-- --check` only compares, exiting 1 when the file is
 * out of date (test/docs/api-reference.test.ts does the same in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderApiReference } from './docs/api-reference.js';
import { startDemoServer } from './docs/demo-server.js';

const file = fileURLToPath(new URL('../docs/api.md', import.meta.url));
const check = process.argv.includes('--check');
const server = await startDemoServer();
try {
  const before = readFileSync(file, 'utf8');
  const after = await renderApiReference(before, server);
  if (after === before) console.log('docs/api.md is up to date.');
  else if (check) {
    console.error('docs/api.md differs from the OpenAPI document or the demo answers: run npm run docs:api');
    process.exitCode = 1;
  } else {
    writeFileSync(file, after);
    console.log('docs/api.md: generated blocks refreshed.');
  }
} finally {
  await server.close();
}
