import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.js';

describe('CSV', () => {
  it.each([
    ['=HYPERLINK("http://x.test","click")', `"'=HYPERLINK(""http://x.test"",""click"")"`],
    ['+919812345678', "'+919812345678"],
    ['-47.50', "'-47.50"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['SFX0000000001', 'SFX0000000001'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['', ''],
  ])('writes the text %j as %s', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers, booleans and nulls as they are: a negative amount stays a number', () => {
    expect([csvCell(-47.5), csvCell(998), csvCell(true), csvCell(null)]).toEqual(['-47.5', '998', 'true', '']);
  });

  it('writes a header and rows, CRLF-terminated, and reads them back', () => {
    const text = toCsv(
      ['awb', 'note'],
      [
        ['SFX1', '=1+1'],
        ['SFX2', 'a, "b"'],
      ],
    );
    expect(text).toBe(`awb,note\r\nSFX1,'=1+1\r\nSFX2,"a, ""b"""\r\n`);
    expect(parseCsv(text).records.map((r) => r.fields)).toEqual([
      ['awb', 'note'],
      ['SFX1', "'=1+1"],
      ['SFX2', 'a, "b"'],
    ]);
  });

  it('numbers records by the line they start on, across quoted line breaks, blank lines and a byte-order mark', () => {
    const { records, unclosedQuoteLine } = parseCsv('\uFEFFa,b\n\n"x\ny",1\r\nz,2');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['x\ny', '1'] },
      { line: 5, fields: ['z', '2'] },
    ]);
    expect(unclosedQuoteLine).toBeNull();
  });

  it('reports a quote never closed by the line it opened on', () => {
    expect(parseCsv('a,b\n1,2\n"3,4\n5,6\n').unclosedQuoteLine).toBe(3);
  });
});
