/**
 * Country of a visitor (decisions.md section 4): ISO 3166-1 alpha-2 code from the IP, and
 * the English short name of a code; `XX` / `Unknown` when unknown.
 *
 * IP data: `@ip-location-db/geo-whois-asn-country-mmdb` (records are `{ country_code }`),
 * read with `maxmind`. Its package.json says CC0, but the data derives from RIR WHOIS data
 * licensed CC BY 4.0 by the NRO, which asks for attribution to nro.net. Its published data
 * wrongly maps some private and documentation ranges (192.168/16, 172.16/12, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32) to countries, so reserved addresses are answered `XX` here
 * before the database is asked. Names: `i18n-iso-countries`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { getAlpha2Codes, getName, registerLocale, type LocaleData } from 'i18n-iso-countries/index.js';
import { Reader, type Response } from 'maxmind';
import { isReservedIp } from './reserved-ip.js';
import { memoizeRecent } from './memoize.js';

/** The code of an unknown country. */
export const UNKNOWN_COUNTRY_CODE = 'XX';
const UNKNOWN_COUNTRY_NAME = 'Unknown';

const require = createRequire(import.meta.url);
const MMDB_FILE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

registerLocale(require('i18n-iso-countries/langs/en.json') as LocaleData);

/**
 * Codes whose package "official" name is a long form nobody reads in a report
 * (`United States of America`, `Russian Federation`); for these the package's first alias
 * is used (`United States`, `Russia`). All other codes use the official name, because their
 * aliases are abbreviations (`UK`, `UAE`), ambiguous (`Congo` for both CD and CG) or
 * clumsier (`Korea, Republic of`).
 */
const ALIAS_NAMED = new Set(['CN', 'GM', 'IR', 'MK', 'PS', 'RU', 'TW', 'TZ', 'US']);

/** Alpha-2 code -> English short name, for every code the package knows. */
const NAMES = new Map<string, string>(
  Object.keys(getAlpha2Codes()).map((code) => [
    code,
    getName(code, 'en', { select: ALIAS_NAMED.has(code) ? 'alias' : 'official' }) ?? UNKNOWN_COUNTRY_NAME,
  ]),
);

/** Opened on first use: 8 MB read in ~15 ms, which commands that never look up IPs skip. */
let reader: Reader<Response> | undefined;

/** Same visitors, same IPs: a lookup costs ~2 µs, a cache hit a tenth of that. */
const lookupCached = memoizeRecent(lookup, 5_000);

/**
 * The country of an IPv4 or IPv6 address as an upper-case ISO alpha-2 code; `XX` when
 * the address is invalid, private, reserved or not in the database. IPv4-mapped IPv6
 * addresses (`::ffff:8.8.8.8`) are looked up as IPv4.
 * @example lookupCountry('8.8.8.8') // 'US'
 * @example lookupCountry('192.168.1.1') // 'XX'
 */
export function lookupCountry(ip: string): string {
  return typeof ip === 'string' ? lookupCached(ip) : UNKNOWN_COUNTRY_CODE;
}

function lookup(ip: string): string {
  let address = ip;
  let version = isIP(address);
  if (version === 6 && /^::ffff:/i.test(address) && isIP(address.slice(7)) === 4) {
    address = address.slice(7);
    version = 4;
  }
  // maxmind does not validate: `1.2.3` or ` 8.8.8.8` would still get an answer.
  if (version === 0 || isReservedIp(address, version)) return UNKNOWN_COUNTRY_CODE;
  reader ??= new Reader<Response>(readFileSync(require.resolve(MMDB_FILE)));
  const record = reader.get(address) as { country_code?: unknown } | null;
  return normalizeCountryCode(typeof record?.country_code === 'string' ? record.country_code : undefined);
}

/**
 * An alpha-2 code in upper case when it is a known ISO 3166-1 code (Kosovo's `XK`
 * included), else `XX`.
 * @example normalizeCountryCode(' de ') // 'DE'
 * @example normalizeCountryCode('EU') // 'XX'
 */
export function normalizeCountryCode(code: string | undefined): string {
  if (typeof code !== 'string') return UNKNOWN_COUNTRY_CODE;
  const upper = code.trim().toUpperCase();
  return NAMES.has(upper) ? upper : UNKNOWN_COUNTRY_CODE;
}

/**
 * English short name of an alpha-2 code (any case); `Unknown` for `XX` and unknown codes.
 * @example countryName('US') // 'United States'
 * @example countryName('GB') // 'United Kingdom'
 */
export function countryName(code: string): string {
  return NAMES.get(normalizeCountryCode(code)) ?? UNKNOWN_COUNTRY_NAME;
}
