import { describe, expect, it } from 'vitest';
import { FileRefused } from '../../base/threads/file-refused.js';
import { parseDay } from '../../domain/calendar.js';
import { startParse, unpackLines } from './remittance-parser.js';

// The remittance file's parser as the import's thread runs it (remittance-parser.ts over the
// domain's reader): which lines a courier's file may pay with, every bad line named by its line
// number and column, and the whole-file refusals. What the ledger does with the lines is
// cod-ledger-rules.test.ts's.

/** The India day the import runs on: a remittance dated after it has not happened. */
const TODAY = parseDay('2026-11-28');
const HEADER = 'awb,amount,utr,remittance_date\n';

function parse(text: string, pieces = 1) {
  const parser = startParse({ today: TODAY });
  const size = Math.ceil(text.length / pieces);
  for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
  return parser.end();
}

async function linesOf(text: string) {
  const file = parse(text);
  return (await unpackLines(file)).map((l) => ({ ...l, date: l.date - TODAY }));
}

describe('lines a file may pay with', () => {
  it.each([
    ['whole rupees', '1499', 149900],
    ['paise', '998.50', 99850],
    ['one decimal', '998.5', 99850],
    ['thousands grouped', '123,456.50', 12345650],
    ['grouped the Indian way', '1,23,456.50', 12345650],
    ['a paisa', '0.01', 1],
    ['the ₹1 crore ceiling', '1,00,00,000', 1_000_000_000],
  ])('an amount in %s: %s is %i paise', async (_name, amount, paise) => {
    expect(await linesOf(`${HEADER}SFX1,"${amount}",UTR1,2026-11-27\n`)).toEqual([
      { line: 2, awb: 'SFX1', amountPaise: paise, utr: 'UTR1', date: -1 },
    ]);
  });

  it.each([
    ['ISO', '2026-11-27', -1],
    ['day first with dashes', '27-11-2026', -1],
    ['day first with slashes', '27/11/2026', -1],
    ['with a time after it', '2026-11-28T23:59:00', 0],
    ['today itself', '28/11/2026 10:00', 0],
  ])('a date written %s (%s)', async (_name, date, offset) => {
    const [line] = await linesOf(`${HEADER}SFX1,10,UTR1,${date}\n`);
    expect(line!.date).toBe(offset);
  });

  it("reads Delhivery's columns in any case and order, ignoring others; the UTR upper-cased, cells trimmed", async () => {
    const file = parse(
      'Remarks,utr no,WAYBILL,cod amount,REMITTANCE DATE\r\nweekly, hdfc000777 , DL1 ,"1,500.00",25/11/2026\r\n',
    );
    expect(file.format).toBe('delhivery');
    expect(await unpackLines(file)).toEqual([
      { line: 2, awb: 'DL1', amountPaise: 150000, utr: 'HDFC000777', date: parseDay('2026-11-25') },
    ]);
  });

  it('reads the same file pushed in pieces as whole', async () => {
    const text = `${HEADER}${Array.from({ length: 40 }, (_, i) => `SFX${i},${i + 1}.25,UTR${i},2026-11-27`).join('\n')}\n`;
    expect(await unpackLines(parse(text, 7))).toEqual(await unpackLines(parse(text)));
    expect((await unpackLines(parse(text, 7))).reduce((sum, l) => sum + l.amountPaise, 0)).toBe(82000 + 40 * 25);
  });
});

