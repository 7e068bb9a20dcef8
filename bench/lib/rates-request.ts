import type { RatesInput } from '../../src/features/rates/rates.schemas.js';

/**
 * The quote the rates benchmarks ask for: Bengaluru → Chennai (zone C), 1.2 kg, COD ₹2,500.
 * Every service but the two weight plans prices it: 11 of 13.
 */
export const BENCH_RATES_INPUT: RatesInput = {
  journey_type: 'forward',
  origin_pincode: '560001',
  destination_pincode: '600001',
  dead_weight: 1200,
  length: 20,
  width: 15,
  height: 10,
  payment_method: 'cod',
  shipment_value: 2500,
};
