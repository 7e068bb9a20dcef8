import type { OrderPackage } from '../../base/db/schema.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import type { CreateOrderInput } from './orders.schemas.js';

// The boxes of a multi-piece order (Dakiya's `packages`), read and checked against the order they
// belong to (docs/paperwork.md, "Multi-piece shipments"; decision 177). The schema has checked each
// box's shape and that each number is positive; what it cannot say is checked here, every problem
// reported at once, each naming its field as the schema's own errors do (`packages.1.items.0.sku`).

/** Grams are compared to the gram: kilograms written with three decimals are exact, more is a float's noise. */
const sameGrams = (a: number, b: number) => Math.abs(a - b) < 1;

const kg = (grams: number) => `${Math.round(grams) / 1000} kg`;

/**
 * The order's boxes in grams and centimetres, box 1 first; null for an order in one box (no
 * packages, or []). `weightGrams`: the order's own weight as sent, which must be the boxes' total.
 */
export function readPackages(body: CreateOrderInput, weightGrams: number): OrderPackage[] | null {
  const sent = body.packages;
  if (sent === undefined || sent.length === 0) return null;
  const problems: FieldError[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message: `${field} ${message}` });
  if (sent.length === 1) {
    problem(
      'packages',
      `must list 2 to 20 boxes: an order in one box sends no packages (its weight and size are the order's own)`,
    );
    throw refused(problems);
  }
  const packages: OrderPackage[] = sent.map((box) => ({
    weightGrams: box.weight * 1000,
    lengthCm: box.length,
    breadthCm: box.breadth,
    heightCm: box.height,
    items: mergedItems(box.items ?? []),
  }));

  const total = packages.reduce((sum, box) => sum + box.weightGrams, 0);
  if (!sameGrams(total, weightGrams))
    problem('weight', `must be the boxes' total weight when packages are sent: ${kg(total)}, not ${kg(weightGrams)}`);

  const listed = sent.map((box) => (box.items ?? []).length > 0);
  if (listed.some(Boolean)) {
    listed.forEach((has, i) => {
      if (!has)
        problem(
          `packages.${i}.items`,
          `must list what box ${i + 1} holds: when one box lists its items, every box does`,
        );
    });
    itemProblems(body, sent, problem);
  }
  if (problems.length > 0) throw refused(problems);
  return packages;
}

function refused(problems: FieldError[]) {
  return new DomainError(
    'invalid',
    problems.map((p) => p.message),
    problems,
  );
}

/** A box's lines by SKU (trimmed), a SKU listed twice in one box counted once with both lines' units. */
function mergedItems(items: readonly { sku: string; units: number }[]) {
  const units = new Map<string, number>();
  for (const item of items) units.set(item.sku.trim(), (units.get(item.sku.trim()) ?? 0) + item.units);
  return [...units].map(([sku, count]) => ({ sku, units: count }));
}

/**
 * Every SKU a box names is one of the order's, and the boxes together hold exactly the order's
 * units of each: none left over (the box that goes over is named), none left out (packages named).
 */
function itemProblems(
  body: CreateOrderInput,
  sent: NonNullable<CreateOrderInput['packages']>,
  problem: (field: string, message: string) => void,
) {
  const ordered = new Map<string, number>();
  for (const item of body.order_items) {
    const sku = item.sku.trim();
    ordered.set(sku, (ordered.get(sku) ?? 0) + item.units);
  }
  const placed = new Map<string, number>();
  sent.forEach((box, i) => {
    (box.items ?? []).forEach((item, j) => {
      const sku = item.sku.trim();
      const field = `packages.${i}.items.${j}`;
      const of = ordered.get(sku);
      if (of === undefined) {
        problem(`${field}.sku`, `${sku} is not an SKU of order_items`);
        return;
      }
      const before = placed.get(sku) ?? 0;
      placed.set(sku, before + item.units);
      if (before <= of && before + item.units > of)
        problem(
          `${field}.units`,
          `puts ${before + item.units} units of ${sku} in the boxes up to box ${i + 1}: the order has ${of}`,
        );
    });
  });
  for (const [sku, of] of ordered) {
    const inBoxes = placed.get(sku) ?? 0;
    if (inBoxes < of)
      problem(
        'packages',
        `hold ${inBoxes} of the order's ${of} units of ${sku}: when boxes list their items, every unit is in one`,
      );
  }
}

/** Whether two orders ship in the same boxes (weights to the gram): an update after booking may not change them. */
export function samePackages(stored: OrderPackage[] | null, sent: OrderPackage[] | null): boolean {
  if (stored === null || sent === null) return stored === sent;
  return (
    stored.length === sent.length &&
    stored.every((box, i) => {
      const other = sent[i]!;
      return (
        sameGrams(box.weightGrams, other.weightGrams) &&
        box.lengthCm === other.lengthCm &&
        box.breadthCm === other.breadthCm &&
        box.heightCm === other.heightCm &&
        JSON.stringify(box.items) === JSON.stringify(other.items)
      );
    })
  );
}
