/**
 * Integer round-half-up of `value × factor`, for non-negative values. The relative nudge absorbs
 * binary noise, so 1.005 × 100 (stored as 100.49999999999999) rounds to 101 as written, and a
 * computed 500.00000000000006 g does not slip into the next slab once rounded to 50000 cg.
 */
export function scaleRoundHalfUp(value: number, factor: number): number {
  if (value < 0) return -scaleRoundHalfUp(-value, factor);
  const scaled = value * factor;
  return Math.floor(scaled + scaled * 1e-12 + 0.5);
}

/** Round half up to a number of decimals; echoes weights "with at most two decimals". */
export function roundHalfUp(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return scaleRoundHalfUp(value, factor) / factor;
}

export function rupeesToPaise(rupees: number): number {
  return scaleRoundHalfUp(rupees, 100);
}

/**
 * A decimal amount as text ("1299.00", "186.9", "-0.50"), as stores send money, in paise; rounded
 * half up past two decimals, read digit by digit so no binary fraction enters. Undefined for text
 * that is not a plain decimal number.
 */
export function decimalTextToPaise(text: string): number | undefined {
  const match = /^\s*(-?)(\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
  const paise = cents + (Number(fraction[2] ?? '0') >= 5 ? 1 : 0);
  return sign ? -paise : paise;
}

/** Exact for integer paise: the shortest decimal form of n / 100 has at most two decimals. */
export function paiseToRupees(paise: number): number {
  return paise / 100;
}

/** Paise as rupees with two decimals ("80.00"): the charges Velocity answers as text. */
export const rupeesText = (paise: number) => (paise / 100).toFixed(2);

/** True when a rupee amount in a data file is a whole number of paise. */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

/** Rupees as Indian readers write them: "₹1,24,999.50". */
export function formatRupees(rupees: number): string {
  return `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
