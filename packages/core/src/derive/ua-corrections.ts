/**
 * What ua-parser-js 1.x gets wrong or lacks, corrected after it (2.x would fix some of this
 * but changed licence). Each entry says why; read top-down, every matching entry applies,
 * OS corrections first so that browser corrections see the corrected OS.
 * Keep it short: a correction is for a pattern of real browsers, not for one string.
 */
import type { DeviceType } from './user-agent.js';

export interface UaCorrection {
  readonly why: string;
  /** Tested on the raw user agent. */
  readonly test: RegExp;
  /** Applies only when the names so far (already in our spelling) are these. */
  readonly ifBrowser?: string;
  readonly ifOs?: string;
  readonly browser?: string;
  readonly os?: string;
  readonly deviceType?: DeviceType;
}

export const UA_CORRECTIONS: readonly UaCorrection[] = [
  {
    why: 'Chrome and Edge on iPad request desktop sites with a Mac user agent but keep CriOS/EdgiOS, which no Mac runs',
    test: /\bMacintosh\b.*\b(?:CriOS|EdgiOS)\//,
    os: 'iOS',
    deviceType: 'Tablet',
  },
  {
    why: 'An iPhone, iPod or iPad platform token is iOS even when the version after it is missing or malformed (ua-parser-js then falls back to macOS)',
    test: /\((?:iPhone|iPod|iPad)\b/,
    ifOs: 'macOS',
    os: 'iOS',
  },
  {
    why: 'Native macOS apps send CFNetwork and Darwin with an Intel architecture or a Mac model; ua-parser-js reads every CFNetwork string as iOS, hence a phone',
    test: /\bCFNetwork\/.*\bDarwin\/.*\((?:x86_64|i386)\)|\bCFNetwork\/.*\((?:Mac|iMac)/,
    os: 'macOS',
    deviceType: 'Desktop',
  },
  {
    why: "Amazon's Silk runs only on Fire tablets and Fire TV, whose Fire OS is Android; its user agent often leaves Android out",
    test: /\bSilk\//,
    os: 'Android',
  },
  {
    why: "Meta Quest's browser runs on an Android-based OS but sends a desktop Linux user agent",
    test: /\bOculusBrowser\//,
    os: 'Android',
  },
  {
    why: 'Citrix Workspace on Chrome OS writes Windows where Chrome OS writes CrOS, keeping the Chrome OS platform version',
    test: /\(X11; Windows (?:aarch64|x86_64|armv7l) \d+\.\d+\.\d+\)/,
    os: 'Chrome OS',
  },
  {
    why: "Apps' own user agents that name iOS or an Apple handheld in a form ua-parser-js does not read (`(iOS; U; ...)`, `iOS 7.0.2`, `iPhone OS,6.1`)",
    test: /\biOS\b|\biPhone\b|\biPad\b|\biPod\b/,
    ifOs: 'Unknown',
    os: 'iOS',
  },
  {
    why: 'Windows user agents ua-parser-js 1.x does not recognise: no version (AIR apps, "(Windows)"), Win16, Windows CE',
    test: /\bWin(?:dows|16|CE)/,
    ifOs: 'Unknown',
    os: 'Windows',
  },
  {
    why: 'UC Browser has sent UCMobile/ since version 11; ua-parser-js 1.x reads only UCBrowser/ and UCWEB',
    test: /\bUCMobile\//,
    browser: 'UC Browser',
  },
  {
    why: 'Brave names itself on iOS and in early desktop builds; ua-parser-js reads those as Safari or Chrome (current desktop Brave sends a plain Chrome user agent and cannot be told apart)',
    test: /\bBrave\b/i,
    browser: 'Brave',
  },
  {
    why: "Android's Chrome-based WebView keeps the old browser's Version/4.0 beside a Chrome/ token; the pre-Chrome Android browser never sent Chrome/",
    test: /\bChrome\//,
    ifBrowser: 'Android Browser',
    browser: 'Android WebView',
  },
  {
    why: "A page in an iOS app's web view names no browser; ua-parser-js calls it WebKit, GA4 Safari (in-app)",
    test: /AppleWebKit/,
    ifBrowser: 'WebKit',
    ifOs: 'iOS',
    browser: 'Safari (in-app)',
  },
];
