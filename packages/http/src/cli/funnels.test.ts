import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { FUNNEL_MESSAGES } from '@siteline/core';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP } from './help.js';
import { runCli } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-funnels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Runs the command in-process against `dir`, with its own database. */
async function cli(args: string[]) {
  const stdout = new Collect();
  const stderr = new Collect();
  const code = await runCli(args, { cwd: dir, env: { DATABASE_PATH: join(dir, 'funnels.db') }, stdin: Readable.from(['']), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('siteline funnels', () => {
  it('add (steps in order, a step twice), list, delete; usage errors exit 2, refused funnels 1', async () => {
    await cli(['sites', 'add', '--name', 'Funnels', '--id', 'ST-f']);
    expect(await cli(['funnels', 'list', '--site', 'ST-f'])).toEqual({
      code: 0, stdout: 'ST-f has no funnels yet. Add one with: siteline funnels add --site ST-f --name <name> --step page:/pricing --step event:signup\n', stderr: '',
    });
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'Pricing to signup', '--step', 'page:/pricing', '--step', 'page:/signup', '--step', 'event:signup'])).toEqual({
      code: 0, stdout: 'Added funnel "Pricing to signup" to ST-f: Visit /pricing > Visit /signup > signup.\n', stderr: '',
    });
    // A value may hold colons; the same step may come twice.
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'Again', '--step', 'page:/a', '--step', 'event:a:b', '--step', 'page:/a'])).toMatchObject({
      code: 0, stdout: 'Added funnel "Again" to ST-f: Visit /a > a:b > Visit /a.\n',
    });
    expect((await cli(['funnels', 'list', '--site', 'ST-f'])).stdout).toMatch(
      /^FUNNEL +STEPS +CREATED\nAgain +Visit \/a > a:b > Visit \/a +\d{4}-\d\d-\d\d\nPricing to signup +Visit \/pricing > Visit \/signup > signup +\d{4}-\d\d-\d\d\n$/,
    );
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'Again', '--step', 'page:/a', '--step', 'page:/b'])).toEqual({
      code: 1, stdout: '', stderr: `siteline: ${FUNNEL_MESSAGES.taken('Again')}\n`,
    });
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'One', '--step', 'page:/a'])).toEqual({ code: 1, stdout: '', stderr: `siteline: ${FUNNEL_MESSAGES.steps}\n` });
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'Empty', '--step', 'page:', '--step', 'event:x'])).toEqual({ code: 1, stdout: '', stderr: `siteline: ${FUNNEL_MESSAGES.step}\n` });
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--name', 'Bad', '--step', '/pricing', '--step', 'event:x'])).toMatchObject({
      code: 2, stderr: expect.stringContaining('--step takes page:<pattern> or event:<name>, got "/pricing".'),
    });
    expect(await cli(['funnels', 'add', '--site', 'ST-f', '--step', 'page:/a', '--step', 'page:/b'])).toMatchObject({ code: 2, stderr: expect.stringContaining('funnels add needs --name <name>.') });
    expect(await cli(['funnels', 'list'])).toMatchObject({ code: 2, stderr: expect.stringContaining('funnels list needs --site <id>.') });
    expect(await cli(['funnels', 'delete', '--site', 'ST-f'])).toMatchObject({ code: 2, stderr: expect.stringContaining('funnels delete needs --name') });
    expect(await cli(['funnels', 'rename', '--site', 'ST-f'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown subcommand "funnels rename"') });
    expect(await cli(['funnels', 'delete', '--site', 'ST-f', '--name', 'Again'])).toEqual({ code: 0, stdout: 'Deleted funnel "Again" of ST-f.\n', stderr: '' });
    expect(await cli(['funnels', 'delete', '--site', 'ST-f', '--name', 'Again'])).toEqual({ code: 1, stdout: '', stderr: `siteline: ${FUNNEL_MESSAGES.missing('Again')}\n` });
    expect((await cli(['funnels', 'list', '--site', 'ST-f'])).stdout).not.toContain('Again');
    expect(await cli(['funnels', 'list', '--site', 'ST-none'])).toEqual({ code: 1, stdout: '', stderr: 'siteline: No site ST-none; list them with: siteline sites list\n' });
    expect(await cli(['funnels', '--help'])).toMatchObject({ code: 0, stdout: `${HELP.funnels}\n` });
    expect((await cli(['--help'])).stdout).toContain('funnels add|list|delete --site <id>');
  });
});
