/** docs/import-format.md describes every field an import line may carry: the schema's, and `props`. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importLineSchema, parseImportLine } from '@siteline/core';
import { describe, expect, it } from 'vitest';

const text = readFileSync(fileURLToPath(new URL('../../docs/import-format.md', import.meta.url)), 'utf8');

describe('docs/import-format.md', () => {
  it('has a row for every field of the import line', () => {
    const rows = [...text.matchAll(/^\| (.+?) \| (yes|no|for `\w+`) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`(\w+)`/g)].map((f) => f[1]!));
    expect(rows.sort()).toEqual([...Object.keys(importLineSchema.shape), 'props'].sort());
  });

  it('shows lines the import accepts', () => {
    const example = /```ndjson\n([\s\S]*?)\n```/.exec(text)![1]!.split('\n');
    expect(example.map((line) => parseImportLine(line).ok)).toEqual(example.map(() => true));
  });
});
