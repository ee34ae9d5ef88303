/** docs/tracker.md quotes what the server and the dashboard say, not a copy that can drift. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COLLECT_MESSAGES, trackerSnippet } from '@siteline/http';
import { describe, expect, it } from 'vitest';

const text = readFileSync(fileURLToPath(new URL('../../docs/tracker.md', import.meta.url)), 'utf8');

describe('docs/tracker.md', () => {
  it('lists every answer a malformed beacon can get, as the server words it', () => {
    for (const message of new Set(Object.values(COLLECT_MESSAGES))) expect(text).toContain(`- \`${message}\``);
  });

  it('shows the snippet the Sites page gives', () => {
    expect(text).toContain(trackerSnippet('https://stats.example.com/tracker.js', 'ST-xxxxxxxxxxxx'));
  });
});
