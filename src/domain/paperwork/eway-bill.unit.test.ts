import { describe, expect, it } from 'vitest';
import { loadEwayBillRules, loadPincodeDirectory } from '../../data-files.js';
import { DataFileError } from '../data-file-issues.js';
import { parseDay } from '../calendar.js';
import { greatCircleKm } from '../geo/distance.js';
import { parseEwayBillRules } from './eway-bill-data.js';
import { type Consignment, ewayBillNeed, lastValidDay, validityDays } from './eway-bill.js';

const directory = loadPincodeDirectory();
const rules = loadEwayBillRules(directory);

const consignment = (valuePaise: number, more: Partial<Consignment> = {}): Consignment => ({
  valuePaise,
  lines: [{ hsn: '6109', valuePaise }],
  fromState: 'Karnataka',
  toState: 'Maharashtra',
  ...more,
});

describe('whether a parcel needs an e-way bill (rule 138)', () => {
  const cases: [string, Consignment, boolean, number, string][] = [
    ['₹50,000.00 across States: not over the limit', consignment(5_000_000), false, 5_000_000, 'rule 138(1)'],
    ['₹50,000.01 across States', consignment(5_000_001), true, 5_000_000, 'rule 138(1)'],
    [
      'within a State without a limit of its own (Karnataka)',
      consignment(5_000_001, { fromState: 'Karnataka', toState: 'Karnataka' }),
      true,
      5_000_000,
      'rule 138(1)',
    ],
    [
      "within Delhi: the State's ₹1,00,000",
      consignment(9_999_999, { fromState: 'Delhi', toState: 'Delhi' }),
      false,
      10_000_000,
      "Delhi's limit within the State",
    ],
    [
      'within Delhi, over ₹1,00,000',
      consignment(10_000_001, { fromState: 'Delhi', toState: 'Delhi' }),
      true,
      10_000_000,
      "Delhi's limit within the State",
    ],
    [
      'from Delhi to Haryana: the State limit is for movement within it',
      consignment(9_999_999, { fromState: 'Delhi', toState: 'Haryana' }),
      true,
      5_000_000,
      'rule 138(1)',
    ],
    [
      "within Mizoram: the lower of the sources' limits, ₹10,000",
      consignment(1_000_001, { fromState: 'Mizoram', toState: 'Mizoram' }),
      true,
      1_000_000,
      "Mizoram's limit within the State",
    ],
    [
      'within Rajasthan: ₹1,00,000 for clothes',
      consignment(7_000_000, { fromState: 'Rajasthan', toState: 'Rajasthan' }),
      false,
      10_000_000,
      "Rajasthan's limit",
    ],
    [
      'within Rajasthan: tobacco (chapter 24) keeps ₹50,000',
      consignment(7_000_000, {
        fromState: 'Rajasthan',
        toState: 'Rajasthan',
        lines: [
          { hsn: '6109', valuePaise: 6_000_000 },
          { hsn: '2402.20', valuePaise: 1_000_000 },
        ],
      }),
      true,
      5_000_000,
      'rule 138(1)',
    ],
  ];
  it.each(cases)('%s', (_, given, needed, limitPaise, setBy) => {
    const need = ewayBillNeed(given, rules);
    expect(need.needed).toBe(needed);
    expect(need.limitPaise).toBe(limitPaise);
    expect(need.limitSetBy).toContain(setBy);
  });

  it("leaves out the Annexure's exempt goods (jewellery, chapter 71; coral) from the value", () => {
    const need = ewayBillNeed(
      consignment(9_000_000, {
        lines: [
          { hsn: '7113 19', valuePaise: 5_000_000 },
          { hsn: '9601', valuePaise: 500_000 },
          { hsn: '6109', valuePaise: 3_500_000 },
        ],
      }),
      rules,
    );
    expect(need).toEqual({
      needed: false,
      valuePaise: 3_500_000,
      exemptPaise: 5_500_000,
      limitPaise: 5_000_000,
      limitSetBy: 'rule 138(1) of the CGST Rules',
    });
  });

  it('counts a line without an HSN as taxable, and never more exempt value than the order has', () => {
    const need = ewayBillNeed(
      consignment(6_000_000, {
        lines: [
          { hsn: null, valuePaise: 5_100_000 },
          { hsn: '711319', valuePaise: 900_000 },
        ],
      }),
      rules,
    );
    expect([need.needed, need.valuePaise, need.exemptPaise]).toEqual([true, 5_100_000, 900_000]);
    const allExempt = ewayBillNeed(consignment(100, { lines: [{ hsn: '7113', valuePaise: 500 }] }), rules);
    expect([allExempt.valuePaise, allExempt.exemptPaise]).toEqual([0, 100]);
  });
});

describe("an e-way bill's validity (rule 138(10))", () => {
  const cases: [number, number][] = [
    [0, 1],
    [1, 1],
    [200, 1],
    [200.1, 2],
    [450, 3],
    [2_000, 10],
  ];
  it.each(cases)('%s km: %s days', (km, days) => {
    expect(validityDays(km)).toBe(days);
  });

  it('runs to the end of the day n days after the day it was generated', () => {
    expect(lastValidDay(parseDay('2026-11-20'), 450)).toBe(parseDay('2026-11-23'));
  });

  it('takes the distance between two pincodes as the crow flies', () => {
    const delhi = directory.lookup('110001')!;
    const mumbai = directory.lookup('400001')!;
    expect(Math.round(greatCircleKm(delhi, mumbai)!)).toBe(1_166);
  });
});

describe("the e-way bill data files' checks", () => {
  const exempt = { source: 's', exempt: [{ hsn_prefix: '71', goods: 'g', annexure_items: [4] }] };
  const limits = (state: string) => ({
    source: 's',
    interstate_limit_rupees: 50_000,
    states: [{ state, intrastate_limit_rupees: 100_000, notification: 'n' }],
  });

  it('refuses a State the pincode directory does not know, naming it', () => {
    expect(() => parseEwayBillRules(exempt, limits('Dilli'), directory.states)).toThrow(
      /states\.0\.state.*"Dilli" is not a State of the pincode directory/,
    );
  });

  it('refuses a malformed HSN prefix', () => {
    const bad = { ...exempt, exempt: [{ hsn_prefix: '7a', goods: 'g', annexure_items: [4] }] };
    expect(() => parseEwayBillRules(bad, limits('Delhi'), directory.states)).toThrow(DataFileError);
  });
});
