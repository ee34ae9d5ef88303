/**
 * Browser and OS agreement with uap-core's test user agents, on mainstream user agents
 * (`ua-names.ts` says what that means) and, for information, on all of them.
 */
import { parseUserAgent } from '../../packages/core/src/derive/user-agent.js';
import { describeSource, readFixture } from './fixtures.js';
import { compare, createTally, exclude, type Tally } from './tally.js';
import { BROWSER_FAMILY_NAMES, BROWSER_SHAPE, MAINSTREAM_BROWSERS, MAINSTREAM_OSES, OS_FAMILY_NAMES } from './ua-names.js';

/** Targets of issue 14 on mainstream user agents. */
export const BROWSER_TARGET = 0.97;
export const OS_TARGET = 0.99;

interface UapCase {
  ua: string;
  family: string;
}

interface Kind {
  label: string;
  file: string;
  target: number;
  mainstream: ReadonlySet<string>;
  names: Readonly<Record<string, string>>;
  derive: (ua: string) => string;
}

const KINDS: Kind[] = [
  { label: 'browser', file: 'uap-core-ua.json', target: BROWSER_TARGET, mainstream: MAINSTREAM_BROWSERS, names: BROWSER_FAMILY_NAMES, derive: (ua) => parseUserAgent(ua).browser },
  { label: 'OS', file: 'uap-core-os.json', target: OS_TARGET, mainstream: MAINSTREAM_OSES, names: OS_FAMILY_NAMES, derive: (ua) => parseUserAgent(ua).os },
];

/**
 * Per kind: the mainstream tally (with the target), then for information the mainstream
 * families whatever the user agent's shape, and all cases.
 */
export function userAgentTallies(dir: string): Tally[] {
  const tallies: Tally[] = [];
  for (const kind of KINDS) {
    const fixture = readFixture<UapCase>(dir, kind.file);
    const mainstream = createTally(`${kind.label} (uap-core, mainstream)`, describeSource(fixture), kind.target);
    const family = createTally(`${kind.label} (uap-core, mainstream family, any shape)`, describeSource(fixture));
    const all = createTally(`${kind.label} (uap-core, all cases)`, describeSource(fixture));
    for (const c of fixture.cases) {
      const expected = kind.names[c.family] ?? c.family;
      const got = kind.derive(c.ua);
      if (c.family === 'Other') exclude(all, 'uap-core names no family ("Other")', c.ua);
      else compare(all, c.ua, expected, got);
      if (kind.mainstream.has(c.family)) compare(family, c.ua, expected, got);
      else exclude(family, 'not a mainstream family', `${c.family}: ${c.ua}`);
      if (!kind.mainstream.has(c.family)) exclude(mainstream, 'not a mainstream family', `${c.family}: ${c.ua}`);
      else if (!BROWSER_SHAPE.test(c.ua)) exclude(mainstream, 'mainstream family, not a current browser\'s user-agent shape', `${c.family}: ${c.ua}`);
      else compare(mainstream, c.ua, expected, got);
    }
    tallies.push(mainstream, family, all);
  }
  return tallies;
}
