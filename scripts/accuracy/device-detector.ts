/**
 * Where matomo-org/device-detector's test fixtures (`Tests/fixtures/*.yml`: user agent ->
 * device type, and `bots.yml`: bot user agents) are and how they are read. They are
 * LGPL-3.0: read at run time from a directory outside the repository, never copied in.
 * Read from `--device-fixtures <dir>` (or $SITELINE_DEVICE_FIXTURES), and from the shared
 * fixtures directory (or its `device-detector/` folder) if such files appear there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/** The environment variable naming a directory of device-detector fixtures (`--device-fixtures` wins over it). */
export const DEVICE_FIXTURES_ENV = 'SITELINE_DEVICE_FIXTURES';

/** One device case: the input and device-detector's expected answer (the fields we use). */
export interface DeviceCase {
  file: string;
  ua: string;
  /** Client-hint headers sent with the user agent (device-detector reads them; we do not). */
  hasClientHints: boolean;
  /** device-detector's device type (`smartphone`, `tablet`, `desktop`, `tv`, ... or `""`). */
  type: string;
  /** device-detector's OS family (`Android`, `iOS`, `Windows`, `Mac`, `GNU/Linux`, ...). */
  osFamily: string;
}

/** One case of `bots.yml`: a user agent device-detector calls a bot, and its category. */
export interface BotCase {
  ua: string;
  category: string;
}

export interface DeviceFixtures {
  /** The directories read, one line each with the number of files. */
  sources: string[];
  devices: DeviceCase[];
  bots: BotCase[];
}

/** A file of device-detector's fixtures: a YAML list of cases, each a `device` or a `bot` case. */
const FIXTURE_FILE = /\.ya?ml$/;

/**
 * device-detector's fixture file names (`smartphone-12.yml`, `bots.yml`, ...): in the shared
 * directory, which holds other projects' files too, only these are taken as its fixtures.
 */
const DEVICE_DETECTOR_NAME =
  /^(?:bots|camera|car_browser|clienthints(?:-app)?|console|desktop|feature_phone|feed_reader|mediaplayer|mobile_apps|peripheral|phablet|podcasting|portable_media_player|smart_display|smart_speaker|smartphone|tablet|tv|unknown|wearable)(?:-\d+)?\.yml$/;

/** `dir`, or its `Tests/fixtures` when `dir` is a checkout of the repository. */
function fixtureFolder(dir: string): string {
  const nested = join(dir, 'Tests', 'fixtures');
  return existsSync(nested) && statSync(nested).isDirectory() ? nested : dir;
}

function yamlFiles(dir: string, names: RegExp = FIXTURE_FILE): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((name) => names.test(name)).sort();
}

/** A directory to read and the fixture files in it. */
export interface FixtureFiles {
  dir: string;
  files: string[];
}

/**
 * What to read: the directory given (`option`, else $SITELINE_DEVICE_FIXTURES; it must
 * exist and hold YAML files), then device-detector's files in `shared` (by their names) and
 * all YAML files in `shared/device-detector/`, if any.
 */
export function deviceFixtureDirs(option: string | undefined, shared: string): FixtureFiles[] {
  const found: FixtureFiles[] = [];
  const given = option ?? process.env[DEVICE_FIXTURES_ENV];
  if (given !== undefined && given !== '') {
    const dir = fixtureFolder(resolve(given));
    const files = yamlFiles(dir);
    if (files.length === 0) {
      throw new Error(`device-detector fixtures not found: ${dir} holds no .yml files (pass the folder of its Tests/fixtures/*.yml, or a checkout of the repository)`);
    }
    found.push({ dir, files });
  }
  for (const [dir, names] of [[resolve(shared), DEVICE_DETECTOR_NAME], [resolve(shared, 'device-detector'), FIXTURE_FILE]] as const) {
    const files = yamlFiles(dir, names);
    if (files.length > 0 && !found.some((f) => f.dir === dir)) found.push({ dir, files });
  }
  return found;
}

interface RawCase {
  user_agent?: unknown;
  headers?: unknown;
  device?: { type?: unknown };
  os_family?: unknown;
  bot?: { category?: unknown };
}

/** Reads the files found by `deviceFixtureDirs`; throws naming the file when one is not a list of device-detector cases. */
export function readDeviceFixtures(found: readonly FixtureFiles[]): DeviceFixtures {
  const fixtures: DeviceFixtures = { sources: [], devices: [], bots: [] };
  for (const { dir, files } of found) {
    fixtures.sources.push(`${dir} (${files.length} files)`);
    for (const file of files) {
      const path = join(dir, file);
      const cases = parse(readFileSync(path, 'utf8')) as unknown;
      if (!Array.isArray(cases)) throw new Error(`${path}: expected a YAML list of device-detector cases`);
      for (const raw of cases as RawCase[]) {
        if (typeof raw?.user_agent !== 'string' && typeof raw?.user_agent !== 'number') {
          throw new Error(`${path}: a case without user_agent; not a device-detector fixture`);
        }
        const ua = String(raw.user_agent);
        if (raw.bot !== undefined) fixtures.bots.push({ ua, category: String(raw.bot?.category ?? '') });
        else if (raw.device !== undefined) {
          fixtures.devices.push({
            file,
            ua,
            hasClientHints: raw.headers !== undefined && raw.headers !== null,
            type: String(raw.device?.type ?? ''),
            osFamily: String(raw.os_family ?? ''),
          });
        } else throw new Error(`${path}: a case with neither device nor bot; not a device-detector fixture`);
      }
    }
  }
  return fixtures;
}
