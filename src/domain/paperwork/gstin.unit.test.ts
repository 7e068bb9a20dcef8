import { describe, expect, it } from 'vitest';
import { loadPincodeDirectory } from '../../data-files.js';
import { GST_STATE_CODES, gstinCheckCharacter, gstinProblems } from './gstin.js';

describe("a GSTIN's checks", () => {
  // GSTINs published as examples by the GST portal's and taxpayers' documents (docs/paperwork.md).
  it.each([
    ['27AAPFU0939F1ZV', 'Maharashtra'],
    ['29AAGCB7383J1Z4', 'Karnataka'],
    ['33AAACH7409R1Z8', 'Tamil Nadu'],
  ])('%s is right, registered in %s', (gstin, state) => {
    expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14]);
    expect(gstinProblems(gstin, state)).toEqual([]);
  });

  it.each([
    ['27AAPFU0939F1ZW', undefined, ['its last character should be V, the check character of the first 14']],
    ['27AAPFU0939F1ZV', 'Delhi', ['it is registered in Maharashtra (state code 27), not Delhi']],
    [
      '40AAPFU0939F1ZV',
      undefined,
      ['40 is not a GST state code', 'its last character should be 7, the check character of the first 14'],
    ],
  ] as [string, string | undefined, string[]][])('%s (warehouse in %s): %j', (gstin, state, problems) => {
    expect(gstinProblems(gstin, state)).toEqual(problems);
  });

  it('names every State and Union Territory as the pincode directory does, and covers each', () => {
    const states = loadPincodeDirectory().states;
    expect(Object.values(GST_STATE_CODES).filter((name) => !states.has(name))).toEqual([]);
    expect([...states].filter((name) => !Object.values(GST_STATE_CODES).includes(name))).toEqual([]);
  });
});
