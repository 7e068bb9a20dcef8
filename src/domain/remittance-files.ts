import { formatDay, type IndiaDay, parseDay } from './calendar.js';
import { parseCsv } from './csv.js';

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
  problems: LineProblem[];
}

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
 * Checks every line of a file and reports each bad one with its line number and reason; the good
 * ones are returned to be applied. `today`: a remittance dated later has not happened.
 */
export function parseRemittanceFile(text: string, today: IndiaDay): ParsedRemittanceFile {
  const { records, unclosedQuoteLine } = parseCsv(text);
  const [header, ...rows] = records;
  if (!header)
    throw new RemittanceFileError('the file is empty: it needs a header line and at least one remittance line');
  const { format, columns } = detectFormat(header.fields);
  if (rows.length === 0 && unclosedQuoteLine === null)
    throw new RemittanceFileError('the file has a header but no remittance lines');
  const lines: RemittanceLine[] = [];
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    const cell = (i: number) => (fields[i] ?? '').trim();
    const awb = cell(columns.awb);
    const reasons: string[] = [];
    if (awb === '') reasons.push('awb is empty');
    else if (awb.length > 64) reasons.push('awb is longer than 64 characters');
    const amountText = cell(columns.amount);
    const amountPaise = amountToPaise(amountText);
    if (amountPaise === null)
      reasons.push(`amount "${amountText}" is not rupees with at most two decimals (e.g. 1499.50)`);
    else if (amountPaise === 0) reasons.push('amount must be more than 0');
    else if (amountPaise > MAX_PAISE) reasons.push('amount is above ₹1,00,00,000');
    const utr = cell(columns.utr).toUpperCase();
    if (!UTR.test(utr)) reasons.push(`utr "${cell(columns.utr)}" must be 1 to 40 letters and digits`);
    const dateText = cell(columns.date);
    const date = remittanceDay(dateText);
    if (date === null)
      reasons.push(`remittance_date "${dateText}" is not a date (YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY)`);
    else if (date > today) reasons.push(`remittance_date ${formatDay(date)} is in the future`);
    if (reasons.length === 0) {
      const key = `${utr}\n${awb}`;
      const first = seen.get(key);
      if (first !== undefined) reasons.push(`repeats line ${first} (the same utr and awb)`);
      else seen.set(key, line);
    }
    if (reasons.length > 0) problems.push({ line, awb: awb || null, reason: reasons.join('; ') });
    else lines.push({ line, awb, amountPaise: amountPaise!, utr, date: date! });
  }
  if (unclosedQuoteLine !== null)
    problems.push({ line: unclosedQuoteLine, awb: null, reason: 'a quoted field opened here is never closed' });
  return { format, lines, problems };
}
