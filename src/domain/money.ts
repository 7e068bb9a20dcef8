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
