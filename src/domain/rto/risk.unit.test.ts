import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, NO_OUTCOMES, type RiskInput, scoreRisk, thresholdProblems } from './risk.js';

const PREPAID: RiskInput = {
  cod: false,
  codPaise: 0,
  addressValidity: 'valid',
  buyer: NO_OUTCOMES,
  pincode: NO_OUTCOMES,
  district: NO_OUTCOMES,
};
const COD: RiskInput = { ...PREPAID, cod: true, codPaise: 99_800 };
const outcomes = (delivered: number, rto: number, refused = 0) => ({ delivered, rto, refused });

describe('scoreRisk', () => {
  it.each([
    ['a prepaid order, nothing known', PREPAID, 'low', 0, []],
    ['COD', COD, 'low', 20, [['cod', 20]]],
    [
      'high-value COD',
      { ...COD, codPaise: 300_000 },
      'medium',
      35,
      [
        ['cod', 20],
        ['high_value_cod', 15],
      ],
    ],
    [
      'COD to an incomplete address',
      { ...COD, addressValidity: 'incomplete' },
      'medium',
      35,
      [
        ['cod', 20],
        ['address_incomplete', 15],
      ],
    ],
    [
      'COD to a suspicious address',
      { ...COD, addressValidity: 'suspicious' },
      'medium',
      50,
      [
        ['cod', 20],
        ['address_suspicious', 30],
      ],
    ],
    [
      'a buyer with two earlier RTOs, prepaid',
      { ...PREPAID, buyer: outcomes(0, 2) },
      'high',
      60,
      [['buyer_rto_history', 60]],
    ],
    [
      'a buyer with three RTOs counts two',
      { ...COD, buyer: outcomes(1, 3) },
      'high',
      80,
      [
        ['cod', 20],
        ['buyer_rto_history', 60],
      ],
    ],
    [
      'a buyer who refused once',
      { ...COD, buyer: outcomes(0, 0, 1) },
      'medium',
      30,
      [
        ['cod', 20],
        ['buyer_refusal_history', 10],
      ],
    ],
    [
      'a buyer delivered twice, never an RTO',
      { ...COD, buyer: outcomes(2, 0) },
      'low',
      5,
      [
        ['cod', 20],
        ['buyer_delivered_before', -15],
      ],
    ],
    ['never below zero', { ...PREPAID, buyer: outcomes(5, 0) }, 'low', 0, [['buyer_delivered_before', -15]]],
    [
      'a pincode with a 40% RTO rate',
      { ...COD, pincode: outcomes(6, 4) },
      'medium',
      40,
      [
        ['cod', 20],
        ['pincode_rto_rate', 20],
      ],
    ],
    [
      'a pincode with a 20% RTO rate',
      { ...COD, pincode: outcomes(8, 2) },
      'medium',
      30,
      [
        ['cod', 20],
        ['pincode_rto_rate', 10],
      ],
    ],
    ['a pincode with too few outcomes to count', { ...COD, pincode: outcomes(1, 3) }, 'low', 20, [['cod', 20]]],
    [
      'the district for a new pincode',
      { ...COD, pincode: outcomes(1, 1), district: outcomes(14, 6) },
      'medium',
      40,
      [
        ['cod', 20],
        ['district_rto_rate', 20],
      ],
    ],
    [
      'not the district when the pincode speaks',
      { ...COD, pincode: outcomes(10, 0), district: outcomes(14, 6) },
      'low',
      20,
      [['cod', 20]],
    ],
  ] as const)('%s', (_, input, risk, score, reasons) => {
    expect(scoreRisk(input, DEFAULT_THRESHOLDS)).toEqual({
      risk,
      score,
      reasons: reasons.map(([reason, points]) => ({ reason, points })),
    });
  });

  it("uses the account's thresholds", () => {
    const strict = { medium: 10, high: 20, highValuePaise: 50_000 };
    expect(scoreRisk(COD, strict)).toEqual({
      risk: 'high',
      score: 35,
      reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'high_value_cod', points: 15 },
      ],
    });
  });

  it('refuses thresholds that do not rise', () => {
    expect(thresholdProblems({ medium: 60, high: 60, highValuePaise: 1 })).toEqual([
      { field: 'medium', message: 'medium must be below high' },
    ]);
    expect(thresholdProblems(DEFAULT_THRESHOLDS)).toEqual([]);
  });
});
