import type { Clock } from '../../clock.js';
import { badRequest } from '../../http/errors.js';
import { resolvePincode } from '../geo/resolve.js';
import type { RatesContext } from './context.js';
import { quoteRates, type RateRequest, serviceableCarriers } from './engine.js';
import { rupeesToPaise } from './money.js';
import type { RatesInput, ServiceabilityInput } from './rates.schemas.js';
import { toCarriersResponse, toRatesResponse, toServiceabilityResponse } from './response.js';

export type RatesService = ReturnType<typeof createRatesService>;

export function createRatesService({ rates, clock }: { rates: RatesContext; clock: Clock }) {
  const carriers = toCarriersResponse(rates.catalogue);

  /** SPEC 4.6 rules 1, 2 and 5 (the schema holds rules 3 and 4), then the request in engine units. */
  function toRateRequest(body: RatesInput): RateRequest {
    const origin = resolvePincode(rates.directory, body.origin_pincode, 'origin_pincode');
    const destination = resolvePincode(rates.directory, body.destination_pincode, 'destination_pincode');
    const common = {
      origin,
      destination,
      deadWeightGrams: body.dead_weight,
      lengthCm: body.length,
      widthCm: body.width,
      heightCm: body.height,
    };
    if (body.journey_type === 'return') {
      return { journeyType: 'return', ...common, qcApplicable: body.qc_applicable ?? true };
    }
    if (body.payment_method === undefined) {
      throw badRequest('payment_method is required when journey_type is forward', 'payment_method');
    }
    if (body.payment_method === 'prepaid') {
      return { journeyType: 'forward', ...common, paymentMethod: 'prepaid', qcApplicable: false };
    }
    if (body.shipment_value === undefined) {
      throw badRequest('shipment_value is required when payment_method is cod', 'shipment_value');
    }
    // The schema lets 0.004 through (> 0), but it is 0 paise, which the engine refuses with a 500.
    const shipmentValuePaise = rupeesToPaise(body.shipment_value);
    if (shipmentValuePaise < 1) {
      throw badRequest('shipment_value must be at least 0.01 (rupees) for cod', 'shipment_value');
    }
    return {
      journeyType: 'forward',
      ...common,
      paymentMethod: 'cod',
      shipmentValuePaise,
      qcApplicable: false,
    };
  }

  return {
    quote(body: RatesInput) {
      const request = toRateRequest(body);
      return toRatesResponse(quoteRates(request, clock.now(), rates), request);
    },

    serviceability(body: ServiceabilityInput) {
      const result = serviceableCarriers(
        {
          from: resolvePincode(rates.directory, body.from, 'from'),
          to: resolvePincode(rates.directory, body.to, 'to'),
          paymentMode: body.payment_mode,
          shipmentType: body.shipment_type,
        },
        rates,
      );
      return toServiceabilityResponse(result);
    },

    carriers: () => carriers,
  };
}
