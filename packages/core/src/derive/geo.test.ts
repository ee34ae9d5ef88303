import { describe, expect, it } from 'vitest';
import { countryName, lookupCountry, normalizeCountryCode } from './geo.js';

describe('lookupCountry', () => {
  // Answers read from the shipped database (geo-whois-asn-country 2.3.2026061719), and
  // matching where these well-known networks are registered.
  it.each([
    ['8.8.8.8', 'US'], // Google Public DNS
    ['1.1.1.1', 'AU'], // Cloudflare; APNIC-registered research prefix, listed as AU
    ['77.88.8.8', 'RU'], // Yandex DNS
    ['81.2.69.142', 'GB'],
    ['133.1.1.1', 'JP'],
    ['200.160.2.3', 'BR'], // NIC.br
    ['2001:4860:4860::8888', 'US'], // Google Public DNS over IPv6
    ['::ffff:8.8.8.8', 'US'], // IPv4-mapped IPv6
  ])('%s -> %s', (ip, code) => {
    expect(lookupCountry(ip)).toBe(code);
  });

  it.each([
    '10.0.0.1',
    '172.16.5.4', // the database wrongly says AU
    '192.168.1.1', // the database wrongly says AU
    '203.0.113.5', // documentation range; the database wrongly says AU
    '127.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    'fe80::1',
    'fd12:3456::1',
    '2001:db8::1', // documentation range; the database wrongly says JP
    '',
    'garbage',
    '1.2.3', // maxmind alone would answer PL
    ' 8.8.8.8',
    '256.1.1.1',
  ])('%j -> XX', (ip) => {
    expect(lookupCountry(ip)).toBe('XX');
  });
});

describe('normalizeCountryCode', () => {
  it.each([
    ['de', 'DE'],
    [' us ', 'US'],
    ['XK', 'XK'],
    ['EU', 'XX'],
    ['ZZ', 'XX'],
    ['USA', 'XX'],
    ['', 'XX'],
    [undefined, 'XX'],
  ])('%j -> %s', (code, expected) => {
    expect(normalizeCountryCode(code)).toBe(expected);
  });
});

describe('countryName', () => {
  it.each([
    ['US', 'United States'],
    ['GB', 'United Kingdom'],
    ['DE', 'Germany'],
    ['RU', 'Russia'],
    ['KR', 'South Korea'],
    ['CD', 'Democratic Republic of the Congo'],
    ['AE', 'United Arab Emirates'],
    ['fr', 'France'],
    ['XX', 'Unknown'],
    ['QQ', 'Unknown'],
  ])('%s -> %s', (code, name) => {
    expect(countryName(code)).toBe(name);
  });
});
