import { describe, expect, it } from 'vitest';
import { adPlatformCategory } from './ad-platforms.js';

describe('adPlatformCategory', () => {
  it.each([
    // a network's name beside an ad word, in any spelling
    ['google_ads', 'search'],
    ['Google-Ads', 'search'],
    ['Microsoft Ads', 'search'],
    ['facebook-ads', 'social'],
    ['fb_ad', 'social'],
    ['meta_ads', 'social'],
    ['ig-paid', 'social'],
    ['tiktok ads', 'social'],
    ['linkedin-sponsored', 'social'],
    ['reddit_promoted', 'social'],
    ['youtube_ads', 'video'],
    ['ads.tiktok.com', 'social'],
    // one word: <network>ads or <network>ad
    ['bingads', 'search'],
    ['facebookads', 'social'],
    ['fbad', 'social'],
    ['YTads', 'video'], // yt: YouTube's shorthand (source-supplement.ts)
    ['yt-ads', 'video'],
    // listed by name
    ['adwords', 'search'],
    ['Yandex Direct', 'search'],
    // not ad platforms
    ['google', null],
    ['facebook', null],
    ['newsletter', null],
    ['ads', null],
    ['spring-ads', null],
    ['adventure', null],
    ['ipad', null], // ip names no network
    ['thread', null],
    ['', null],
  ])('%j -> %s', (value, network) => {
    expect(adPlatformCategory(value)).toBe(network);
  });
});
