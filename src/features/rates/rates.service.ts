import type { Clock } from '../../base/clock.js';
import { checkAll, invalid } from '../../domain/errors.js';
import { RATE_ERRORS } from './rates.errors.js';
import { resolvePincode } from '../../domain/geo/resolve.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { quoteBoxes, type RateBox } from '../../domain/rates/engine-boxes.js';
import { quoteRates, type RateRequest, serviceableCarriers, paymentMethodOf } from '../../domain/rates/engine.js';
import { rupeesToPaise, scaleRoundHalfUp } from '../../domain/money.js';
import type { RatesInput, ServiceabilityInput } from './rates.schemas.js';
import { createRatesJsonWriter, toCarriersResponse, toServiceabilityResponse } from './response.js';
import { cityOfPincode } from '../../domain/geo/cities.js';

export type RatesService = ReturnType<typeof createRatesService>;

/** Quotes kept for the minute they were made in (see quoteJson); the oldest goes first past this. */
const QUOTE_CACHE_MAX_ENTRIES = 1_000;
const MINUTE_MS = 60_000;

/** Every field of the body a quote depends on (the schema allows no others). */
const quoteKey = (body: RatesInput) =>
  `${body.journey_type}|${body.origin_pincode}|${body.destination_pincode}|${body.dead_weight}|${body.length}|${body.width}|` +
  `${body.height}|${body.payment_method}|${body.shipment_value}|${body.qc_applicable}` +
  (body.packages === undefined
    ? ''
    : `|${body.packages.map((p) => `${p.weight},${p.length},${p.breadth},${p.height}`).join(';')}`);

/** A multi-piece body's boxes in engine units (the schema has checked their form). */
const boxesOf = (body: RatesInput): RateBox[] | undefined =>
  body.packages?.map((p) => ({ weightGrams: p.weight, lengthCm: p.length, breadthCm: p.breadth, heightCm: p.height }));

/** A forward journey's payment_method (required) and, for COD, its shipment_value in paise. */
function forwardValuePaise(body: RatesInput): number | undefined {
  if (body.payment_method === undefined) {
    throw invalid('payment_method is required when journey_type is forward', 'payment_method');
  }
  if (paymentMethodOf(body.payment_method) !== 'cod') return undefined;
  if (body.shipment_value === undefined) {
    throw invalid('shipment_value is required when payment_method is cod', 'shipment_value');
  }
  // The schema lets 0.004 through (> 0), but it is 0 paise, which the engine refuses with a 500.
  const paise = rupeesToPaise(body.shipment_value);
  if (paise < 1) throw invalid('shipment_value must be at least 0.01 (rupees) for cod', 'shipment_value');
  return paise;
}

export function createRatesService({ rates, clock }: { rates: RatesContext; clock: Clock }) {
  const carriers = toCarriersResponse(rates.catalogue);
  const writeRatesJson = createRatesJsonWriter(rates.catalogue);
  // The answer is a function of the body, the rates context (fixed for the process) and the clock,
  // and the clock enters only as the India day and minute of day (a pickup cut-off is a whole
  // minute, India is a whole number of minutes from UTC): within one UTC minute the same body gets
  // the same bytes by construction. A client's checkout asking again and again is answered from here.
  const quotes = new Map<string, Buffer>();
  let quotesMinute = Number.NaN;

  /**
   * SPEC 4.6 rules 1, 2 and 5 (the schema holds rules 3 and 4), every failure reported together,
   * then the request in engine units.
   */
  function toRateRequest(body: RatesInput): RateRequest {
    const checks = checkAll();
    const origin = checks.check(() => resolvePincode(rates.directory, body.origin_pincode, 'origin_pincode'));
    const destination = checks.check(() =>
      resolvePincode(rates.directory, body.destination_pincode, 'destination_pincode'),
    );
    // Weights are echoed to 0.01 g: under 0.005 g the schema's "> 0" would echo and bill 0.
    if (scaleRoundHalfUp(body.dead_weight, 100) < 1) {
      checks.check(() => {
        throw invalid('dead_weight must be at least 0.01 (grams)', 'dead_weight');
      });
    }
    body.packages?.forEach((box, i) => {
      if (scaleRoundHalfUp(box.weight, 100) < 1) {
        checks.check(() => {
          throw invalid(`packages.${i}.weight must be at least 0.01 (grams)`, `packages.${i}.weight`);
        });
      }
    });
    let paymentMethod: RateRequest['paymentMethod'];
    let shipmentValuePaise: number | undefined;
    if (body.journey_type === 'forward') {
      paymentMethod = body.payment_method === undefined ? undefined : paymentMethodOf(body.payment_method);
      shipmentValuePaise = checks.check(() => forwardValuePaise(body));
    }
    checks.done();
    // One object literal with every field, not spreads of a shared part: this runs per quote, and
    // spreading measured many times slower than a literal on Node 20.
    return {
      journeyType: body.journey_type,
      origin: origin!,
      destination: destination!,
      deadWeightGrams: body.dead_weight,
      lengthCm: body.length,
      widthCm: body.width,
      heightCm: body.height,
      paymentMethod,
      shipmentValuePaise,
      qcApplicable: body.journey_type === 'return' && (body.qc_applicable ?? true),
    };
  }

  return {
    /** The quote as JSON bytes, ready to send (see createRatesJsonWriter for why not an object). */
    quoteJson(body: RatesInput): Buffer {
      const now = clock.now();
      const minute = Math.floor(now.getTime() / MINUTE_MS);
      if (minute !== quotesMinute) {
        quotes.clear();
        quotesMinute = minute;
      }
      const key = quoteKey(body);
      const kept = quotes.get(key);
      if (kept !== undefined) return kept;
      const request = toRateRequest(body);
      const boxes = boxesOf(body);
      const quote = boxes === undefined ? quoteRates(request, now, rates) : quoteBoxes(request, boxes, now, rates);
      const json = writeRatesJson(quote, request);
      if (quotes.size >= QUOTE_CACHE_MAX_ENTRIES) quotes.delete(quotes.keys().next().value as string);
      quotes.set(key, json);
      return json;
    },

    serviceability(body: ServiceabilityInput) {
      const checks = checkAll();
      const from = checks.check(() => resolvePincode(rates.directory, body.from, 'from'));
      const to = checks.check(() => resolvePincode(rates.directory, body.to, 'to'));
      checks.done();
      const result = serviceableCarriers(
        {
          from: from!,
          to: to!,
          paymentMode: paymentMethodOf(body.payment_mode),
          shipmentType: body.shipment_type,
        },
        rates,
      );
      return toServiceabilityResponse(result);
    },

    carriers: () => carriers,

    pincode(pincode: string) {
      const entry = rates.directory.lookup(pincode);
      if (!entry) throw RATE_ERRORS.pincode_not_found.error(`Pincode ${pincode} is not in the pincode directory`);
      return { pincode: entry.pincode, city: cityOfPincode(entry), district: entry.district, state: entry.state };
    },
  };
}
