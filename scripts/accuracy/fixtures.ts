/**
 * Where the public fixtures are and how one is read. They stay outside the repository
 * (`../shared/fixtures/` beside it by default): other projects' test data, read at run time,
 * never copied in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variable that overrides the default directory (the `--fixtures` option wins over it). */
export const FIXTURES_ENV = 'SITELINE_FIXTURES';

const REPOSITORY_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `option`, else `$SITELINE_FIXTURES`, else `../shared/fixtures` relative to the repository root. */
export function fixturesDir(option: string | undefined): string {
  const dir = option ?? process.env[FIXTURES_ENV] ?? join(REPOSITORY_ROOT, '..', 'shared', 'fixtures');
  return resolve(dir);
}

/** A fixture file: where it came from (`meta`: repository, commit, licence) and its cases. */
export interface Fixture<Case> {
  meta: { repo: string; commit?: string; licence: string; paths: string };
  cases: Case[];
}

/**
 * Reads `<dir>/<name>`; throws an error that says what is missing and how to point the script
 * elsewhere, rather than a bare ENOENT.
 */
export function readFixture<Case, Extra = object>(dir: string, name: string): Fixture<Case> & Extra {
  if (!existsSync(dir)) {
    throw new Error(
      `fixtures directory not found: ${dir}\n` +
        `Put the public fixtures there (see shared/fixtures/README.md), or pass --fixtures <dir> or set ${FIXTURES_ENV}.`,
    );
  }
  const file = join(dir, name);
  if (!existsSync(file)) throw new Error(`fixture file not found: ${file} (the directory ${dir} exists but lacks it)`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Fixture<Case> & Extra;
  if (!Array.isArray(parsed.cases)) throw new Error(`${file}: expected a "cases" array`);
  return parsed;
}

/** One line naming a fixture's source, printed above its figures. */
export function describeSource(fixture: Fixture<unknown>): string {
  const commit = fixture.meta.commit ? `@${fixture.meta.commit.slice(0, 10)}` : '';
  return `${fixture.meta.repo}${commit} ${fixture.meta.paths} (${fixture.meta.licence})`;
}
