import { CsvReader } from '../../domain/csv.js';
import { echo, ProblemList } from '../../domain/import-problems.js';
import { roundHalfUp } from '../../domain/money.js';

/**
 * A courier's weight report: Dakiya's own columns (`awb,charged_weight_g`, and `length_cm`,
 * `breadth_cm`, `height_cm` when the courier measured the parcel) or a courier's names for them
 * (Delhivery's `Waybill`, `Charged Weight`, `Length`, `Breadth`, `Height`). Header names are read
 * without regard to case, spaces, underscores or brackets. Dimensions are centimetres; the charged
 * weight is in the unit its header states (`charged_weight_g`, `charged_weight_kg`, `Charged
 * Weight (kg)`), and a header that states none is judged against the parcels (weight-units.ts).
 */
const COLUMNS = {
  awb: ['awb', 'waybill', 'waybill no', 'awb number', 'awb no', 'tracking number'],
  length: ['length cm', 'length'],
  breadth: ['breadth cm', 'breadth', 'width', 'width cm'],
  height: ['height cm', 'height'],
} as const;
type Column = keyof typeof COLUMNS | 'weight';

/** `charged weight`, then perhaps its unit: grams or kilograms, spelt as couriers spell them. */
const WEIGHT_HEADER = /^charged weight(?: (?:in )?(g|gm|gms|gram|grams|kg|kgs|kilogram|kilograms))?$/;

/** The unit a weight column states, or null when it states none. */
export type WeightUnit = 'g' | 'kg';

/** 10,000 rows a file: a courier's weekly report for a large merchant, inside one transaction. */
export const MAX_REPORT_ROWS = 10_000;
const MAX_WEIGHT_GRAMS = 1_000_000;
const MAX_SIDE_CM = 1_000;

export interface ReportRow {
  line: number;
  awb: string;
  /** The charged weight in grams: as written under a header in grams or stating none, times 1,000 under one in kilograms. */
  chargedWeightGrams: number;
  dimensions: { lengthCm: number; breadthCm: number; heightCm: number } | null;
}

export interface RowProblem {
  line: number;
  awb: string | null;
  message: string;
}

/** A report read: its good rows, the first bad ones and their count, and how its weight column is named. */
export interface WeightReport {
  rows: ReportRow[];
  problems: RowProblem[];
  problemCount: number;
  /** The weight column's header as the file writes it. */
  weightHeader: string;
  /** The unit that header states; null when it states none. */
  unit: WeightUnit | null;
}

/** A whole file's problem: nothing in it is applied. */
export class WeightReportError extends Error {}

const normalise = (name: string) =>
  name
    .toLowerCase()
    .replace(/[()[\]_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function positive(raw: string | undefined, max: number): number | null {
  const text = (raw ?? '').trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  return value > 0 && value <= max ? roundHalfUp(value, 2) : null;
}

function columnsOf(header: string[]) {
  const index: Partial<Record<Column, number>> = {};
  let unit: WeightUnit | null = null;
  header.forEach((name, i) => {
    const normal = normalise(name);
    const weight = WEIGHT_HEADER.exec(normal);
    if (weight && index.weight === undefined) {
      index.weight = i;
      unit = weight[1] === undefined ? null : weight[1].startsWith('k') ? 'kg' : 'g';
      return;
    }
    const found = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).find((column) =>
      (COLUMNS[column] as readonly string[]).includes(normal),
    );
    if (found && index[found] === undefined) index[found] = i;
  });
  if (index.awb === undefined || index.weight === undefined)
    throw new WeightReportError(
      'the header must name an AWB column (awb or Waybill) and a charged weight column stating its unit ' +
        '(charged_weight_g or charged_weight_kg, or Charged Weight (g) or Charged Weight (kg))',
    );
  return { awb: index.awb, weight: index.weight, unit, dimensions: [index.length, index.breadth, index.height] };
}

/**
 * Reads a report as it arrives (`push` each piece of text, then `end`). A whole file's problem (no
 * header it understands, a quote never closed, too many rows) is thrown as a WeightReportError, the
 * row limit's as soon as it is passed; bad rows are counted, the first ones kept with their line.
 */
export function readWeightReport() {
  let columns: ReturnType<typeof columnsOf> | null = null;
  let weightHeader = '';
  let count = 0;
  const rows: ReportRow[] = [];
  const problems = new ProblemList<RowProblem>();
  const seen = new Map<string, number>();
  const reader = new CsvReader(({ line, fields }) => {
    if (columns === null) {
      columns = columnsOf(fields);
      weightHeader = echo(fields[columns.weight]!.trim());
      return;
    }
    if (++count > MAX_REPORT_ROWS)
      throw new WeightReportError(
        `a report holds at most ${MAX_REPORT_ROWS.toLocaleString('en-IN')} rows; this one has more (line ${line} is past the limit)`,
      );
    const row = readRow(columns, line, fields, seen);
    if ('message' in row) problems.add(row);
    else rows.push(row);
  });
  return {
    push: (text: string) => reader.push(text),
    end(): WeightReport {
      const { unclosedQuoteLine } = reader.end();
      if (unclosedQuoteLine !== null)
        throw new WeightReportError(`a quoted cell opened on line ${unclosedQuoteLine} is never closed`);
      if (columns === null) throw new WeightReportError('the file is empty: it needs a header line');
      const { unit } = columns as ReturnType<typeof columnsOf>;
      return { rows, problems: problems.listed(), problemCount: problems.count, weightHeader, unit };
    },
  };
}

function readRow(
  columns: ReturnType<typeof columnsOf>,
  line: number,
  cells: string[],
  seen: Map<string, number>,
): ReportRow | RowProblem {
  const awb = (cells[columns.awb] ?? '').trim();
  const fail = (message: string): RowProblem => ({ line, awb: awb ? echo(awb) : null, message });
  if (!awb || awb.length > 64) return fail('awb must be 1 to 64 characters');
  const kilograms = columns.unit === 'kg';
  const written = positive(cells[columns.weight], kilograms ? MAX_WEIGHT_GRAMS / 1000 : MAX_WEIGHT_GRAMS);
  if (written === null)
    return fail(
      kilograms
        ? `charged weight must be a number of kilograms above 0 and at most ${MAX_WEIGHT_GRAMS / 1000}, got "${echo(cells[columns.weight] ?? '')}"`
        : `charged weight must be a number of grams above 0 and at most ${MAX_WEIGHT_GRAMS}, got "${echo(cells[columns.weight] ?? '')}"`,
    );
  const sides = columns.dimensions.map((i) => (i === undefined ? '' : (cells[i] ?? '').trim()));
  let dimensions: ReportRow['dimensions'] = null;
  if (sides.some((side) => side !== '')) {
    const [l, b, h] = sides.map((side) => positive(side, MAX_SIDE_CM));
    if (!l || !b || !h)
      return fail(
        `length, breadth and height must all be given, each a number of centimetres above 0 and at most ${MAX_SIDE_CM}`,
      );
    dimensions = { lengthCm: l, breadthCm: b, heightCm: h };
  }
  const earlier = seen.get(awb);
  if (earlier !== undefined) return fail(`the AWB is already on line ${earlier} of this file`);
  seen.set(awb, line);
  return { line, awb, chargedWeightGrams: kilograms ? roundHalfUp(written * 1000, 2) : written, dimensions };
}

/** A whole report at once (tests, and small callers): readWeightReport over one piece. */
export function parseWeightReport(text: string): WeightReport {
  const reader = readWeightReport();
  reader.push(text);
  return reader.end();
}
