import { describe, expect, it } from 'vitest';
import { loadPincodeDirectory } from '../../data-files.js';
import {
  apportion,
  type InvoiceLineInput,
  invoiceLines,
  invoiceTotals,
  type TaxKind,
  taxSplit,
  UNION_TERRITORIES_WITHOUT_LEGISLATURE,
} from './invoice-tax.js';

const item = (over: Partial<InvoiceLineInput> = {}): InvoiceLineInput => ({
  name: 'Cotton Kurta',
  sku: 'KURTA-M',
  hsn: '6211',
  units: 1,
  unitPricePaise: 118_000,
  unitDiscountPaise: 0,
  taxPercent: 18,
  ...over,
});

describe('the taxes of a supply, by the supplier’s State and the place of supply', () => {
  it.each([
    ['Karnataka', 'Karnataka', 'intra_state', ['cgst', 'sgst']],
    ['Delhi', 'Karnataka', 'inter_state', ['igst']],
    ['Karnataka', 'Delhi', 'inter_state', ['igst']],
    // Delhi, Puducherry and Jammu and Kashmir have legislatures: SGST.
    ['Delhi', 'Delhi', 'intra_state', ['cgst', 'sgst']],
    ['Puducherry', 'Puducherry', 'intra_state', ['cgst', 'sgst']],
    ['Jammu and Kashmir', 'Jammu and Kashmir', 'intra_state', ['cgst', 'sgst']],
    // Union Territories without a legislature: UTGST.
    ['Chandigarh', 'Chandigarh', 'intra_state', ['cgst', 'utgst']],
    ['Ladakh', 'Ladakh', 'intra_state', ['cgst', 'utgst']],
    ['Lakshadweep', 'Lakshadweep', 'intra_state', ['cgst', 'utgst']],
    ['Andaman and Nicobar Islands', 'Andaman and Nicobar Islands', 'intra_state', ['cgst', 'utgst']],
    [
      'Dadra and Nagar Haveli and Daman and Diu',
      'Dadra and Nagar Haveli and Daman and Diu',
      'intra_state',
      ['cgst', 'utgst'],
    ],
    // From a Union Territory to a State, or the reverse: IGST.
    ['Chandigarh', 'Punjab', 'inter_state', ['igst']],
    ['Haryana', 'Chandigarh', 'inter_state', ['igst']],
  ] as [string, string, string, TaxKind[]][])('%s to %s: %s, %j', (from, to, supply, kinds) => {
    expect(taxSplit(from, to)).toEqual({ supply, kinds });
  });

  it('names the Union Territories as the pincode directory does', () => {
    const states = loadPincodeDirectory().states;
    expect([...UNION_TERRITORIES_WITHOUT_LEGISLATURE].filter((name) => !states.has(name))).toEqual([]);
  });
});

