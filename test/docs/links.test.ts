/**
 * A clone is all a reader has: every relative link in every tracked Markdown file must lead
 * to a file or folder inside the repository (and to a heading that exists, when it names
 * one), and no page may point at the workspace around it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pages = execFileSync('git', ['ls-files', '*.md', '**/*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** The text a reader sees as prose: fenced code blocks and inline code removed (a link there is an example). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target: inline `[text](target)` and `![alt](target)`, and reference definitions `[name]: target`. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

describe('links in the repository\'s Markdown', () => {
  it('finds the tracked pages (README, docs/, the package READMEs)', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/tracker.md', 'docs/import-format.md', 'packages/http/README.md']));
  });

  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('See [a](docs/a.md#x), ![img](p.png "t"), `[no](code.md)`\n\n```\n[no](block.md)\n```\n[ref]: ../b.md\n')).toEqual(['docs/a.md#x', 'p.png', '../b.md']);
    expect([...anchorsOf('# CSV (`format=csv`)\n## Keys and HTTPS\n## Keys and HTTPS\n### GET /stats/timeseries\n')]).toEqual([
      'csv-formatcsv', 'keys-and-https', 'keys-and-https-1', 'get-statstimeseries',
    ]);
  });

  it.each(pages)('%s: every relative link resolves inside the repository, to a heading that exists', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const problems: string[] = [];
    for (const target of linkTargets(text)) {
      if (external(target)) continue;
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = pathPart === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(pathPart));
      if (pathPart.startsWith('/') || relative(ROOT, file).startsWith('..')) {
        problems.push(`${target}: outside the repository`);
        continue;
      }
      if (!existsSync(file)) {
        problems.push(`${target}: no such file`);
        continue;
      }
      if (anchor && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        problems.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(pages)('%s: names no place outside the clone (the shared workspace, one machine\'s paths)', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    expect(text.match(/(\.\.\/)*shared\/spec|\/work\/[\w.-]+|\/home\/\w+|\/Users\/\w+/g) ?? []).toEqual([]);
  });
});
