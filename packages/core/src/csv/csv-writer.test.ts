import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv-writer.js';

/** The bytes of a text as UTF-8, to compare with hand-written bytes. */
const bytes = (text: string) => [...Buffer.from(text, 'utf8')];

describe('toCsv', () => {
  it('writes a header and records ended by CRLF', () => {
    expect(toCsv(['url', 'pageviews'], [['/a', 3], ['/b', 0]])).toBe('url,pageviews\r\n/a,3\r\n/b,0\r\n');
  });

  it('quotes fields holding a quote, comma, CR or LF and doubles quotes', () => {
    const text = toCsv(['v'], [['say "hi"'], ['a,b'], ['line\nbreak'], ['cr\rhere'], ['plain']]);
    expect(text).toBe('v\r\n"say ""hi"""\r\n"a,b"\r\n"line\nbreak"\r\n"cr\rhere"\r\nplain\r\n');
  });

  it('neutralises formula starts in text with a leading quote mark, quoting after', () => {
    expect(['=SUM(A1)', '+1', '-1', '@x', '\tx', '\rx', "'kept", 'a=b'].map(csvField)).toEqual([
      "'=SUM(A1)", "'+1", "'-1", "'@x", "'\tx", "\"'\rx\"", "'kept", 'a=b',
    ]);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('writes numbers as numbers (negative ones included) and absent values as empty', () => {
    expect(toCsv(['a', 'b', 'c', 'd'], [[-2.5, 0, null, undefined]])).toBe('a,b,c,d\r\n-2.5,0,,\r\n');
  });

  it('encodes non-ASCII text as UTF-8 without a byte-order mark', () => {
    expect(bytes(toCsv(['source'], [['zürich.ch'], ['例え']]))).toEqual([
      0x73, 0x6f, 0x75, 0x72, 0x63, 0x65, 0x0d, 0x0a, // source CRLF
      0x7a, 0xc3, 0xbc, 0x72, 0x69, 0x63, 0x68, 0x2e, 0x63, 0x68, 0x0d, 0x0a, // zürich.ch CRLF
      0xe4, 0xbe, 0x8b, 0xe3, 0x81, 0x88, 0x0d, 0x0a, // 例え CRLF
    ]);
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['date', 'visitors'], [])).toBe('date,visitors\r\n');
  });
});
