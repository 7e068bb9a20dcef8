import { describe, expect, it } from 'vitest';
import { parseWeightReport, readWeightReport, WeightReportError } from './weight-report.js';

// How a weight report's header is read: its columns by name, the charged weight's unit as stated.

describe('the charged weight column', () => {
  it.each([
    ['charged_weight_g', 'g'],
    ['Charged Weight (gm)', 'g'],
    ['charged weight grams', 'g'],
    ['charged_weight_kg', 'kg'],
    ['Charged Weight (kg)', 'kg'],
    ['Charged Weight (in kg)', 'kg'],
    ['CHARGED-WEIGHT-KGS', 'kg'],
    ['charged_weight', null],
    ['Charged Weight', null],
  ])('%s states %s', (header, unit) => {
    const report = parseWeightReport(`awb,${header}\nSFX1,2\n`);
    expect(report.unit).toBe(unit);
    expect(report.weightHeader).toBe(header);
    expect(report.rows[0]!.chargedWeightGrams).toBe(unit === 'kg' ? 2000 : 2);
  });

  it('a column that is no weight (pounds, a bare "weight") is no charged weight column', () => {
    expect(() => parseWeightReport('awb,charged_weight_lb\nSFX1,2\n')).toThrow(WeightReportError);
    expect(() => parseWeightReport('awb,weight\nSFX1,2\n')).toThrow(/charged_weight_g or charged_weight_kg/);
  });

  it('reads a file in pieces as it reads it whole, a row split anywhere', () => {
    const text = 'awb,charged_weight_kg,length_cm,breadth_cm,height_cm\r\n"SFX1",1.25,30,20,10\r\nSFX2,0.5,,,\r\n';
    const whole = parseWeightReport(text);
    for (let cut = 1; cut < text.length; cut++) {
      const reader = readWeightReport();
      reader.push(text.slice(0, cut));
      reader.push(text.slice(cut));
      expect(reader.end()).toEqual(whole);
    }
    expect(whole.rows.map((r) => r.chargedWeightGrams)).toEqual([1250, 500]);
  });
});
