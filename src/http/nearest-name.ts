/**
 * The known name a mistyped one most likely meant, for naming an unknown field of a request
 * ("billing_pincod": did you mean "billing_pincode"?). Compared without case, with `-` and `_`
 * alike; the same name so written is meant first. A name that is a whole part of a known one
 * ("weight" of "dead_weight") means that one rather than a name a letter away ("height").
 * Otherwise the optimal string alignment distance decides (an insertion, a deletion, a
 * substitution or a swap of two neighbours costs one): a name counts as near when at most a
 * quarter of its letters differ (at least one, at most three); further apart, a suggestion is more
 * likely wrong than helpful. Ties go to the first candidate, so the caller's order (a schema's)
 * decides.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = comparable(name);
  const known = [...candidates];
  const same = known.find((c) => comparable(c) === wanted);
  if (same !== undefined) return same;
  if (wanted.length >= MIN_PART_LENGTH) {
    const whole = known.find((c) => `_${comparable(c)}_`.includes(`_${wanted}_`));
    if (whole !== undefined) return whole;
  }
  const allowed = Math.min(3, Math.max(1, Math.floor(wanted.length / 4)));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, comparable(candidate), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Shorter parts ("id", "to") are in too many names to tell which was meant. */
const MIN_PART_LENGTH = 4;

const comparable = (name: string) => name.toLowerCase().replaceAll('-', '_');

/** The optimal string alignment distance of a and b, or `limit` when it is at least that. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  // Three rows of the table: two back (for a swap), the previous, and the one being filled.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowMinimum = Math.min(rowMinimum, value);
    }
    // Every later row is at least this row's minimum: past the limit, nothing nearer can come.
    if (rowMinimum >= limit) return limit;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, limit);
}
