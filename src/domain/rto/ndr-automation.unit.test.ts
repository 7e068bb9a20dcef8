import { describe, expect, it } from 'vitest';
import { EXAMPLE_RULES, matchRule, type NdrRule, ruleProblems } from './ndr-automation.js';

describe('matchRule', () => {
  it.each([
    ['the first unavailable NDR is reattempted', { ndrReason: 'customer_unavailable', cod: false, attempt: 1 }, 0],
    ['a refusal on COD asks the buyer', { ndrReason: 'refused', cod: true, attempt: 1 }, 1],
    ['a prepaid refusal matches no rule on its first NDR', { ndrReason: 'refused', cod: false, attempt: 1 }, undefined],
    ['the second NDR goes back, whatever its reason', { ndrReason: 'customer_unavailable', cod: false, attempt: 2 }, 2],
    [
      'a refusal on COD at the second NDR is asked first: the first match wins',
      { ndrReason: 'refused', cod: true, attempt: 2 },
      1,
    ],
    [
      'an NDR without a reason matches only rules without reasons',
      { ndrReason: null, cod: true, attempt: 1 },
      undefined,
    ],
  ] as const)('%s', (_, facts, index) => {
    expect(matchRule(EXAMPLE_RULES, facts)?.index).toBe(index);
  });
});

describe('ruleProblems', () => {
  it('names every problem by its place in the list', () => {
    const rules: NdrRule[] = [
      {
        name: 'A',
        when: { ndr_reasons: ['not_home'], attempt_min: 3, attempt_max: 2 },
        action: 'rto',
        rto_after_hours: 5,
      },
      { name: 'A', when: {}, action: 'reattempt' },
    ];
    expect(ruleProblems(rules)).toEqual([
      { field: 'rules.0.when.ndr_reasons', message: expect.stringContaining("'not_home' is not") },
      { field: 'rules.0.when.attempt_min', message: 'attempt_min must not be above attempt_max' },
      { field: 'rules.0.rto_after_hours', message: 'rto_after_hours belongs to the message_buyer action only' },
      { field: 'rules.1.name', message: "rule name 'A' is used twice" },
    ]);
    expect(ruleProblems(EXAMPLE_RULES)).toEqual([]);
  });
});
