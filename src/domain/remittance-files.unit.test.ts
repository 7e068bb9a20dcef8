import { describe, expect, it } from 'vitest';
import { formatDay, parseDay } from './calendar.js';
import { amountToPaise, parseRemittanceFile, RemittanceFileError, remittanceDay } from './remittance-files.js';

const today = parseDay('2026-11-30');

describe('remittance files', () => {
  it.each([
    ['998', 99_800],
    ['998.5', 99_850],
    ['998.05', 99_805],
    ['0.01', 1],
    ['1,23,456.78', 12_345_678],
    ['1,234.50', 123_450],
    ['4503599627370.49', 450_359_962_737_049],
  ])('reads the rupees %s as %i paise, exactly', (text, paise) => {
    expect(amountToPaise(text)).toBe(paise);
  });

  it.each(['', '12.345', '-5', '1e3', '₹10', '12,34', ',100', '1.', '.5', 'NaN'])('refuses the amount %j', (text) => {
    expect(amountToPaise(text)).toBeNull();
  });

  it.each([
    ['2026-11-27', '2026-11-27'],
    ['27-11-2026', '2026-11-27'],
    ['27/11/2026', '2026-11-27'],
    ['2026-11-27 10:30:00', '2026-11-27'],
  ])('reads the date %s', (text, day) => {
    expect(formatDay(remittanceDay(text)!)).toBe(day);
  });

  it.each(['2026-02-30', '11/27/2026', '27.11.2026', ''])('refuses the date %j', (text) => {
    expect(remittanceDay(text)).toBeNull();
  });

  it("maps Delhivery's column names, in any order and case, other columns ignored", () => {
    const file = 'Sr No,remittance date,UTR No,waybill,COD AMOUNT\n1,27-11-2026,utib123,DLS1,1499.50\n';
    expect(parseRemittanceFile(file, today)).toEqual({
      format: 'delhivery',
      lines: [{ line: 2, awb: 'DLS1', amountPaise: 149_950, utr: 'UTIB123', date: parseDay('2026-11-27') }],
      problems: [],
      problemCount: 0,
    });
  });

  it('reports every bad line with its number and every reason, and keeps the good ones', () => {
    const file = [
      'awb,amount,utr,remittance_date',
      'SFX1,998.00,UTR1,2026-11-27',
      ',12.345,UTR 2,2026-02-30',
      'SFX3,0,UTR3,2026-12-01',
      'SFX1,998.00,utr1,2026-11-27',
      'SFX4,10,UTR4,2026-11-27',
    ].join('\n');
    const parsed = parseRemittanceFile(file, today);
    expect(parsed.lines.map((l) => l.line)).toEqual([2, 6]);
    expect(parsed.problems).toEqual([
      {
        line: 3,
        awb: null,
        reason:
          'awb is empty; amount "12.345" is not rupees with at most two decimals (e.g. 1499.50); utr "UTR 2" must be 1 to 40 letters and digits; ' +
          'remittance_date "2026-02-30" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)',
      },
      { line: 4, awb: 'SFX3', reason: 'amount must be more than 0; remittance_date 2026-12-01 is in the future' },
      { line: 5, awb: 'SFX1', reason: 'repeats line 2 (the same utr and awb)' },
    ]);
  });

  it('refuses a file whose header matches no format, naming the formats, and an empty one', () => {
    expect(() => parseRemittanceFile('awb,cod,utr\nSFX1,1,U\n', today)).toThrow(RemittanceFileError);
    expect(() => parseRemittanceFile('awb,cod,utr\n', today)).toThrow(
      /dakiya: awb,amount,utr,remittance_date; delhivery: Waybill,COD Amount,UTR No,Remittance Date/,
    );
    expect(() => parseRemittanceFile('', today)).toThrow(/empty/);
    expect(() => parseRemittanceFile('awb,amount,utr,remittance_date\n', today)).toThrow(/no remittance lines/);
  });
});
