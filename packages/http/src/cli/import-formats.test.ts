import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { GA4_EXPORT, PLAUSIBLE_EXPORT, storedZip, UMAMI_EVENTS } from '@siteline/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './main.js';
import { progressLine } from './progress.js';

const dir = mkdtempSync(join(tmpdir(), 'siteline-cli-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Collect extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Runs the command in-process against `dir`, with its own database. */
async function cli(args: string[]) {
  const stdout = new Collect();
  const stderr = new Collect();
  const code = await runCli(args, { cwd: dir, env: { DATABASE_PATH: join(dir, 'formats.db') }, stdin: Readable.from(['']), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('siteline import --from plausible|umami|ga4, import list, import delete', () => {
  it('imports a Plausible export, says what it left out and which days count natively, lists it, refuses it again and deletes it', async () => {
    expect((await cli(['sites', 'add', '--name', 'Plaus', '--id', 'ST-plaus', '--timezone', 'UTC'])).code).toBe(0);
    writeFileSync(join(dir, 'native.ndjson'), `${JSON.stringify({ site_id: 'ST-plaus', ts: '2026-03-03T10:00:00Z', type: 'pageview', url: '/' })}\n`);
    expect((await cli(['import', 'native.ndjson'])).code).toBe(0);
    writeFileSync(join(dir, 'plausible.zip'), storedZip(PLAUSIBLE_EXPORT));
    const done = await cli(['import', '--from', 'plausible', 'plausible.zip', '--site', 'ST-plaus']);
    const id = /import (imp_[a-z0-9]{16})\./.exec(done.stdout)?.[1];
    expect(done).toEqual({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(new RegExp(
        '^Imported 36 rows of daily totals over 3 days \\(2026-03-01 to 2026-03-03\\) into ST-plaus from 39 rows read in \\d+\\.\\d s; import imp_[a-z0-9]{16}\\.\\n' +
          '  left out 1 row: custom event "engagement": Plausible\'s own engagement measurement, not a custom event\\n' +
          '  left out 2 rows: exit pages: Siteline has no exit-page report \\(the pages file carries exits for time on page\\)\\n' +
          '  1 day with native events count natively, not as imported: 2026-03-03\\n' +
          'Remove it with: siteline import delete --site ST-plaus --import imp_[a-z0-9]{16}\\n$',
      )),
    });
    const listed = await cli(['import', 'list', '--site', 'ST-plaus']);
    expect(listed.stdout.split('\n')[0]).toMatch(/^IMPORT +FROM +DAYS +ROWS +IMPORTED$/);
    expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^${id} +plausible +2026-03-01 to 2026-03-03 +36 +\\d{4}-\\d{2}-\\d{2}$`));
    expect(await cli(['import', '--from', 'plausible', 'plausible.zip', '--site', 'ST-plaus'])).toMatchObject({ code: 1, stderr: expect.stringContaining('already imported') });
    expect(await cli(['import', 'delete', '--site', 'ST-plaus', '--import', 'imp_nosuchimport00'])).toMatchObject({
      code: 1, stderr: 'siteline: ST-plaus has no import imp_nosuchimport00; list them with: siteline import list --site ST-plaus\n',
    });
    expect(await cli(['import', 'delete', '--site', 'ST-plaus', '--import', id!])).toEqual({ code: 0, stdout: `Deleted import ${id} of ST-plaus and its rows.\n`, stderr: '' });
    expect((await cli(['import', 'list', '--site', 'ST-plaus'])).stdout).toBe('ST-plaus has no imports of daily totals.\n');
  });

  it('imports Umami and GA4 exports as events, with what it left out', async () => {
    expect((await cli(['sites', 'add', '--name', 'Umami', '--id', 'ST-umami', '--timezone', 'UTC', '--domain', 'umami.example'])).code).toBe(0);
    writeFileSync(join(dir, 'website_event.csv'), UMAMI_EVENTS);
    expect(await cli(['import', '--from', 'umami', 'website_event.csv', '--site', 'ST-umami'])).toEqual({
      code: 0, stderr: '',
      stdout: expect.stringMatching(/^Imported 9 events \(7 pageviews, 2 custom events\) in 5 sessions into ST-umami from 10 rows read in \d+\.\d s\.\n  left out 1 row: event_type 3: not a pageview \(1\) or a custom event \(2\)\n$/),
    });
    expect((await cli(['sites', 'add', '--name', 'GA4', '--id', 'ST-ga4', '--timezone', 'UTC', '--domain', 'ga4.example'])).code).toBe(0);
    writeFileSync(join(dir, 'events_20260601.json'), GA4_EXPORT);
    const ga4 = await cli(['import', '--from=ga4', 'events_20260601.json', '--site', 'ST-ga4']);
    expect(ga4).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Imported 5 events \(4 pageviews, 1 custom event\) in 3 sessions into ST-ga4 from 10 rows read in /) });
    expect(ga4.stdout).toContain('  left out 1 row: no user_pseudo_id (GA4 consent mode without analytics storage)\n');
  });

  it('names the file and line of each bad row, and refuses unusable arguments', async () => {
    writeFileSync(join(dir, 'bad.zip'), storedZip({ 'imported_visitors_20260301_20260301.csv': 'date,visitors,pageviews,bounces,visits,visit_duration\n2026-03-01,-1,1,1,1,0\n' }));
    expect(await cli(['import', '--from', 'plausible', 'bad.zip', '--site', 'ST-plaus'])).toEqual({
      code: 1, stdout: '',
      stderr: 'Import failed: 1 invalid row or file; nothing was imported.\n  imported_visitors_20260301_20260301.csv line 2: visitors must be a whole number >= 0, got "-1"\n',
    });
    expect(await cli(['import', '--from', 'matomo', 'bad.zip', '--site', 'ST-plaus'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--from must be one of plausible, umami, ga4.') });
    expect(await cli(['import', '--from', 'umami', 'website_event.csv'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs --site <id>') });
    expect(await cli(['import', '--from', 'umami', 'nothing.csv', '--site', 'ST-umami'])).toMatchObject({ code: 1, stderr: 'siteline: Cannot read nothing.csv: no such file or directory.\n' });
    expect(await cli(['import', '--from', 'umami', 'website_event.csv', '--site', 'ST-nope'])).toMatchObject({ code: 1, stderr: 'siteline: No site ST-nope; list them with: siteline sites list\n' });
  });

  it('the progress line counts rows on a terminal, rewritten in place', () => {
    const out = new Collect();
    out.isTTY = true;
    let now = 0;
    const progress = progressLine(out, () => now, { reading: 'plausible export', unit: 'rows' });
    now = 1500;
    progress.update(20_000);
    progress.clear();
    expect(out.text).toBe('\r\x1b[2KReading plausible export: 20,000 rows...\r\x1b[2K');
  });
});
