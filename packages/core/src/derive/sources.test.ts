import { describe, expect, it } from 'vitest';
import { hostCategory, sourceCategory } from './sources.js';

describe('sourceCategory', () => {
  it.each([
    // hosts from the package, exact and by parent domain
    ['google.com', 'search'],
    ['www.google.com', 'search'],
    ['google.co.uk', 'search'],
    ['news.google.com', 'search'],
    ['m.facebook.com', 'social'],
    ['l.instagram.com', 'social'],
    ['www.youtube.com', 'social'],
    ['mail.google.com', 'email'],
    ['ad.doubleclick.net', 'ads'],
    // hosts the package marks as uncategorised, and supplement entries
    ['maps.google.com', null],
    ['docs.google.com', null],
    ['chatgpt.com', 'ai'],
    ['gemini.google.com', 'ai'],
    ['tiktok.com', 'social'],
    // source names, case-insensitive, with or without punctuation
    ['Google', 'search'],
    ['facebook', 'social'],
    ['Yahoo', 'search'],
    ['hackernews', 'social'],
    ['fb', 'social'],
    ['meta', 'social'],
    ['chatgpt', 'ai'],
    ['newsletter', 'email'],
    ['google_ads', 'search'],
    // unknown
    ['weekly-digest', null],
    ['example.org', null],
    ['', null],
  ])('%j -> %s', (value, category) => {
    expect(sourceCategory(value)).toBe(category);
  });
});

describe('hostCategory', () => {
  it('never matches a bare top-level domain', () => {
    expect(hostCategory('com')).toBeNull();
    expect(hostCategory('example.com')).toBeNull();
  });
});
