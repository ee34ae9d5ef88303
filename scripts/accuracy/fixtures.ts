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

/** Where the fixtures are looked for, and whether someone named that place (an option or the variable) or it is the default. */
export interface FixturesSource {
  dir: string;
  chosen: boolean;
}

/** `option`, else `$SITELINE_FIXTURES`, else `../shared/fixtures` relative to the repository root (the default). */
export function fixturesSource(option: string | undefined): FixturesSource {
  const given = option ?? (process.env[FIXTURES_ENV] || undefined);
  return { dir: resolve(given ?? join(REPOSITORY_ROOT, '..', 'shared', 'fixtures')), chosen: given !== undefined };
}

/**
 * What `npm run accuracy` says when there is nothing to measure against: where it looked, what
 * it needs and how to pass it. A clone on its own has no fixtures, and that is no failure.
 */
export function noFixturesMessage(dir: string): string {
  return [
    'accuracy: nothing to measure against, so nothing was measured.',
    '',
    'This check compares the derivations (channel, source category, browser, OS, device type, bots)',
    "with other projects' own test data, read at run time and never copied into this repository:",
    "  - peers' fixtures: uap-core-ua.json, uap-core-os.json, source-categories-ga4.json,",
    '    channel-dbt-ga4.json, channel-posthog.json (each a {"meta", "cases"} file, docs/derivations.md);',
    "  - matomo-org/device-detector's Tests/fixtures/*.yml (a checkout of that repository).",
    `It looked for the first in ${dir} (the default: ../shared/fixtures beside the repository).`,
    '',
    'Pass them with:',
    '  npm run accuracy -- --fixtures <dir> [--device-fixtures <device-detector checkout>]',
    `or set ${FIXTURES_ENV} (and SITELINE_DEVICE_FIXTURES).`,
  ].join('\n');
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
        `Put the public fixtures there (docs/derivations.md lists them), or pass --fixtures <dir> or set ${FIXTURES_ENV}.`,
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
