import { describe, expect, it } from 'vitest';
import { CAMPAIGN_PARAM_NAMES, parsePageUrl, type PageUrl } from './url.js';

const CASES: [string, string, PageUrl][] = [
  ['bare path', '/pricing', { host: null, path: '/pricing', params: {} }],
  ['full URL, host lower-cased', 'https://Shop.Example.com/pricing', { host: 'shop.example.com', path: '/pricing', params: {} }],
  ['query and fragment removed', '/pricing?plan=pro#faq', { host: null, path: '/pricing', params: {} }],
  ['trailing slash kept', 'https://example.com/blog/', { host: 'example.com', path: '/blog/', params: {} }],
  ['host only gives /', 'https://example.com', { host: 'example.com', path: '/', params: {} }],
  ['host with query gives /', 'https://example.com?utm_source=x', { host: 'example.com', path: '/', params: { utm_source: 'x' } }],
  ['user info and port dropped from host', 'http://me:pw@example.com:8080/a', { host: 'example.com', path: '/a', params: {} }],
  ['percent-encoding kept', '/caf%C3%A9', { host: null, path: '/caf%C3%A9', params: {} }],
  ['raw non-ASCII kept', '/café', { host: null, path: '/café', params: {} }],
  ['lower-case percent-encoding not normalised', '/a%2fb', { host: null, path: '/a%2fb', params: {} }],
  ['double slash is a path, not a host', '//a/b', { host: null, path: '//a/b', params: {} }],
  ['surrounding whitespace ignored', '  /x  ', { host: null, path: '/x', params: {} }],
  ['empty', '', { host: null, path: '/', params: {} }],
  ['garbage', 'not a url', { host: null, path: '/', params: {} }],
  ['relative path without slash is garbage', 'pricing', { host: null, path: '/', params: {} }],
  ['scheme without host', 'http://', { host: null, path: '/', params: {} }],
  ['space in host is garbage', 'http://exa mple.com/x?utm_source=y', { host: null, path: '/', params: {} }],
  ['query only', '?utm_source=x', { host: null, path: '/', params: { utm_source: 'x' } }],
];

describe('parsePageUrl', () => {
  it.each(CASES)('%s', (_what, url, expected) => {
    expect(parsePageUrl(url)).toEqual(expected);
  });

  it('reads the UTM tags and the click ids together', () => {
    const url = '/p?utm_source=news&utm_medium=email&utm_campaign=spring&gclid=G1&msclkid=M1&fbclid=F1&gad_source=1&other=1';
    expect(parsePageUrl(url).params).toEqual({
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
      gclid: 'G1',
      msclkid: 'M1',
      fbclid: 'F1',
      gad_source: '1',
    });
  });

  it('reads every platform\'s click id, as the platform spells it', () => {
    const url = '/p?dclid=D&gbraid=GB&wbraid=WB&yclid=Y&ttclid=T&li_fat_id=L&twclid=W&ScCid=S&epik=E&rdt_cid=R&sccid=lower';
    expect(parsePageUrl(url).params).toEqual({ dclid: 'D', gbraid: 'GB', wbraid: 'WB', yclid: 'Y', ttclid: 'T', li_fat_id: 'L', twclid: 'W', ScCid: 'S', epik: 'E', rdt_cid: 'R' });
  });

  it('reads a Bing ad click whose only parameter is msclkid (the pre-check once skipped it)', () => {
    expect(parsePageUrl('https://site.example/?msclkid=8f3c').params).toEqual({ msclkid: '8f3c' });
  });

  it('reads a Google Ads click whose only parameter is gad_source (Safari strips gclid)', () => {
    expect(parsePageUrl('https://site.example/shoes?gad_source=1').params).toEqual({ gad_source: '1' });
  });

  it.each(CAMPAIGN_PARAM_NAMES)('reads %s when it is the only parameter', (name) => {
    expect(parsePageUrl(`/p?${name}=v`).params).toEqual({ [name]: 'v' });
  });

  it('keeps a name whose first value is empty absent, as URLSearchParams.get reads it', () => {
    expect(parsePageUrl('/p?gclid=&gclid=second&utm_source=a').params).toEqual({ utm_source: 'a' });
  });

  it('decodes values as URLSearchParams does, keeps the first, drops empty ones', () => {
    expect(parsePageUrl('/p?utm_source=a+b%26c&utm_source=second&utm_medium=&utm%5Fcampaign=x').params).toEqual({
      utm_source: 'a b&c',
      utm_campaign: 'x',
    });
  });

  it('ignores parameters in the fragment and keys in other cases', () => {
    expect(parsePageUrl('/p#?utm_source=x').params).toEqual({});
    expect(parsePageUrl('/p?UTM_SOURCE=x').params).toEqual({});
  });

  it('never throws on malformed input', () => {
    for (const input of ['%', '/%E0%A4%A', 'http://[::1', '::::', '\u0000', undefined, null, 42]) {
      expect(() => parsePageUrl(input as string)).not.toThrow();
    }
    expect(parsePageUrl(undefined as unknown as string)).toEqual({ host: null, path: '/', params: {} });
    // URLSearchParams rules: a malformed escape stays as written, broken UTF-8 becomes U+FFFD.
    expect(parsePageUrl('/p?utm_source=50%zz&utm_medium=%E0%A4').params).toEqual({
      utm_source: '50%zz',
      utm_medium: '\uFFFD',
    });
  });
});
