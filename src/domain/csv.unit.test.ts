import { describe, expect, it } from 'vitest';
import { CsvReader, csvCell, parseCsv, toCsv } from './csv.js';

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

  it('reads a text in pieces as it reads it whole, cut anywhere: inside a quote, between a doubled quote, between CR and LF', () => {
    const text = '\uFEFFawb,note\r\n"SFX1","a ""b""\r\nc"\r\n\r\nSFX2,d\re\n"open';
    const whole = parseCsv(text);
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= text.length; second += 3) {
        const records: { line: number; fields: string[] }[] = [];
        const reader = new CsvReader((record) => records.push(record));
        reader.push(text.slice(0, cut));
        reader.push(text.slice(cut, second));
        reader.push(text.slice(second));
        expect({ records, ...reader.end() }).toEqual(whole);
      }
    }
    expect(whole).toEqual({
      records: [
        { line: 1, fields: ['awb', 'note'] },
        { line: 2, fields: ['SFX1', 'a "b"\r\nc'] },
        { line: 5, fields: ['SFX2', 'd'] },
        { line: 6, fields: ['e'] },
      ],
      unclosedQuoteLine: 7,
    });
  });
});
