import { parseCsv } from '../../domain/csv.js';
import { roundHalfUp } from '../../domain/money.js';

/**
 * A courier's weight report: Dakiya's own columns (`awb,charged_weight_g`, and `length_cm`,
 * `breadth_cm`, `height_cm` when the courier measured the parcel) or a courier's names for them
 * (Delhivery's `Waybill`, `Charged Weight`, `Length`, `Breadth`, `Height`). Header names are read
 * without regard to case, spaces or a unit in brackets. Weights are grams, dimensions centimetres.
 */
const COLUMNS = {
  awb: ['awb', 'waybill', 'waybill no', 'awb number', 'awb no', 'tracking number'],
  weight: [
    'charged_weight_g',
    'charged weight',
    'charged_weight',
    'charged weight g',
    'charged weight gm',
    'charged weight grams',
  ],
  length: ['length_cm', 'length', 'length cm'],
  breadth: ['breadth_cm', 'breadth', 'width', 'breadth cm', 'width cm'],
  height: ['height_cm', 'height', 'height cm'],
} as const;
type Column = keyof typeof COLUMNS;

/** 10,000 rows a file: a courier's weekly report for a large merchant, inside one transaction. */
export const MAX_REPORT_ROWS = 10_000;
const MAX_WEIGHT_GRAMS = 1_000_000;
const MAX_SIDE_CM = 1_000;

export interface ReportRow {
  line: number;
  awb: string;
  chargedWeightGrams: number;
  dimensions: { lengthCm: number; breadthCm: number; heightCm: number } | null;
}

export interface RowProblem {
  line: number;
  awb: string | null;
  message: string;
}

const normalise = (name: string) =>
  name
    .toLowerCase()
    .replace(/[()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function positive(raw: string | undefined, max: number): number | null {
  const text = (raw ?? '').trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  return value > 0 && value <= max ? roundHalfUp(value, 2) : null;
}

/** The file's rows, or why the whole file cannot be read (no header it understands, too many rows). */
export function readWeightReport(text: string): { rows: ReportRow[]; problems: RowProblem[] } | { problem: string } {
  const parsed = parseCsv(text);
  if (parsed.unclosedQuoteLine !== null)
    return { problem: `a quoted cell opened on line ${parsed.unclosedQuoteLine} is never closed` };
  const [head, ...records] = parsed.records;
  if (!head) return { problem: 'the file is empty: it needs a header line' };
  const index: Partial<Record<Column, number>> = {};
  head.fields.forEach((name, i) => {
    const found = (Object.keys(COLUMNS) as Column[]).find((column) =>
      (COLUMNS[column] as readonly string[]).includes(normalise(name)),
    );
    if (found && index[found] === undefined) index[found] = i;
  });
  if (index.awb === undefined || index.weight === undefined) {
    return {
      problem:
        'the header must name an AWB column (awb or Waybill) and a charged weight column (charged_weight_g or Charged Weight), in grams',
    };
  }
  if (records.length > MAX_REPORT_ROWS)
    return { problem: `a report holds at most ${MAX_REPORT_ROWS} rows; this one has ${records.length}` };
  const rows: ReportRow[] = [];
  const problems: RowProblem[] = [];
  const seen = new Map<string, number>();
  const dimensionColumns = [index.length, index.breadth, index.height];
  for (const { line, fields: cells } of records) {
    const awb = (cells[index.awb] ?? '').trim();
    const fail = (message: string) => problems.push({ line, awb: awb || null, message });
    if (!awb || awb.length > 64) {
      fail('awb must be 1 to 64 characters');
      continue;
    }
    const weight = positive(cells[index.weight], MAX_WEIGHT_GRAMS);
    if (weight === null) {
      fail(
        `charged weight must be a number of grams above 0 and at most ${MAX_WEIGHT_GRAMS}, got "${cells[index.weight] ?? ''}"`,
      );
      continue;
    }
    const sides = dimensionColumns.map((i) => (i === undefined ? '' : (cells[i] ?? '').trim()));
    let dimensions: ReportRow['dimensions'] = null;
    if (sides.some((side) => side !== '')) {
      const [l, b, h] = sides.map((side) => positive(side, MAX_SIDE_CM));
      if (!l || !b || !h) {
        fail(
          `length, breadth and height must all be given, each a number of centimetres above 0 and at most ${MAX_SIDE_CM}`,
        );
        continue;
      }
      dimensions = { lengthCm: l, breadthCm: b, heightCm: h };
    }
    const earlier = seen.get(awb);
    if (earlier !== undefined) {
      fail(`the AWB is already on line ${earlier} of this file`);
      continue;
    }
    seen.set(awb, line);
    rows.push({ line, awb, chargedWeightGrams: weight, dimensions });
  }
  return { rows, problems };
}