describe("an invoice's lines and totals (prices tax included)", () => {
  const intra = taxSplit('Karnataka', 'Karnataka');
  const inter = taxSplit('Delhi', 'Karnataka');
  const ut = taxSplit('Chandigarh', 'Chandigarh');

  it.each([
    [
      'one ₹1,180 item at 18 % within a State',
      [item()],
      0,
      intra,
      [{ unit: 100_000, discount: 0, taxable: 100_000, rate: 18, taxes: [9_000, 9_000], total: 118_000 }],
      { taxable: 100_000, taxes: [9_000, 9_000], exact: 118_000, rounding: 0, total: 118_000 },
    ],
    [
      'the same across States',
      [item()],
      0,
      inter,
      [{ unit: 100_000, discount: 0, taxable: 100_000, rate: 18, taxes: [18_000], total: 118_000 }],
      { taxable: 100_000, taxes: [18_000], exact: 118_000, rounding: 0, total: 118_000 },
    ],
    [
      'the same within a Union Territory without a legislature',
      [item()],
      0,
      ut,
      [{ unit: 100_000, discount: 0, taxable: 100_000, rate: 18, taxes: [9_000, 9_000], total: 118_000 }],
      { taxable: 100_000, taxes: [9_000, 9_000], exact: 118_000, rounding: 0, total: 118_000 },
    ],
    [
      // 1299 / 1.18 = 1100.847…; 3 × 100 / 1.18 = 254.237…; 18 % of 3048.31 = 548.6958.
      '3 × ₹1,299 less ₹100 each at 18 % across States: a paisa over, rounded back',
      [item({ units: 3, unitPricePaise: 129_900, unitDiscountPaise: 10_000 })],
      0,
      inter,
      [{ unit: 110_085, discount: 25_424, taxable: 304_831, rate: 18, taxes: [54_870], total: 359_701 }],
      { taxable: 304_831, taxes: [54_870], exact: 359_701, rounding: -1, total: 359_700 },
    ],
    [
      'the same within a State: each half charged on the taxable value',
      [item({ units: 3, unitPricePaise: 129_900, unitDiscountPaise: 10_000 })],
      0,
      intra,
      [{ unit: 110_085, discount: 25_424, taxable: 304_831, rate: 18, taxes: [27_435, 27_435], total: 359_701 }],
      { taxable: 304_831, taxes: [27_435, 27_435], exact: 359_701, rounding: -1, total: 359_700 },
    ],
    [
      'a 0.25 % rate (rough diamonds): halves of an eighth of a percent',
      [item({ unitPricePaise: 1_002_500, taxPercent: 0.25 })],
      0,
      intra,
      [{ unit: 1_000_000, discount: 0, taxable: 1_000_000, rate: 0.25, taxes: [1_250, 1_250], total: 1_002_500 }],
      { taxable: 1_000_000, taxes: [1_250, 1_250], exact: 1_002_500, rounding: 0, total: 1_002_500 },
    ],
    [
      'no rate given: taxed at 0 %; 49 paise rounded down',
      [item({ unitPricePaise: 49_949, taxPercent: null })],
      0,
      inter,
      [{ unit: 49_949, discount: 0, taxable: 49_949, rate: 0, taxes: [0], total: 49_949 }],
      { taxable: 49_949, taxes: [0], exact: 49_949, rounding: -49, total: 49_900 },
    ],
    [
      'fifty paise rounded up to the rupee (s.170)',
      [item({ unitPricePaise: 49_950, taxPercent: 0 })],
      0,
      inter,
      [{ unit: 49_950, discount: 0, taxable: 49_950, rate: 0, taxes: [0], total: 49_950 }],
      { taxable: 49_950, taxes: [0], exact: 49_950, rounding: 50, total: 50_000 },
    ],
    [
      "the order's ₹100 discount shared ₹66.67 and ₹33.33 between a ₹1,000 and a ₹500 line",
      [item({ unitPricePaise: 100_000, taxPercent: 0 }), item({ sku: 'B', unitPricePaise: 50_000, taxPercent: 0 })],
      10_000,
      inter,
      [
        { unit: 100_000, discount: 6_667, taxable: 93_333, rate: 0, taxes: [0], total: 93_333 },
        { unit: 50_000, discount: 3_333, taxable: 46_667, rate: 0, taxes: [0], total: 46_667 },
      ],
      { taxable: 140_000, taxes: [0], exact: 140_000, rounding: 0, total: 140_000 },
    ],
    [
      'two lines at 5 % and 12 % within a State',
      [
        item({ units: 2, unitPricePaise: 105_000, taxPercent: 5 }),
        item({ sku: 'B', unitPricePaise: 112_000, taxPercent: 12 }),
      ],
      0,
      intra,
      [
        { unit: 100_000, discount: 0, taxable: 200_000, rate: 5, taxes: [5_000, 5_000], total: 210_000 },
        { unit: 100_000, discount: 0, taxable: 100_000, rate: 12, taxes: [6_000, 6_000], total: 112_000 },
      ],
      { taxable: 300_000, taxes: [11_000, 11_000], exact: 322_000, rounding: 0, total: 322_000 },
    ],
    [
      'a discount as large as the price: nothing taxable',
      [item({ unitDiscountPaise: 118_000 })],
      0,
      inter,
      [{ unit: 100_000, discount: 100_000, taxable: 0, rate: 18, taxes: [0], total: 0 }],
      { taxable: 0, taxes: [0], exact: 0, rounding: 0, total: 0 },
    ],
  ] as const)('%s', (_, items, orderDiscount, split, lines, totals) => {
    const drawn = invoiceLines(items, orderDiscount, split);
    expect(
      drawn.map((line) => ({
        unit: line.unitPricePaise,
        discount: line.discountPaise,
        taxable: line.taxablePaise,
        rate: line.taxPercent,
        taxes: line.taxes.map((tax) => tax.amountPaise),
        total: line.totalPaise,
      })),
    ).toEqual(lines);
    expect(drawn[0]!.taxes.map((tax) => [tax.kind, tax.ratePercent])).toEqual(
      split.kinds.map((kind) => [kind, drawn[0]!.taxPercent / split.kinds.length]),
    );
    const sums = invoiceTotals(drawn, split);
    expect({
      taxable: sums.taxablePaise,
      taxes: sums.taxes.map((tax) => tax.amountPaise),
      exact: sums.exactPaise,
      rounding: sums.roundingPaise,
      total: sums.totalPaise,
    }).toEqual(totals);
    expect(sums.taxes.map((tax) => tax.kind)).toEqual(split.kinds);
  });
});

describe('a discount shared among lines, to the paisa', () => {
  it.each([
    [10_000, [100_000, 50_000], [6_667, 3_333]],
    [100, [1, 1, 1], [34, 33, 33]],
    [0, [5, 5], [0, 0]],
    [7, [0, 0], [0, 0]],
    [10, [3, 0, 7], [3, 0, 7]],
  ])('%d over %j: %j', (total, weights, shares) => {
    expect(apportion(total, weights)).toEqual(shares);
  });
});
