/**
 * A country's ISO 3166-1 alpha-2 code from its English name as exports write it (GA4's
 * `geo.country` uses CLDR's short names: `Myanmar (Burma)`, `Congo - Kinshasa`,
 * `St. Lucia`, `Bosnia & Herzegovina`). The names and aliases of `i18n-iso-countries` (the
 * maintained list geo.ts reads), tried as written and in CLDR's abbreviations spelled out;
 * the few CLDR names that list has under another name, below.
 */
import { getAlpha2Code } from 'i18n-iso-countries/index.js';
import './geo.js'; // registers the English names
import { UNKNOWN_COUNTRY_CODE } from './geo.js';
import { memoizeRecent } from './memoize.js';

/** CLDR English short names the package spells otherwise. */
const CLDR_NAMES: Readonly<Record<string, string>> = {
  syria: 'SY', laos: 'LA', moldova: 'MD', 'congo - kinshasa': 'CD', 'congo - brazzaville': 'CG', micronesia: 'FM',
  'u.s. virgin islands': 'VI', 'british virgin islands': 'VG', 'sint maarten': 'SX', 'falkland islands (islas malvinas)': 'FK',
  'st. vincent & grenadines': 'VC', 'heard & mcdonald islands': 'HM', 'st. martin': 'MF', 'u.s. outlying islands': 'UM',
  'vatican city': 'VA', brunei: 'BN', 'caribbean netherlands': 'BQ', 'south georgia & south sandwich islands': 'GS',
};

/** The spellings tried, in order: as written, ASCII apostrophes, `&` and `St.` spelled out, without a bracketed note, without accents. */
function spellings(name: string): string[] {
  const apostrophes = name.replace(/[’‘]/g, "'");
  const spelled = apostrophes.replace(/ & /g, ' and ').replace(/^St\. /, 'Saint ');
  const plain = spelled.replace(/\s*\(.*\)$/, '');
  return [name, apostrophes, spelled, plain, plain.normalize('NFD').replace(/[\u0300-\u036f]/g, '')];
}

/**
 * The alpha-2 code of an English country name, `XX` when it names no country (`(not set)`, empty).
 * @example countryCodeOfName('Myanmar (Burma)') // 'MM'
 * @example countryCodeOfName('Germany') // 'DE'
 */
export const countryCodeOfName: (name: string) => string = memoizeRecent((name: string): string => {
  const trimmed = name.trim();
  if (trimmed === '') return UNKNOWN_COUNTRY_CODE;
  const listed = CLDR_NAMES[trimmed.toLowerCase()];
  if (listed) return listed;
  for (const spelling of spellings(trimmed)) {
    const code = getAlpha2Code(spelling, 'en');
    if (code) return code;
  }
  return UNKNOWN_COUNTRY_CODE;
}, 1000);
