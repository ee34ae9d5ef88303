/**
 * Channel agreement with other projects' tests transcribed into one shape, read at run time
 * from `--peer-fixtures <dir>` (or $SITELINE_PEER_FIXTURES): every `*.json` file there is
 *
 *   { "meta": { "repo", "commit", "paths", "licence", "how_to_read" },
 *     "cases": [{ "test", "referrer", "url", "expected" }] }
 *
 * where `referrer` is the Referer as a browser or app sends it (empty for none), `url` the
 * landing URL with its tags and click ids, and `expected` the peer's channel name (mapped
 * by channel-names.ts). The files are transcriptions of peers' tests (Plausible's
 * acquisition and source tests, snowplow's referrer tests, ...), some under licences this
 * repository cannot take in: they are never committed, and docs/derivations.md says how
 * each was made. The fixtures kept from us are of this kind; these figures estimate them.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { channelOf, expectedChannel } from './channels.js';
import { describeSource, readFixture } from './fixtures.js';
import { compare, createTally, type Tally } from './tally.js';

/** The environment variable naming the directory (`--peer-fixtures` wins over it). */
export const PEER_FIXTURES_ENV = 'SITELINE_PEER_FIXTURES';

interface PeerCase {
  test: string;
  referrer: string;
  url: string;
  expected: string;
}

/** `option`, else `$SITELINE_PEER_FIXTURES`, else none: the peer figures are optional. */
export function peerFixturesDir(option: string | undefined): string | undefined {
  return option ?? process.env[PEER_FIXTURES_ENV];
}

/** One tally per file of `dir`, in name order; throws when `dir` is not a directory of such files. */
export function peerChannelTallies(dir: string): Tally[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`peer fixtures directory not found: ${dir}`);
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`no *.json peer fixtures in ${dir}`);
  return files.map((file) => {
    const fixture = readFixture<PeerCase>(dir, file);
    const tally = createTally(`channel (peer: ${basename(file, '.json')})`, describeSource(fixture));
    for (const c of fixture.cases) {
      const input = `${c.test}: referrer=${c.referrer || '(none)'} url=${c.url}`;
      const expected = expectedChannel(tally, c.expected, input);
      if (expected !== undefined) compare(tally, input, expected, channelOf(c.url, c.referrer));
    }
    return tally;
  });
}
