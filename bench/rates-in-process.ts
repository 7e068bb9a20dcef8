/**
 * The rates path timed in process, without HTTP: what pricing and writing one quote cost when
 * nothing else competes for the caches. Use it to compare changes to the engine or the writer;
 * `npm run bench:rates` is the figure that counts for the target.
 *
 *   npx tsx bench/rates-in-process.ts
 *
 * Each line is the mean of 200,000 calls after 20,000 unrecorded ones, repeated three times.
 */
import { systemClock } from '../src/base/clock.js';
import { quoteRates, type RateRequest } from '../src/domain/rates/engine.js';
import { rupeesToPaise } from '../src/domain/money.js';
import { createRatesService } from '../src/features/rates/rates.service.js';
import { createRatesJsonWriter } from '../src/features/rates/response.js';
import { describeMachine } from './lib/machine.js';
import { BENCH_RATES_INPUT } from './lib/rates-request.js';
import { loadRatesContext } from '../src/data-files.js';

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

// The request bench/rates.ts sends, and the same in engine units.
const body = BENCH_RATES_INPUT;
const request: RateRequest = {
  journeyType: 'forward',
  origin: rates.directory.lookup(String(body.origin_pincode))!,
  destination: rates.directory.lookup(String(body.destination_pincode))!,
  deadWeightGrams: body.dead_weight,
  lengthCm: body.length,
  widthCm: body.width,
  heightCm: body.height,
  paymentMethod: 'cod',
  shipmentValuePaise: rupeesToPaise(body.shipment_value!),
  qcApplicable: false,
};
const quote = quoteRates(request, new Date(), rates);

console.log(`machine: ${describeMachine()}`);
console.log(
  `quote:   ${quote.couriers.length} services priced, ${writeRatesJson(quote, request).length} bytes written\n`,
);
for (let round = 1; round <= 3; round++) {
  time('quoteRates (price 11 services)', () => quoteRates(request, new Date(), rates));
  time('writeRatesJson (the 4,292-byte body)', () => writeRatesJson(quote, request));
  time('service.quoteJson (check pincodes, price, write)', () => service.quoteJson(body));
  console.log('');
}
