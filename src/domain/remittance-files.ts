import { formatDay, type IndiaDay, parseDay } from './calendar.js';
import { CsvReader } from './csv.js';
import { echo, ProblemList } from './import-problems.js';

/**
 * Couriers' COD remittance files: one line per AWB paid, with the amount, the bank transfer's
 * reference (UTR) and its date. Each courier names its columns its own way; a format is the four
 * names, matched case-insensitively, other columns ignored.
 */
export const REMITTANCE_FORMATS = {
  dakiya: { awb: 'awb', amount: 'amount', utr: 'utr', date: 'remittance_date' },
  delhivery: { awb: 'Waybill', amount: 'COD Amount', utr: 'UTR No', date: 'Remittance Date' },
} as const;
export type RemittanceFormat = keyof typeof REMITTANCE_FORMATS;

/** A line as a courier wrote it, checked: amounts in paise, the date as India's calendar day. */
export interface RemittanceLine {
  line: number;
  awb: string;
  amountPaise: number;
  utr: string;
  date: IndiaDay;
}

export interface LineProblem {
  line: number;
  awb: string | null;
  reason: string;
}

export interface ParsedRemittanceFile {
  format: RemittanceFormat;
  lines: RemittanceLine[];
  /** The first bad lines (MAX_LISTED_PROBLEMS), in line order. */
  problems: LineProblem[];
  /** Every bad line, listed or not. */
  problemCount: number;
}

/**
 * Lines a file may hold: a large merchant's day with one courier (issue 30's benchmark takes
 * 50,000 in under 10 s). A longer file is refused whole as soon as its line past the limit is
 * read, before anything is applied.
 */
export const MAX_REMITTANCE_LINES = 50_000;

/** A whole file's problem (no format matches its header, no lines): nothing in it can be applied. */
export class RemittanceFileError extends Error {}

/**
 * Rupees with at most two decimals, digits grouped by commas in thousands (123,456.50) or the
 * Indian way (1,23,456.50) or not at all; exact paise from the text, never a float. 12,34 is
 * neither grouping (it may be a European 12.34) and is refused.
 */
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.(\d{1,2}))?$/;
const UTR = /^[A-Za-z0-9]{1,40}$/;
/** The largest amount a line may carry: ₹1 crore, far above any parcel's COD. */
const MAX_PAISE = 1_000_000_000;

export function amountToPaise(text: string): number | null {
  const match = AMOUNT.exec(text);
  if (!match) return null;
  const rupees = Number(match[1]!.replaceAll(',', ''));
  const paise = Number((match[2] ?? '').padEnd(2, '0'));
  const total = rupees * 100 + paise;
  return Number.isSafeInteger(total) ? total : null;
}

/** YYYY-MM-DD, or DD-MM-YYYY and DD/MM/YYYY as couriers' spreadsheets write dates; a time after it is dropped. */
export function remittanceDay(text: string): IndiaDay | null {
  const date = text.split(/[ T]/)[0]!;
  const dmy = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(date);
  try {
    return parseDay(dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : date);
  } catch {
    return null;
  }
}

function detectFormat(header: string[]): {
  format: RemittanceFormat;
  columns: Record<keyof (typeof REMITTANCE_FORMATS)['dakiya'], number>;
} {
  const names = header.map((name) => name.trim().toLowerCase());
  for (const [format, columns] of Object.entries(REMITTANCE_FORMATS) as [
    RemittanceFormat,
    (typeof REMITTANCE_FORMATS)[RemittanceFormat],
  ][]) {
    const at = {
      awb: names.indexOf(columns.awb.toLowerCase()),
      amount: names.indexOf(columns.amount.toLowerCase()),
      utr: names.indexOf(columns.utr.toLowerCase()),
      date: names.indexOf(columns.date.toLowerCase()),
    };
    if (Object.values(at).every((i) => i >= 0)) return { format, columns: at };
  }
  const known = Object.entries(REMITTANCE_FORMATS).map(
    ([name, c]) => `${name}: ${[c.awb, c.amount, c.utr, c.date].join(',')}`,
  );
  throw new RemittanceFileError(
    `the header names no known remittance format; the columns must include those of one of ${known.join('; ')}`,
  );
}

