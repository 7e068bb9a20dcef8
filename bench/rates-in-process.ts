/**
 * The rates path timed in process, without HTTP: what pricing and writing one quote cost when
 * nothing else competes for the caches. Use it to compare changes to the engine or the writer;
 * `npm run bench:rates` is the figure that counts for the target.
 *
 *   npx tsx bench/rates-in-process.ts
 *
 * Each line is the mean of 200,000 calls after 20,000 unrecorded ones, repeated three times.
 */
import { systemClock } from '../src/clock.js';
import { loadRatesContext } from '../src/modules/rates/context.js';
import { quoteRates, type RateRequest } from '../src/modules/rates/engine.js';
import type { RatesInput } from '../src/modules/rates/rates.schemas.js';
import { createRatesService } from '../src/modules/rates/rates.service.js';
import { createRatesJsonWriter } from '../src/modules/rates/response.js';
import { describeMachine } from './lib/machine.js';

const CALLS = 200_000;
const WARM_UP_CALLS = 20_000;

function time(label: string, call: () => unknown): void {
  for (let i = 0; i < WARM_UP_CALLS; i++) call();
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) call();
  const micros = Number(process.hrtime.bigint() - start) / CALLS / 1000;
  console.log(`${label.padEnd(52)} ${micros.toFixed(2)} µs`);
}

const rates = loadRatesContext();
const service = createRatesService({ rates, clock: systemClock });
const writeRatesJson = createRatesJsonWriter(rates.catalogue);

// The request bench/rates.ts sends: Bengaluru → Chennai, 1.2 kg, COD ₹2,500, 11 services priced.
const body: RatesInput = {
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
const request: RateRequest = {
  journeyType: 'forward',
  origin: rates.directory.lookup('560001')!,
  destination: rates.directory.lookup('600001')!,
  deadWeightGrams: 1200,
  lengthCm: 20,
  widthCm: 15,
  heightCm: 10,
  paymentMethod: 'cod',
  shipmentValuePaise: 250_000,
  qcApplicable: false,
};
const quote = quoteRates(request, new Date(), rates);

console.log(`machine: ${describeMachine()}`);
console.log(`quote:   ${quote.couriers.length} services priced, ${writeRatesJson(quote, request).length} bytes written\n`);
for (let round = 1; round <= 3; round++) {
  time('quoteRates (price 11 services)', () => quoteRates(request, new Date(), rates));
  time('writeRatesJson (the 4,292-byte body)', () => writeRatesJson(quote, request));
  time('service.quoteJson (check pincodes, price, write)', () => service.quoteJson(body));
  console.log('');
}
