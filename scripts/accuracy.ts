/**
 * `npm run accuracy [-- --fixtures <dir>] [--device-fixtures <dir>] [--limit <n>]`: how the
 * derivations agree with other projects' own test fixtures (uap-core user agents, Google's
 * GA4 source categories, dbt-ga4's and PostHog's channel cases), read at run time from
 * `--fixtures` (or $SITELINE_FIXTURES, or by default `../shared/fixtures/` beside the
 * repository), never copied in; device type and bot recall against matomo-org/device-detector's
 * `Tests/fixtures/*.yml`, read from `--device-fixtures` (or $SITELINE_DEVICE_FIXTURES) and
 * from the fixtures directory if they appear there; channels against peers' tests transcribed
 * into `--peer-fixtures <dir>` (or $SITELINE_PEER_FIXTURES) when given (peer-channels.ts).
 * Prints agreement per category, every disagreement, and every case left out as not
 * comparable with the reason. Exits 1 when a target is missed, 2 when fixtures that were
 * named cannot be read, and 0, saying what it needs and where to pass it, when there are
 * none at all (a clone on its own).
 * Not part of `npm test`. The figures and the naming mapping are in docs/derivations.md.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dbtGa4Channels, ga4SourceCategories, postHogChannels, postHogDomainTypes } from './accuracy/channels.js';
import { DEVICE_FIXTURES_ENV, deviceFixtureDirs, readDeviceFixtures } from './accuracy/device-detector.js';
import { botTallies, deviceTypeTallies } from './accuracy/device-types.js';
import { fixturesSource, noFixturesMessage } from './accuracy/fixtures.js';
import { PEER_FIXTURES_ENV, peerChannelTallies, peerFixturesDir } from './accuracy/peer-channels.js';
import { detailLines, meetsTarget, summaryLine, type Tally } from './accuracy/tally.js';
import { userAgentTallies } from './accuracy/user-agents.js';

const { values: args } = parseArgs({
  options: {
    fixtures: { type: 'string' },
    'device-fixtures': { type: 'string' },
    'peer-fixtures': { type: 'string' },
    limit: { type: 'string', default: '40' },
  },
});
const limit = Number(args.limit);
if (!Number.isInteger(limit) || limit < 0) {
  console.error(`--limit must be a whole number, got ${args.limit}`);
  process.exit(2);
}

const started = performance.now();
const { dir, chosen } = fixturesSource(args.fixtures);
// Named fixtures that are missing are an error (exit 2); the default place empty is only "nothing to measure".
const haveFixtures = chosen || existsSync(dir);
const peerDir = peerFixturesDir(args['peer-fixtures']);
if (!haveFixtures && !(args['device-fixtures'] ?? process.env[DEVICE_FIXTURES_ENV]) && peerDir === undefined) {
  console.log(noFixturesMessage(dir));
  process.exit(0);
}
let tallies: Tally[] = [];
let deviceSources: string[] = [];
let deviceTallies: Tally[] = [];
let peerTallies: Tally[] = [];
try {
  if (haveFixtures) tallies = [dbtGa4Channels(dir), postHogChannels(dir), ga4SourceCategories(dir), postHogDomainTypes(dir), ...userAgentTallies(dir)];
  const deviceDirs = deviceFixtureDirs(args['device-fixtures'], dir);
  if (deviceDirs.length > 0) {
    const fixtures = readDeviceFixtures(deviceDirs);
    deviceSources = fixtures.sources;
    deviceTallies = [...deviceTypeTallies(fixtures), ...botTallies(fixtures)];
  }
  if (peerDir !== undefined) peerTallies = peerChannelTallies(peerDir);
} catch (error) {
  console.error(`accuracy: ${(error as Error).message}`);
  process.exit(2);
}

/** Both channel sets together (issue 14's channel figure); issue 27 sets the target on each set too. */
function combined(name: string, parts: Tally[]): Tally {
  const all: Tally = { ...parts[0]!, name, source: parts.map((t) => t.name).join(' + '), compared: 0, agreed: 0, misses: [], excluded: new Map() };
  for (const t of parts) {
    all.compared += t.compared;
    all.agreed += t.agreed;
    all.misses.push(...t.misses);
    for (const [reason, inputs] of t.excluded) all.excluded.set(reason, [...(all.excluded.get(reason) ?? []), ...inputs]);
  }
  return all;
}
const channels = haveFixtures ? [combined('channel (both sets, comparable)', tallies.slice(0, 2))] : [];
const peers = peerTallies.length === 0 ? [] : [combined('channel (peers, all files)', peerTallies), ...peerTallies];

console.log(`# Derivation accuracy against public fixtures in ${haveFixtures ? dir : '(none: only device-detector\'s)'}`);
console.log(`device-detector fixtures: ${deviceSources.length > 0 ? deviceSources.join(', ') : 'none'}\n`);
for (const tally of [...tallies, ...deviceTallies, ...peerTallies]) console.log(`${detailLines(tally, limit).join('\n')}\n`);
console.log('## Summary');
for (const tally of [...channels, ...tallies, ...deviceTallies, ...peers]) console.log(summaryLine(tally));
if (deviceTallies.length === 0) {
  const why = `no device-detector fixtures (its Tests/fixtures/*.yml) in ${dir} or ${dir}/device-detector; pass --device-fixtures <dir> or set ${DEVICE_FIXTURES_ENV}`;
  console.log(`device type: not measured: ${why}\nbot recall:  not measured: ${why}`);
}
if (peerDir === undefined) console.log(`channel (peers): not measured: pass --peer-fixtures <dir> or set ${PEER_FIXTURES_ENV}`);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
const missed = [...channels, ...tallies, ...deviceTallies].filter((t) => !meetsTarget(t));
if (missed.length > 0) {
  console.log(`targets missed: ${missed.map((t) => t.name).join(', ')}`);
  process.exitCode = 1;
}
