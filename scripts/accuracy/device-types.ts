/**
 * Device-type agreement and bot recall against matomo-org/device-detector's fixtures
 * (`device-detector.ts` reads them; `device-type-names.ts` holds the mapping and what
 * "mainstream" means). Every case goes through `parseUserAgent` and `isBotUserAgent`, the
 * functions the import and the collector run.
 */
import { isBotUserAgent } from '../../packages/core/src/derive/bots.js';
import { parseUserAgent } from '../../packages/core/src/derive/user-agent.js';
import type { DeviceFixtures } from './device-detector.js';
import { DEVICE_TYPE_NAMES, MAINSTREAM_DEVICE_TYPES, MAINSTREAM_OS_FAMILIES, NOT_COMPARABLE } from './device-type-names.js';
import { compare, createTally, exclude, type Tally } from './tally.js';
import { BROWSER_SHAPE } from './ua-names.js';

/** The target of issue 14: device-type agreement on mainstream user agents. */
export const DEVICE_TYPE_TARGET = 0.95;

const SOURCE = 'matomo-org/device-detector Tests/fixtures/*.yml (LGPL-3.0, read at run time)';

/** Why a comparable case is not mainstream, judged on the input and device-detector's answer only; `undefined` when it is. */
function notMainstream(type: string, osFamily: string, ua: string, hasClientHints: boolean): string | undefined {
  if (!MAINSTREAM_DEVICE_TYPES.has(type)) return `not a desktop, phone or tablet (${type})`;
  if (!MAINSTREAM_OS_FAMILIES.has(osFamily)) return 'not a mainstream OS family';
  if (!BROWSER_SHAPE.test(ua)) return "not a current browser's user-agent shape";
  // device-detector reads Sec-CH-UA-* headers sent beside the user agent (its answer may come
  // from them); the collector and the import see the user agent only.
  if (hasClientHints) return 'client-hint headers decide the answer; we see the user agent only';
  return undefined;
}

/**
 * The device-type tallies: mainstream (with the target), then for information all comparable
 * cases and the client-hint cases read from their user agent alone.
 */
export function deviceTypeTallies(fixtures: DeviceFixtures): Tally[] {
  const mainstream = createTally('device type (device-detector, mainstream)', SOURCE, DEVICE_TYPE_TARGET);
  const all = createTally('device type (device-detector, all cases)', SOURCE);
  const hints = createTally('device type (client-hint cases, UA only)', SOURCE);
  for (const c of fixtures.devices) {
    const expected = DEVICE_TYPE_NAMES[c.type];
    if (expected === undefined) throw new Error(`no mapping for device-detector type "${c.type}"; add it to device-type-names.ts`);
    const input = `${c.type || '(none)'} ${c.osFamily}: ${c.ua}`;
    if (expected === null) {
      for (const tally of [mainstream, all]) exclude(tally, NOT_COMPARABLE, input);
      continue;
    }
    const got = parseUserAgent(c.ua).deviceType;
    if (c.hasClientHints) {
      exclude(all, 'client-hint headers decide the answer; we see the user agent only', input);
      compare(hints, input, expected, got);
    } else compare(all, input, expected, got);
    const reason = notMainstream(c.type, c.osFamily, c.ua, c.hasClientHints);
    if (reason === undefined) compare(mainstream, input, expected, got);
    else exclude(mainstream, reason, input);
  }
  return [mainstream, all, hints];
}

/**
 * Bot recall on `bots.yml` (every case is a bot: crawlers, monitors, feed fetchers, ...), and
 * people taken for bots: mainstream device cases (`deviceTypeTallies`' selection) that
 * `isBotUserAgent` calls a bot, which the collector would drop.
 */
export function botTallies(fixtures: DeviceFixtures): Tally[] {
  const recall = createTally('bot recall (device-detector bots.yml)', SOURCE);
  for (const c of fixtures.bots) compare(recall, `${c.category || '(no category)'}: ${c.ua}`, 'bot', isBotUserAgent(c.ua) ? 'bot' : 'not a bot');
  const people = createTally('not a bot (device-detector, mainstream)', SOURCE);
  for (const c of fixtures.devices) {
    const input = `${c.type || '(none)'} ${c.osFamily}: ${c.ua}`;
    const reason = DEVICE_TYPE_NAMES[c.type] ? notMainstream(c.type, c.osFamily, c.ua, c.hasClientHints) : NOT_COMPARABLE;
    if (reason === undefined) compare(people, input, 'not a bot', isBotUserAgent(c.ua) ? 'bot' : 'not a bot');
    else exclude(people, reason, input);
  }
  return [recall, people];
}
