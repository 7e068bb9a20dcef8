import { describe, expect, it } from 'vitest';
import type { ReportRow } from './weight-report.js';
import { judgeUnstatedUnit } from './weight-units.js';

// The judgement of a weight column that states no unit, row by row (weight-units.ts).

const row = (line: number, awb: string, grams: number): ReportRow => ({
  line,
  awb,
  chargedWeightGrams: grams,
  dimensions: null,
});
const declared = (weights: Record<string, number>) => (awb: string) => weights[awb];

describe('a weight column that states no unit', () => {
  it('refuses the whole file when every weight is below 50 and its parcels weigh 100 g or more, naming their range', () => {
    const judged = judgeUnstatedUnit(
      { weightHeader: 'Charged Weight', rows: [row(2, 'A', 1.5), row(3, 'B', 49.99), row(4, 'UNKNOWN', 2)] },
      declared({ A: 100, B: 2500 }),
    );
    expect(judged).toEqual({
      refused: expect.stringContaining('declared at 100 g to 2500 g: these look like kilograms'),
    });
  });

  it('reads as grams what no parcel contradicts: an envelope declared under 100 g, an AWB not found, a weight of 50 or more', () => {
    const rows = [row(2, 'ENVELOPE', 1.5), row(3, 'UNKNOWN', 2), row(4, 'A', 50), row(5, 'B', 30)];
    const judged = judgeUnstatedUnit(
      { weightHeader: 'charged_weight', rows },
      declared({ ENVELOPE: 99, A: 500, B: 500 }),
    );
    expect(judged).toEqual({
      rows: rows.slice(0, 3),
      problems: [{ line: 5, awb: 'B', message: expect.stringMatching(/^charged weight 30 under "charged_weight"/) }],
    });
  });

  it('judges nothing when no row names a parcel of the account', () => {
    const rows = [row(2, 'X', 1), row(3, 'Y', 2)];
    expect(judgeUnstatedUnit({ weightHeader: 'charged_weight', rows }, declared({}))).toEqual({ rows, problems: [] });
  });
});
