/**
 * Numbers, percentages, durations, dates and country names in the reader's locale (the
 * browser's languages), through `Intl`. Created once: formatters are costly to make.
 */
import type { Interval } from '@siteline/core';

const locale = undefined; // the browser's preferred locale
const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
const percentValue = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
const change = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
const points = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const seconds = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'narrow', maximumFractionDigits: 0 });
const minutes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'narrow', maximumFractionDigits: 0 });
const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const fullDay = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const hour = new Intl.DateTimeFormat(locale, { hour: 'numeric', timeZone: 'UTC' });
const dayHour = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: 'numeric', timeZone: 'UTC' });
let regions: Intl.DisplayNames | undefined;
try {
  regions = new Intl.DisplayNames(locale, { type: 'region' });
} catch {
  regions = undefined;
}

/** A count: `12,345` (en), `12.345` (de). */
export const formatCount = (n: number) => integer.format(n);

/** A percentage given as 0-100 (the API's unit): `42.5%`. */
export const formatPercent = (n: number) => percentValue.format(n / 100);

/** Seconds as minutes and seconds: `2m 5s`, `45s`. */
export function formatDuration(total: number): string {
  const rounded = Math.round(total);
  if (rounded < 60) return seconds.format(rounded);
  return `${minutes.format(Math.floor(rounded / 60))} ${seconds.format(rounded % 60)}`;
}

/** How a metric's change is told: relative for counts and durations, in percentage points for rates (themselves percentages). */
export type ChangeKind = 'relative' | 'points';

export interface Change {
  text: string;
  /** The sign of the change as shown: -1, 0 (none, or `new`) or 1. */
  direction: number;
}

/**
 * The change from `before` to `now`: `+12%` (relative), `-3.5 pp` (points); `new` when a
 * count rose from zero; undefined when both are zero (nothing happened in either range).
 * @example changeBetween(30, 40, 'points') // { text: '-10 pp', direction: -1 }
 */
export function changeBetween(now: number, before: number, kind: ChangeKind): Change | undefined {
  if (now === 0 && before === 0) return undefined;
  if (kind === 'points') {
    const pp = Math.round((now - before) * 10) / 10;
    return { text: `${points.format(pp)} pp`, direction: Math.sign(pp) };
  }
  if (before === 0) return { text: 'new', direction: 0 };
  const ratio = (now - before) / before;
  return { text: change.format(ratio), direction: Math.sign(Math.round(ratio * 100)) };
}

/** A calendar day `YYYY-MM-DD` as the reader writes it: `Nov 3, 2026`. */
export const formatDay = (date: string) => fullDay.format(Date.parse(`${date}T00:00:00Z`));

/** An inclusive range of days as the reader writes it: `Oct 22 – Nov 20, 2026`, or one day. */
export const formatDays = (from: string, to: string) => (from === to ? formatDay(from) : fullDay.formatRange(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`)));

/** A timeseries label of its interval, short (axis) or long (table, tooltip). */
export function formatBucket(label: string, interval: Interval, long = false): string {
  // Hours (`2026-11-20T14:00:00+01:00`) are the site's local hours, shown as written (not converted to the reader's zone).
  const [format, instant] =
    interval === 'hour' ? [long ? dayHour : hour, Date.parse(`${label.slice(0, 19)}Z`)]
    : interval === 'month' ? [month, Date.parse(`${label}-01T00:00:00Z`)]
    : [long ? fullDay : day, Date.parse(`${label}T00:00:00Z`)];
  return Number.isNaN(instant) ? label : format.format(instant);
}

/** A country's name in the reader's language from its ISO code (`XX`: unknown). */
export function countryName(code: string, fallback?: string): string {
  if (code === 'XX') return 'Unknown';
  try {
    return regions?.of(code) ?? fallback ?? code;
  } catch {
    return fallback ?? code;
  }
}

/** Unicode's bidirectional formatting characters (Bidi_Control): each reorders the text after it. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A tracked name (a page, an event, a property) as shown: bidirectional controls written as
 * visible escapes, so a name cannot make itself read as another (`\u202Eexe.txt` would read
 * "txt.exe"). Only the display changes: filters and the API keep the name as it was sent.
 * @example visibleText('\u202Eexe.txt') // '[U+202E]exe.txt'
 */
export const visibleText = (text: string) => text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
