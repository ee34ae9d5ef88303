import { describe, expect, it } from 'vitest';
import { adClick, CLICK_ID_PARAMS, clickedOnCategory, type AdKind, type ClickIds } from './click-ids.js';
import { matchHost } from './sources.js';

/** [what the case shows, click ids, referring host or null, expected ad click]. */
const CASES: [string, ClickIds, string | null, AdKind | null][] = [
  // no referrer: apps and strict referrer policies send none, so the click id holds
  ['gclid, no referrer', { gclid: 'x' }, null, 'search'],
  ['gbraid (iOS), no referrer', { gbraid: 'x' }, null, 'search'],
  ['wbraid (iOS), no referrer', { wbraid: 'x' }, null, 'search'],
  ['gad_source alone (Safari stripped gclid)', { gad_source: '1' }, null, 'search'],
  ['msclkid, no referrer', { msclkid: 'x' }, null, 'search'],
  ['yclid, no referrer', { yclid: 'x' }, null, 'search'],
  ['dclid (Display & Video 360), no referrer', { dclid: 'x' }, null, 'display'],
  ['ttclid, no referrer', { ttclid: 'x' }, null, 'social'],
  ['li_fat_id, no referrer', { li_fat_id: 'x' }, null, 'social'],
  ['twclid, no referrer', { twclid: 'x' }, null, 'social'],
  ['ScCid, no referrer', { ScCid: 'x' }, null, 'social'],
  ['epik, no referrer', { epik: 'x' }, null, 'social'],
  ['rdt_cid, no referrer', { rdt_cid: 'x' }, null, 'social'],
  ['fbclid is on every Facebook link, never an ad click', { fbclid: 'x' }, null, null],
  ['an empty click id is absent', { gclid: '' }, null, null],
  // the platform's own sites
  ['gclid from Google', { gclid: 'x' }, 'google.co.uk', 'search'],
  ['gclid from the Google app', { gclid: 'x' }, 'com.google.android.googlequicksearchbox', 'search'],
  ['gclid from YouTube (the rules make it Paid Social)', { gclid: 'x' }, 'm.youtube.com', 'search'],
  ['gclid from a Google ad frame (the rules make it Display)', { gclid: 'x' }, '2bb5cd7f.safeframe.googlesyndication.com', 'search'],
  ['msclkid from Bing', { msclkid: 'x' }, 'bing.com', 'search'],
  ['msclkid from MSN', { msclkid: 'x' }, 'ntp.msn.com', 'search'],
  ['yclid from Yandex', { yclid: 'x' }, 'yandex.com.tr', 'search'],
  ['ttclid from TikTok', { ttclid: 'x' }, 'tiktok.com', 'social'],
  ['ttclid from the TikTok app', { ttclid: 'x' }, 'com.zhiliaoapp.musically', 'social'],
  ['li_fat_id from LinkedIn', { li_fat_id: 'x' }, 'lnkd.in', 'social'],
  ['rdt_cid from Reddit', { rdt_cid: 'x' }, 'old.reddit.com', 'social'],
  // a site no list knows: a publisher showing the platform's ads
  ['gclid from an unknown site', { gclid: 'x' }, 'recipes.example', 'search'],
  ['ttclid from an unknown site', { ttclid: 'x' }, 'news.example', 'social'],
  // a known source of someone else: the link was copied there, the referrer decides
  ['gclid from Bing', { gclid: 'x' }, 'bing.com', null],
  ['gclid from DuckDuckGo', { gclid: 'x' }, 'duckduckgo.com', null],
  ['gclid from Facebook', { gclid: 'x' }, 'l.facebook.com', null],
  ['gclid from ChatGPT', { gclid: 'x' }, 'chatgpt.com', null],
  ['msclkid from Google', { msclkid: 'x' }, 'google.com', null],
  ['msclkid from DuckDuckGo', { msclkid: 'x' }, 'duckduckgo.com', null],
  ['msclkid from a Google ad frame', { msclkid: 'x' }, 'ad.doubleclick.net', null],
  ['yclid from Google', { yclid: 'x' }, 'google.ru', null],
  ['ttclid from Instagram', { ttclid: 'x' }, 'l.instagram.com', null],
  ['rdt_cid from a look-alike is from an unknown site', { rdt_cid: 'x' }, 'reddit.tk', 'social'],
  // several click ids: the first that holds, in table order
  ['gclid and msclkid from Bing: the msclkid holds', { gclid: 'x', msclkid: 'y' }, 'bing.com', 'search'],
  ['gclid and ttclid from TikTok: the ttclid holds', { gclid: 'x', ttclid: 'y' }, 'tiktok.com', 'social'],
  ['gclid and ttclid, no referrer: gclid comes first', { gclid: 'x', ttclid: 'y' }, null, 'search'],
  ['fbclid and ttclid from Facebook: neither holds', { fbclid: 'x', ttclid: 'y' }, 'm.facebook.com', null],
];

describe('adClick', () => {
  it.each(CASES)('%s', (_what, clickIds, referrer, expected) => {
    expect(adClick(clickIds, referrer === null ? null : matchHost(referrer))).toBe(expected);
  });

  it('has no click ids, no ad click', () => {
    expect(adClick(undefined, null)).toBeNull();
    expect(adClick({}, null)).toBeNull();
  });

  it('has a case for every click id without a referrer', () => {
    const alone = CASES.filter(([, ids, referrer]) => referrer === null && Object.keys(ids).length === 1).map(([, ids]) => Object.keys(ids)[0]);
    expect(new Set(alone)).toEqual(new Set(CLICK_ID_PARAMS));
  });
});

describe('clickedOnCategory', () => {
  it('is the first click id\'s platform kind as a source category', () => {
    expect(clickedOnCategory({ fbclid: 'x' })).toBe('social');
    expect(clickedOnCategory({ dclid: 'x' })).toBe('ads');
    expect(clickedOnCategory({ msclkid: 'x', fbclid: 'y' })).toBe('search');
    expect(clickedOnCategory({ fbclid: '' })).toBeNull();
    expect(clickedOnCategory(undefined)).toBeNull();
  });
});
