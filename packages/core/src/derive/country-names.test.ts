import { describe, expect, it } from 'vitest';
import { countryCodeOfName } from './country-names.js';

describe('countryCodeOfName', () => {
  it('reads the English names GA4 writes, CLDR abbreviations included', () => {
    const names: Record<string, string> = {
      'United States': 'US', Germany: 'DE', 'United Kingdom': 'GB', Czechia: 'CZ', Türkiye: 'TR', 'Myanmar (Burma)': 'MM',
      'Côte d’Ivoire': 'CI', Réunion: 'RE', 'Bosnia & Herzegovina': 'BA', 'St. Lucia': 'LC', 'Congo - Kinshasa': 'CD',
      'Congo - Brazzaville': 'CG', Syria: 'SY', 'U.S. Virgin Islands': 'VI', 'South Korea': 'KR', 'Hong Kong': 'HK', Kosovo: 'XK',
    };
    for (const [name, code] of Object.entries(names)) expect([name, countryCodeOfName(name)]).toEqual([name, code]);
  });

  it('is XX for no country', () => {
    expect(countryCodeOfName('(not set)')).toBe('XX');
    expect(countryCodeOfName('')).toBe('XX');
    expect(countryCodeOfName('Atlantis')).toBe('XX');
  });
});
