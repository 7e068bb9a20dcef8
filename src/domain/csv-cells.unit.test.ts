import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.js';

describe('csvCell', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+91 98765 43210', "'+91 98765 43210"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTAB', "'\tTAB"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['two\nlines', '"two\nlines"'],
    ['a = b', 'a = b'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes numbers as numbers (a negative one included) and nothing for null', () => {
    expect([csvCell(-12.5), csvCell(0), csvCell(null), csvCell(true)]).toEqual(['-12.5', '0', '', 'true']);
  });

  it('ends every line with CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['=1', 2],
          [null, '@x'],
        ],
      ),
    ).toBe("a,b\r\n'=1,2\r\n,'@x\r\n");
  });
});

describe('parseCsv', () => {
  it('reads quoted cells across lines and numbers each record by the line it starts on', () => {
    expect(parseCsv('\uFEFFawb,weight\r\n"A,1","line\none"\r\n\r\nB,"say ""hi"""\n')).toEqual({
      records: [
        { line: 1, fields: ['awb', 'weight'] },
        { line: 2, fields: ['A,1', 'line\none'] },
        { line: 5, fields: ['B', 'say "hi"'] },
      ],
      unclosedQuoteLine: null,
    });
  });

  it('names the line of a quote left open, and reads nothing from blank lines', () => {
    expect(parseCsv('a\n"b\nc').unclosedQuoteLine).toBe(2);
    expect(parseCsv('\n\n')).toEqual({ records: [], unclosedQuoteLine: null });
  });
});