/**
 * Reads a file as it arrives (`push` each piece of text, then `end`): checks every line and keeps
 * the good ones to be applied; the bad ones are counted and the first ones kept with their line
 * number and reason. `today`: a remittance dated later has not happened. A whole file's problem
 * (no format, no lines, too many lines) is thrown as a RemittanceFileError, the line limit's as
 * soon as it is passed.
 */
export function readRemittanceFile(today: IndiaDay) {
  let header: ReturnType<typeof detectFormat> | null = null;
  let count = 0;
  const lines: RemittanceLine[] = [];
  const problems = new ProblemList<LineProblem>();
  const seen = new Map<string, number>();
  const reader = new CsvReader(({ line, fields }) => {
    if (header === null) {
      header = detectFormat(fields);
      return;
    }
    if (++count > MAX_REMITTANCE_LINES)
      throw new RemittanceFileError(
        `a remittance file holds at most ${MAX_REMITTANCE_LINES.toLocaleString('en-IN')} lines; this one has more ` +
          `(line ${line} is past the limit): split it, each part may be sent on its own`,
      );
    const checked = checkLine(header.columns, line, fields, today, seen);
    if ('reason' in checked) problems.add(checked);
    else lines.push(checked);
  });
  return {
    push: (text: string) => reader.push(text),
    end(): ParsedRemittanceFile {
      const { unclosedQuoteLine } = reader.end();
      if (header === null)
        throw new RemittanceFileError('the file is empty: it needs a header line and at least one remittance line');
      if (count === 0 && unclosedQuoteLine === null)
        throw new RemittanceFileError('the file has a header but no remittance lines');
      if (unclosedQuoteLine !== null)
        problems.add({ line: unclosedQuoteLine, awb: null, reason: 'a quoted field opened here is never closed' });
      return { format: header.format, lines, problems: problems.listed(), problemCount: problems.count };
    },
  };
}

/** One line checked: what it pays, or every reason it cannot be taken (values quoted at most 200 characters). */
function checkLine(
  columns: ReturnType<typeof detectFormat>['columns'],
  line: number,
  fields: string[],
  today: IndiaDay,
  seen: Map<string, number>,
): RemittanceLine | LineProblem {
  const cell = (i: number) => (fields[i] ?? '').trim();
  const awb = cell(columns.awb);
  const reasons: string[] = [];
  if (awb === '') reasons.push('awb is empty');
  else if (awb.length > 64) reasons.push('awb is longer than 64 characters');
  const amountText = cell(columns.amount);
  const amountPaise = amountToPaise(amountText);
  if (amountPaise === null)
    reasons.push(`amount "${echo(amountText)}" is not rupees with at most two decimals (e.g. 1499.50)`);
  else if (amountPaise === 0) reasons.push('amount must be more than 0');
  else if (amountPaise > MAX_PAISE) reasons.push('amount is above ₹1,00,00,000');
  const utr = cell(columns.utr).toUpperCase();
  if (!UTR.test(utr)) reasons.push(`utr "${echo(cell(columns.utr))}" must be 1 to 40 letters and digits`);
  const dateText = cell(columns.date);
  const date = remittanceDay(dateText);
  if (date === null)
    reasons.push(`remittance_date "${echo(dateText)}" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)`);
  else if (date > today) reasons.push(`remittance_date ${formatDay(date)} is in the future`);
  if (reasons.length === 0) {
    const key = `${utr}\n${awb}`;
    const first = seen.get(key);
    if (first !== undefined) reasons.push(`repeats line ${first} (the same utr and awb)`);
    else seen.set(key, line);
  }
  if (reasons.length > 0) return { line, awb: awb ? echo(awb) : null, reason: reasons.join('; ') };
  return { line, awb, amountPaise: amountPaise!, utr, date: date! };
}

/** A whole file at once (the tests' and small callers' way): readRemittanceFile over one piece. */
export function parseRemittanceFile(text: string, today: IndiaDay): ParsedRemittanceFile {
  const reader = readRemittanceFile(today);
  reader.push(text);
  return reader.end();
}
