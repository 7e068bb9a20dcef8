import { record, text } from './courier-answers.js';

/**
 * Which of the products Xpressbees' serviceability answer offers carries a forward parcel.
 *
 * A self-serve account lists weight slabs and special products, not one "surface" and one "air"
 * courier: "Air Xpressbees 0.5 K.G", "Express Reverse", "Surface Xpressbees 0.5 K.G",
 * "Xpressbees 1 K.G", "Xpressbees 2 K.G", "Xpressbees 5 K.G", "Xpressbees 10 K.G", "Xpressbees Next
 * Day Delivery", "Xpressbees Same Day Delivery" (fixtures/xpressbees.fixtures.ts). Independent
 * clients choose the slab: one sorts the answer by `chargeable_weight` and takes "the smallest slab
 * ≥ weight" (index ids 9217601558, 8949145748), another parses the slab from the name, keeps the
 * smallest that holds the parcel and the largest when none does, and leaves out reverse, same-day
 * and next-day products (index id 2437522655). Dakiya does the same:
 *
 * - the reverse product is booked through another call (POST /api/reverseshipments, index ids
 *   70550452990 and 52338113957), never /api/shipments2; same-day and next-day products are sold
 *   as services of their own, which Dakiya's catalogue does not have: all three are left out;
 * - an air service takes a product named "Air", a surface service any other;
 * - a product's slab is the weight its name states ("0.5 K.G" is 500 g), else its `min_weight`,
 *   else its `chargeable_weight` (grams, as the query's weight); the smallest slab that holds the
 *   parcel wins, the cheaper (`total_charges`) of two equal slabs, the largest slab when none holds
 *   it (its additional-weight rate carries the rest);
 * - an account whose products state no slab at all (a single "Surface" product) gets the first of
 *   the level, in the answer's order.
 */

export interface XpressbeesProduct {
  id: string;
  name: string;
}

/** Reverse pickup, same-day and next-day products: never a forward booking's. */
const EXCLUDED = [/\breverse\b/i, /\b(same|next)[\s-]*day\b/i];

const grams = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The weight a product's name states ("Xpressbees 2 K.G", "Surface Xpressbees 0.5 K.G"), in grams. */
export function namedSlabGrams(name: string): number | undefined {
  const match = /(\d+(?:\.\d+)?)\s*k\.?\s*g\b/i.exec(name);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** The product to book, or why none fits (for the merchant's 422). */
export function chooseXpressbeesProduct(
  answer: readonly unknown[],
  level: 'air' | 'surface',
  weightGrams: number,
): XpressbeesProduct | { none: string } {
  const offered = answer
    .map(record)
    .filter((c) => c !== undefined && (typeof c.id === 'string' || typeof c.id === 'number'))
    .map((c, order) => {
      const name = text(c!.name) ?? '';
      return {
        id: String(c!.id),
        name,
        order,
        slab: namedSlabGrams(name) ?? grams(c!.min_weight) ?? grams(c!.chargeable_weight),
        charges: grams(c!.total_charges) ?? Number.POSITIVE_INFINITY,
      };
    });
  const forward = offered.filter((c) => !EXCLUDED.some((pattern) => pattern.test(c.name)));
  const ofLevel = forward.filter((c) => /\bair\b/i.test(c.name) === (level === 'air'));
  if (ofLevel.length === 0) {
    const names = offered.map((c) => c.name || c.id).join(', ');
    return { none: `no ${level} product${names ? ` among those offered (${names})` : ''}` };
  }
  const slabbed = ofLevel.filter((c) => c.slab !== undefined);
  if (slabbed.length === 0) return pick(ofLevel[0]!);
  const bySlab = [...slabbed].sort((a, b) => a.slab! - b.slab! || a.charges - b.charges || a.order - b.order);
  return pick(bySlab.find((c) => c.slab! >= weightGrams) ?? largest(bySlab));
}

const pick = ({ id, name }: XpressbeesProduct): XpressbeesProduct => ({ id, name });

/** The largest slab, the cheaper of two equal ones. */
function largest<T extends { slab?: number; charges: number }>(sorted: T[]): T {
  const top = sorted.at(-1)!.slab;
  return sorted.find((c) => c.slab === top)!;
}
