/*
 * The tax of a buyer's GST invoice (docs/paperwork.md, "The buyer's tax invoice"): which taxes a
 * supply bears, by the supplier's State against the place of supply (IGST Act s.7, s.8, s.10), and
 * each line's taxable value and tax, to the paisa, with the total rounded to the rupee (CGST Act
 * s.170). Money is integer paise throughout; rates are kept in hundredths of a percent, so 0.25 %
 * and 1.5 % are exact.
 */

/**
 * Union Territories without a legislature, by the pincode directory's names: a supply within one
 * bears CGST and UTGST (UTGST Act s.7; CGST Act s.2(114) names them). Delhi, Puducherry and Jammu
 * and Kashmir have legislatures, count as States (CGST Act s.2(103)) and charge SGST.
 */
export const UNION_TERRITORIES_WITHOUT_LEGISLATURE: ReadonlySet<string> = new Set([
  'Andaman and Nicobar Islands',
  'Lakshadweep',
  'Dadra and Nagar Haveli and Daman and Diu',
  'Ladakh',
  'Chandigarh',
]);

/** IGST across States; within one, CGST with SGST, or with UTGST in a Union Territory without a legislature. */
export type Supply = 'intra_state' | 'inter_state';
export type TaxKind = 'cgst' | 'sgst' | 'utgst' | 'igst';

export interface TaxSplit {
  supply: Supply;
  /** The kinds each line bears, in print order: [cgst, sgst], [cgst, utgst] or [igst]. */
  kinds: readonly TaxKind[];
}

/**
 * The taxes of a supply from `supplierState` delivered in `placeOfSupply` (IGST Act s.7(1) and
 * s.8(1): the same State or Union Territory is intra-State, else inter-State).
 */
export function taxSplit(supplierState: string, placeOfSupply: string): TaxSplit {
  if (supplierState !== placeOfSupply) return { supply: 'inter_state', kinds: ['igst'] };
  return {
    supply: 'intra_state',
    kinds: UNION_TERRITORIES_WITHOUT_LEGISLATURE.has(placeOfSupply) ? ['cgst', 'utgst'] : ['cgst', 'sgst'],
  };
}

export interface InvoiceLineInput {
  name: string;
  sku: string;
  hsn: string | null;
  units: number;
  /** One unit's price as the order states it, tax included (Velocity's selling_price). */
  unitPricePaise: number;
  /** Off one unit, tax included (Velocity's discount). */
  unitDiscountPaise: number;
  /** Percent (Velocity's tax); null when the order gave none: taxed at 0 %. */
  taxPercent: number | null;
}

export interface InvoiceLine {
  name: string;
  sku: string;
  hsn: string | null;
  units: number;
  /** One unit's price without tax. */
  unitPricePaise: number;
  /** The whole line's discount without tax: its units' own and its share of the order's. */
  discountPaise: number;
  /** units × unit price − discount, without tax: what the taxes are charged on. */
  taxablePaise: number;
  taxPercent: number;
  /** Each kind of the supply's split, charged on the taxable value. */
  taxes: { kind: TaxKind; ratePercent: number; amountPaise: number }[];
  /** Taxable value plus taxes. */
  totalPaise: number;
}

export interface InvoiceTotals {
  taxablePaise: number;
  /** Per kind of the split, in its order. */
  taxes: { kind: TaxKind; amountPaise: number }[];
  /** Taxable value and taxes to the paisa. */
  exactPaise: number;
  /** The exact total to the nearest rupee, half up (CGST Act s.170), less the exact total: −49 to +50 paise. */
  roundingPaise: number;
  /** What the buyer owes: a whole number of rupees. */
  totalPaise: number;
}

/** Hundredths of a percent: 18 → 1800, 0.25 → 25. */
const basisPoints = (percent: number) => Math.round(percent * 100);

/** n / d rounded half up, for n ≥ 0 and d > 0, exact in integers of any size. */
function divideHalfUp(n: bigint, d: bigint): number {
  return Number((2n * n + d) / (2n * d));
}

/** `total` shared out in proportion to `weights`, to the paisa, the remainders to the largest fractions (first on a tie). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (BigInt(total) * BigInt(w)) / BigInt(sum));
  const shares = exact.map(Number);
  const remainders = weights.map((w, i) => ({ i, r: (BigInt(total) * BigInt(w)) % BigInt(sum) }));
  let left = total - shares.reduce((a, b) => a + b, 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** A tax-included amount without its tax at `rateBp`, to the paisa (half up). */
const withoutTax = (paise: number, rateBp: number) => divideHalfUp(BigInt(paise) * 10_000n, BigInt(10_000 + rateBp));

/**
 * The invoice's lines. Prices and discounts are taken as tax included (what the buyer paid, as
 * Velocity's selling_price is and the e-way bill rule reads the order's value): the unit price and
 * the line's discount are each brought to their value without tax (× 100 / (100 + rate), to the
 * paisa), the taxable value is units × unit price less discount, and each tax is charged at its
 * rate on that taxable value, to the paisa. The line's total may so differ from what the buyer paid
 * by a paisa or two. The order's own discount (total_discount) is shared among the lines in
 * proportion to their value.
 */
export function invoiceLines(
  items: readonly InvoiceLineInput[],
  orderDiscountPaise: number,
  split: TaxSplit,
): InvoiceLine[] {
  const values = items.map((item) => item.units * Math.max(0, item.unitPricePaise - item.unitDiscountPaise));
  const total = values.reduce((a, b) => a + b, 0);
  const orderShares = apportion(Math.min(orderDiscountPaise, total), values);
  return items.map((item, i) => {
    const rateBp = basisPoints(item.taxPercent ?? 0);
    // Price and discount each without tax, so a line without discount shows none (not a paisa of rounding).
    const unitPricePaise = withoutTax(item.unitPricePaise, rateBp);
    const gross = item.units * unitPricePaise;
    const discountPaise = Math.min(gross, withoutTax(item.units * item.unitDiscountPaise + orderShares[i]!, rateBp));
    const taxablePaise = gross - discountPaise;
    const parts = split.kinds.length;
    const taxes = split.kinds.map((kind) => ({
      kind,
      ratePercent: rateBp / 100 / parts,
      amountPaise: divideHalfUp(BigInt(taxablePaise) * BigInt(rateBp), BigInt(10_000 * parts)),
    }));
    const totalPaise = taxablePaise + taxes.reduce((sum, tax) => sum + tax.amountPaise, 0);
    return {
      name: item.name,
      sku: item.sku,
      hsn: item.hsn,
      units: item.units,
      unitPricePaise,
      discountPaise,
      taxablePaise,
      taxPercent: rateBp / 100,
      taxes,
      totalPaise,
    };
  });
}

/** The invoice's totals: taxable value, each tax, the rounding line and the total in whole rupees. */
export function invoiceTotals(lines: readonly InvoiceLine[], split: TaxSplit): InvoiceTotals {
  const taxablePaise = lines.reduce((sum, line) => sum + line.taxablePaise, 0);
  const taxes = split.kinds.map((kind) => ({
    kind,
    amountPaise: lines.reduce((sum, line) => sum + (line.taxes.find((tax) => tax.kind === kind)?.amountPaise ?? 0), 0),
  }));
  const exactPaise = taxablePaise + taxes.reduce((sum, tax) => sum + tax.amountPaise, 0);
  // s.170: fifty paise or more is a rupee more, less is ignored.
  const totalPaise = Math.floor((exactPaise + 50) / 100) * 100;
  return { taxablePaise, taxes, exactPaise, roundingPaise: totalPaise - exactPaise, totalPaise };
}
