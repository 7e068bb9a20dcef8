import type { ReportRow, RowProblem, WeightReport } from './weight-report.js';

/**
 * A weight column whose header states no unit (`charged_weight`, `Charged Weight`) is never read
 * in silence (issue 46, decision 135). Its values are taken as grams, as before, except where the
 * parcels say otherwise: a reading below KILOGRAM_LIKE grams for a parcel declared at PARCEL_GRAMS
 * or more is implausible (no courier weighs a 500 g parcel at 1.5 g; 1.5 kg is a weight it does
 * charge), so it is not applied. When every weight in the file is that light and its parcels all
 * weigh hundreds of grams, the file is in kilograms and is refused whole; otherwise each such row
 * is refused by its line. Either answer names the header and the two ways to state the unit.
 */

/** Below this, a weight read as grams is lighter than any parcel a courier charges extra for. */
export const KILOGRAM_LIKE = 50;
/** A parcel declared at this many grams or more ("hundreds of grams") cannot weigh under KILOGRAM_LIKE. */
export const PARCEL_GRAMS = 100;

const waysToState = (header: string) =>
  `state the unit in the header: charged_weight_kg or "${header} (kg)" for kilograms, charged_weight_g or "${header} (g)" for grams`;

export type UnstatedUnitJudgement = { refused: string } | { rows: ReportRow[]; problems: RowProblem[] };

/** The rows of a report whose weight header states no unit, judged against the declared weights of their parcels. */
export function judgeUnstatedUnit(
  report: Pick<WeightReport, 'rows' | 'weightHeader'>,
  declaredOf: (awb: string) => number | undefined,
): UnstatedUnitJudgement {
  const header = report.weightHeader;
  const declared = report.rows.map((row) => declaredOf(row.awb)).filter((grams) => grams !== undefined);
  const allLight = report.rows.length > 0 && report.rows.every((row) => row.chargedWeightGrams < KILOGRAM_LIKE);
  if (allLight && declared.length > 0 && declared.every((grams) => grams >= PARCEL_GRAMS)) {
    const [least, most] = [Math.min(...declared), Math.max(...declared)];
    return {
      refused:
        `the charged weight column "${header}" does not state its unit, and every weight in it is below ${KILOGRAM_LIKE} ` +
        `while its parcels were declared at ${least === most ? `${least} g` : `${least} g to ${most} g`}: these look like ` +
        `kilograms, and read as grams the courier's extra charges would be lost. Nothing was applied; ${waysToState(header)}`,
    };
  }
  const rows: ReportRow[] = [];
  const problems: RowProblem[] = [];
  for (const row of report.rows) {
    const grams = declaredOf(row.awb);
    if (grams !== undefined && grams >= PARCEL_GRAMS && row.chargedWeightGrams < KILOGRAM_LIKE) {
      problems.push({
        line: row.line,
        awb: row.awb,
        message:
          `charged weight ${row.chargedWeightGrams} under "${header}", which states no unit, reads as ` +
          `${row.chargedWeightGrams} g for a parcel declared at ${grams} g: it looks like kilograms, so it is not applied; ` +
          waysToState(header),
      });
    } else rows.push(row);
  }
  return { rows, problems };
}