describe('bad lines, named by line and column', () => {
  const long = 'X'.repeat(65);
  it.each([
    ['an empty awb', ',10,UTR1,2026-11-27', null, 'awb is empty'],
    ['an awb over 64 characters', `${long},10,UTR1,2026-11-27`, long, 'awb is longer than 64 characters'],
    [
      'letters for digits',
      'SFX1,6OO,UTR1,2026-11-27',
      'SFX1',
      'amount "6OO" is not rupees with at most two decimals (e.g. 1499.50)',
    ],
    [
      'a European decimal comma',
      'SFX1,"12,34",UTR1,2026-11-27',
      'SFX1',
      'amount "12,34" is not rupees with at most two decimals (e.g. 1499.50)',
    ],
    [
      'three decimals',
      'SFX1,1.005,UTR1,2026-11-27',
      'SFX1',
      'amount "1.005" is not rupees with at most two decimals (e.g. 1499.50)',
    ],
    [
      'a negative amount',
      'SFX1,-10,UTR1,2026-11-27',
      'SFX1',
      'amount "-10" is not rupees with at most two decimals (e.g. 1499.50)',
    ],
    ['nothing paid', 'SFX1,0.00,UTR1,2026-11-27', 'SFX1', 'amount must be more than 0'],
    ['a paisa over ₹1 crore', 'SFX1,10000000.01,UTR1,2026-11-27', 'SFX1', 'amount is above ₹1,00,00,000'],
    ['a UTR with a dash', 'SFX1,10,UTR-1,2026-11-27', 'SFX1', 'utr "UTR-1" must be 1 to 40 letters and digits'],
    ['an empty UTR', 'SFX1,10,,2026-11-27', 'SFX1', 'utr "" must be 1 to 40 letters and digits'],
    [
      'a UTR over 40 characters',
      `SFX1,10,${'U'.repeat(41)},2026-11-27`,
      'SFX1',
      `utr "${'U'.repeat(41)}" must be 1 to 40 letters and digits`,
    ],
    [
      'no such day',
      'SFX1,10,UTR1,2026-02-30',
      'SFX1',
      'remittance_date "2026-02-30" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)',
    ],
    [
      'month first',
      'SFX1,10,UTR1,11/27/2026',
      'SFX1',
      'remittance_date "11/27/2026" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)',
    ],
    ['tomorrow', 'SFX1,10,UTR1,2026-11-29', 'SFX1', 'remittance_date 2026-11-29 is in the future'],
  ])('%s', (_name, line, awb, reason) => {
    const file = parse(`${HEADER}SFX0,10,UTR0,2026-11-27\n${line}\n`);
    expect(file.problems).toEqual([{ line: 3, awb, reason }]);
    expect(file.problemCount).toBe(1);
    expect(Array.from(file.line)).toEqual([2]);
  });

  it("every fault of a line in one reason, in the columns' order", () => {
    expect(parse(`${HEADER},0,UTR-1,tomorrow\n`).problems).toEqual([
      {
        line: 2,
        awb: null,
        reason:
          'awb is empty; amount must be more than 0; utr "UTR-1" must be 1 to 40 letters and digits; ' +
          'remittance_date "tomorrow" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)',
      },
    ]);
  });

  it('a UTR and AWB repeated in one file names the first line; the same UTR for other AWBs is one transfer', async () => {
    const file = parse(`${HEADER}SFX1,10,UTR1,2026-11-27\nSFX2,20,UTR1,2026-11-27\nSFX1,10,utr1,2026-11-26\n`);
    expect(file.problems).toEqual([{ line: 4, awb: 'SFX1', reason: 'repeats line 2 (the same utr and awb)' }]);
    expect((await unpackLines(file)).map((l) => [l.line, l.awb, l.utr])).toEqual([
      [2, 'SFX1', 'UTR1'],
      [3, 'SFX2', 'UTR1'],
    ]);
  });

  it('a quote never closed is a problem on the line it opened, the lines before it kept', () => {
    const file = parse(`${HEADER}SFX1,10,UTR1,2026-11-27\nSFX2,"20,UTR2,2026-11-27\nSFX3,30,UTR3,2026-11-27\n`);
    expect(file.problems).toEqual([{ line: 3, awb: null, reason: 'a quoted field opened here is never closed' }]);
    expect(Array.from(file.line)).toEqual([2]);
  });

  it('counts every bad line and lists the first 100 by line', () => {
    const bad = Array.from({ length: 150 }, (_, i) => `SFX${i},0,UTR${i},2026-11-27`).join('\n');
    const file = parse(`${HEADER}${bad}\n`);
    expect(file.problemCount).toBe(150);
    expect(file.problems.map((p) => p.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
  });
});

describe('files refused whole', () => {
  it.each([
    [
      'a header of no known format',
      'tracking,value\nSFX1,10\n',
      'the header names no known remittance format; the columns must include those of one of dakiya: awb,amount,utr,remittance_date; delhivery: Waybill,COD Amount,UTR No,Remittance Date',
    ],
    ['a header missing one column', 'awb,amount,utr\nSFX1,10,UTR1\n', 'the header names no known remittance format'],
    ['an empty file', '', 'the file is empty: it needs a header line and at least one remittance line'],
    ['a header alone', HEADER, 'the file has a header but no remittance lines'],
  ])('%s', (_name, text, message) => {
    const refusal = (() => {
      try {
        parse(text);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(FileRefused);
    expect((refusal as FileRefused).message).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('a file past 50,000 lines is refused as soon as the line past the limit is read', () => {
    const parser = startParse({ today: TODAY });
    parser.push(HEADER);
    parser.push('SFX1,10,UTR1,2026-11-27\n'.repeat(50_000));
    expect(() => parser.push('SFX1,10,UTR1,2026-11-27\n')).toThrow(
      new FileRefused(
        'a remittance file holds at most 50,000 lines; this one has more (line 50002 is past the limit): split it, each part may be sent on its own',
      ),
    );
  });
});
