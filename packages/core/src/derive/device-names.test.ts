import { describe, expect, it } from 'vitest';
import { browserName, osName } from './device-names.js';

describe('browserName', () => {
  it.each([
    ['brave', 'Brave'],
    ['BRAVE', 'Brave'],
    ['Brave', 'Brave'],
    ['Mobile Safari', 'Safari'],
    ['chrome mobile', 'Chrome'],
    ['IE', 'Internet Explorer'],
    ['kakaotalk', 'KakaoTalk'],
    ['KAKAOTALK', 'KakaoTalk'],
    // not in the tables: an all-lower-case name gets capital initials, others stay as written
    ['foo browser', 'Foo Browser'],
    ['NetFront', 'NetFront'],
    ['', 'Unknown'],
    ['  ', 'Unknown'],
    [undefined, 'Unknown'],
  ])('%j -> %s', (name, expected) => {
    expect(browserName(name)).toBe(expected);
  });
});

describe('osName', () => {
  it.each([
    ['android', 'Android'],
    ['Android', 'Android'],
    ['ANDROID', 'Android'],
    ['KAIOS', 'KaiOS'],
    ['freebsd', 'FreeBSD'],
    ['Mac OS', 'macOS'],
    ['ubuntu', 'Linux'],
    ['Chromium OS', 'Chrome OS'],
    ['unknown', 'Unknown'],
  ])('%j -> %s', (name, expected) => {
    expect(osName(name)).toBe(expected);
  });
});
