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
  /** The device type by the first group `test` captured, where the user agent states it. */
  readonly deviceTypeOf?: Readonly<Record<string, DeviceType>>;
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
  // Device type. Every matching entry applies and the last one wins, so the more specific
  // statements come later (a ThinkPad Tablet is a tablet, a Chromebook Tab too).
  {
    why: "Android on a PC (Android-x86, PrimeOS, Phoenix OS) and Facebook's Windows app name the PC's product line as the model, without `Mobile`; ua-parser-js reads them as phones (`HP <name>` is its HP iPAQ pattern) or tablets",
    test: /^(?!.*Mobile).*\b(?:Inspiron|Latitude|Vostro|OptiPlex|TravelMate|Aspire|Extensa|ThinkPad|ThinkCentre|EliteBook|ProBook|EliteDesk|ProDesk|Pavilion|LIFEBOOK|ESPRIMO|VivoBook|ZenBook|NUC\d+\w*|Laptop|Satellite|Tecra)\b/i,
    deviceType: 'Desktop',
  },
  {
    why: 'Android apps on a Chromebook (ARC) send an Android user agent naming the Chromebook or its Chrome OS build (`Build/R74-11895.118.0`, `CrosArc/`): a Chrome OS laptop, not a phone or tablet',
    test: /\bAndroid\b.*(?:\b(?:Chromebook|Chromebox|Chromebase|Pixelbook)\b|\bBuild\/R\d+-\d+\.\d+\.\d+|\bCrosArc\/)/,
    os: 'Chrome OS',
    deviceType: 'Desktop',
  },
  {
    why: "Windows phones asking for desktop sites (Edge's `Windows NT 10.0; ARM; Lumia 950`, IE's `WPDesktop`) send a desktop Windows user agent that still names the phone",
    test: /\b(?:Lumia|WPDesktop)\b/,
    deviceType: 'Mobile',
  },
  {
    why: 'Many Android tablets send `Mobile` as a phone does (ua-parser-js then says phone), but their model names the tablet: `Tab` or `Tablet` (`Galaxy Tab`, `SmartTab`), `Pad` as a word, `MID` (mobile internet device), `Slate`, MediaPad, MatePad, Lenovo Tab model numbers (`TB-X605L`, `TB3-710F`)',
    test: /\bAndroid\b[^)]*?(?:(?:\b|_|(?<=[a-z]))tab(?:let)?(?:\b|_|\d)|(?:\b|_)pad(?:\b|_|\d)|\bMID(?:\b|_|\d)|\bSlate\b|\b(?:Media|Mate)Pad|\bTB\d?-)/i,
    deviceType: 'Tablet',
  },
  {
    why: "Yandex's apps state a tablet by ending their version with `/apad` (`YaApp_Android/22.36.1/apad`)",
    test: /\bYa\w+\/[\d.]+\/apad\b/,
    deviceType: 'Tablet',
  },
  {
    why: "Facebook's in-app browser states the device class (`FBID/phone`, `FBID/tablet`, `FBID/desktop`); ua-parser-js reads its model field (`FBMD/HP Laptop 15`) with phone patterns instead",
    test: /\bFBID\/(phone|tablet|desktop)\b/,
    deviceTypeOf: { phone: 'Mobile', tablet: 'Tablet', desktop: 'Desktop' },
  },
  {
    why: "An iOS user agent naming an iPad anywhere (`iPad;`, an app's `FBDV/iPad7,11` or `(iPad6,11; ...)`) is an iPad, even when an iPhone app runs on it and sends an iPhone platform",
    test: /\biPad/,
    ifOs: 'iOS',
    deviceType: 'Tablet',
  },
];
