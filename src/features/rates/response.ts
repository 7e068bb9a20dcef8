import { type Static, Type } from 'typebox';
import { zoneLabel } from '../../domain/geo/zones.js';
import { AsciiJsonWriter, asciiBytes, asciiJson } from './ascii-json.js';
import { formatDay } from '../../domain/calendar.js';
import type { CourierCatalogue, CourierService } from '../../domain/rates/catalogue.js';
import type { CourierQuote, RateQuote, RateRequest, ServiceabilityResult } from '../../domain/rates/engine.js';
import { paiseToRupees } from '../../domain/money.js';
import { BoxCount, MultiPieceFields, withBoxes } from './response-boxes.js';

// Response schemas for the routes: they give OpenAPI its shapes (and Fastify its serialiser, except
// for /rates, whose body createRatesJsonWriter writes), and the unit tests check the mappers and
// the writer against them, so shape and code cannot drift apart.
const DateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Amount = Type.Number({ minimum: 0 });
const ExpectedDelivery = Type.Object({ pickup: DateString, delivery: DateString }, { additionalProperties: false });
const ServiceLevel = Type.Union([Type.Literal('surface'), Type.Literal('air')]);
export const ForwardCourierEntrySchema = Type.Object(
  {
    carrier_id: Type.String(),
    carrier_name: Type.String(),
    carrier_code: Type.String(),
    service_level: ServiceLevel,
    status: Type.Literal('active'),
    is_fast: Type.Boolean(),
    is_prime: Type.Boolean(),
    platform_fee: Amount,
    expected_delivery: ExpectedDelivery,
    charges: Type.Object(
      { forward_freight_charges: Amount, cod_charges: Amount, rto_charges: Amount, total_forward_charges: Amount },
      { additionalProperties: false },
    ),
    ...MultiPieceFields,
  },
  { additionalProperties: false },
);

export const ReturnCourierEntrySchema = Type.Object(
  {
    carrier_id: Type.String(),
    carrier_name: Type.String(),
    carrier_code: Type.String(),
    service_level: ServiceLevel,
    status: Type.Literal('active'),
    expected_delivery: ExpectedDelivery,
    charges: Type.Object(
      { return_freight_charges: Amount, qc_charges: Amount, total_return_charges: Amount },
      { additionalProperties: false },
    ),
    ...MultiPieceFields,
  },
  { additionalProperties: false },
);

const Zone = Type.Union([
  Type.Literal('A'),
  Type.Literal('B'),
  Type.Literal('C'),
  Type.Literal('D'),
  Type.Literal('E'),
]);
const Weights = {
  dead_weight: Type.Number(),
  volumetric_weight: Type.Number(),
  applicable_weight: Type.Number(),
  zone: Zone,
};

export const ForwardRatesResponseSchema = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    result: Type.Object(
      {
        serviceable_couriers: Type.Array(ForwardCourierEntrySchema),
        shipment_details: Type.Object(
          {
            journey_type: Type.Literal('forward'),
            origin_pincode: Type.String(),
            destination_pincode: Type.String(),
            payment_method: Type.Union([Type.Literal('cod'), Type.Literal('prepaid')]),
            ...Weights,
            ...BoxCount,
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ReturnRatesResponseSchema = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    result: Type.Object(
      {
        serviceable_couriers: Type.Array(ReturnCourierEntrySchema),
        shipment_details: Type.Object(
          {
            journey_type: Type.Literal('return'),
            origin_pincode: Type.String(),
            destination_pincode: Type.String(),
            ...Weights,
            ...BoxCount,
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const RatesResponseSchema = Type.Union([ForwardRatesResponseSchema, ReturnRatesResponseSchema]);
export type ForwardRatesResponse = Static<typeof ForwardRatesResponseSchema>;
export type ReturnRatesResponse = Static<typeof ReturnRatesResponseSchema>;

const DAY_BYTES = 10;
/** Leads are remembered for deliveries up to this many days after pickup (all real ones). */
const MAX_LEAD_SPAN = 4_096;
/** Room for one amount: far more digits than any fee has. */
const AMOUNT_BYTES = 24;
const COMMA = 0x2c;

const RATES_OPEN = asciiBytes('{"status":"SUCCESS","result":{"serviceable_couriers":[');
const DELIVERY = asciiBytes('","delivery":"');
const FORWARD_CHARGES = [
  '"},"charges":{"forward_freight_charges":',
  ',"cod_charges":',
  ',"rto_charges":',
  ',"total_forward_charges":',
].map(asciiBytes);
const RETURN_CHARGES = ['"},"charges":{"return_freight_charges":', ',"qc_charges":', ',"total_return_charges":'].map(
  asciiBytes,
);
const ENTRY_CLOSE = asciiBytes('}}');
const DETAILS = [
  '],"shipment_details":{"journey_type":"',
  '","origin_pincode":"',
  '","destination_pincode":"',
  '","payment_method":"',
  '","dead_weight":',
  ',"volumetric_weight":',
  ',"applicable_weight":',
  ',"zone":"',
  '"}}}',
].map(asciiBytes);
/** The longest journey type, pincode, payment method and zone the details carry. */
const MAX_DETAIL_WORDS_BYTES = 'forward'.length + 6 + 6 + 'prepaid'.length + 1;
const totalLength = (fragments: Uint8Array[]) => fragments.reduce((sum, bytes) => sum + bytes.length, 0);

interface ServiceFragments {
  forward: Buffer;
  return: Buffer;
  /** See `leadOf`. */
  leads: Map<number, Buffer>;
}

/**
 * Writes the SPEC 2.2 body (`ForwardRatesResponseSchema` or `ReturnRatesResponseSchema`) as JSON
 * bytes, ready to send. This is the hot path of the busiest route: a generic serialiser spent more
 * time walking and escaping ~130 fields than the engine spent pricing, and a hand-built string
 * still cost as much again to flatten and encode. So each service's fixed fields are encoded once
 * at start-up (by JSON.stringify, so escaping is exact; see ascii-json.ts), together with the dates
 * the first time they come up, and a request copies them in around its own amounts and details.
 *
 * The JSON is what JSON.stringify gives for the schema-shaped object, keys in schema order, except
 * that text beyond ASCII in the catalogue is written as \u escapes (response.unit.test.ts holds
 * it to that).
 */
export function createRatesJsonWriter(catalogue: CourierCatalogue) {
  const heads = new Map<CourierService, ServiceFragments>();
  for (const service of catalogue.services) {
    const common =
      `{"carrier_id":${asciiJson(service.id)},"carrier_name":${asciiJson(service.name)},"carrier_code":${asciiJson(service.code)},` +
      `"service_level":${asciiJson(service.serviceLevel)},"status":"active"`;
    heads.set(service, {
      forward: asciiBytes(
        `${common},"is_fast":${asciiJson(service.isFast)},"is_prime":${asciiJson(service.isPrime)},` +
          `"platform_fee":${asciiJson(paiseToRupees(service.platformFeePaise))},"expected_delivery":{"pickup":"`,
      ),
      return: asciiBytes(`${common},"expected_delivery":{"pickup":"`),
      leads: new Map(),
    });
  }
  const headOf = (quote: CourierQuote) => {
    const head = heads.get(quote.service);
    if (head === undefined) throw new Error(`courier service ${quote.service.id} is not in the catalogue`);
    return head;
  };
  /**
   * An entry's bytes up to its first amount: the service's fixed fields, both dates and the first
   * charge's key. A day's quotes share a few (pickup, delivery) pairs per service, so each lead is
   * built once and then copied in whole.
   */
  const leadOf = (quote: CourierQuote, forward: boolean): Buffer => {
    const head = headOf(quote);
    const span = quote.deliveryDay - quote.pickupDay;
    const key =
      span >= 0 && span < MAX_LEAD_SPAN ? (quote.pickupDay * MAX_LEAD_SPAN + span) * 2 + (forward ? 1 : 0) : -1;
    let lead = head.leads.get(key);
    if (lead === undefined) {
      lead = Buffer.concat([
        forward ? head.forward : head.return,
        asciiBytes(formatDay(quote.pickupDay)),
        DELIVERY,
        asciiBytes(formatDay(quote.deliveryDay)),
        (forward ? FORWARD_CHARGES[0] : RETURN_CHARGES[0]) as Buffer,
      ]);
      if (key >= 0) {
        if (head.leads.size >= 1_000) head.leads.clear();
        head.leads.set(key, lead);
      }
    }
    return lead;
  };
  const longestHead = Math.max(
    0,
    ...[...heads.values()].map((head) => Math.max(head.forward.length, head.return.length)),
  );
  const maxEntryBytes =
    1 +
    longestHead +
    2 * DAY_BYTES +
    DELIVERY.length +
    totalLength(FORWARD_CHARGES) +
    4 * AMOUNT_BYTES +
    ENTRY_CLOSE.length;
  const maxFixedBytes = RATES_OPEN.length + totalLength(DETAILS) + MAX_DETAIL_WORDS_BYTES + 3 * AMOUNT_BYTES;

  function writeParcelJson(quote: RateQuote, request: RateRequest): Buffer {
    const forward = quote.journeyType === 'forward';
    const out = new AsciiJsonWriter(maxFixedBytes + quote.couriers.length * maxEntryBytes).fragment(RATES_OPEN);
    for (let i = 0; i < quote.couriers.length; i++) {
      const q = quote.couriers[i] as CourierQuote;
      if (i > 0) out.byte(COMMA);
      out.fragment(leadOf(q, forward)).hundredths(q.freightPaise);
      if (forward) {
        out.fragment(FORWARD_CHARGES[1] as Buffer).hundredths(q.codPaise);
        out.fragment(FORWARD_CHARGES[2] as Buffer).hundredths(q.rtoPaise);
        out.fragment(FORWARD_CHARGES[3] as Buffer).hundredths(q.totalPaise);
      } else {
        out.fragment(RETURN_CHARGES[1] as Buffer).hundredths(q.qcPaise);
        out.fragment(RETURN_CHARGES[2] as Buffer).hundredths(q.totalPaise);
      }
      out.fragment(ENTRY_CLOSE);
    }
    // Pincodes come from the directory (six digits); the words are from fixed sets.
    out.fragment(DETAILS[0] as Buffer).text(quote.journeyType);
    out.fragment(DETAILS[1] as Buffer).text(request.origin.pincode);
    out.fragment(DETAILS[2] as Buffer).text(request.destination.pincode);
    if (forward) out.fragment(DETAILS[3] as Buffer).text(request.paymentMethod ?? 'prepaid');
    out.fragment(DETAILS[4] as Buffer).hundredths(Math.round(quote.deadWeight * 100));
    out.fragment(DETAILS[5] as Buffer).hundredths(Math.round(quote.volumetricWeight * 100));
    out.fragment(DETAILS[6] as Buffer).hundredths(Math.round(quote.applicableWeight * 100));
    out
      .fragment(DETAILS[7] as Buffer)
      .text(quote.zone)
      .fragment(DETAILS[8] as Buffer);
    return out.finish();
  }

  return function writeRatesJson(quote: RateQuote, request: RateRequest): Buffer {
    const json = writeParcelJson(quote, request);
    return quote.boxCount === undefined ? json : withBoxes(json, quote);
  };
}

export const ServiceabilityResponseSchema = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    result: Type.Object(
      {
        serviceability_results: Type.Array(
          Type.Object({ carrier_id: Type.String(), carrier_name: Type.String() }, { additionalProperties: false }),
        ),
        zone: Type.Union([
          Type.Literal('zone_a'),
          Type.Literal('zone_b'),
          Type.Literal('zone_c'),
          Type.Literal('zone_d'),
          Type.Literal('zone_e'),
        ]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ServiceabilityResponse = Static<typeof ServiceabilityResponseSchema>;

export function toServiceabilityResponse(result: ServiceabilityResult): ServiceabilityResponse {
  return {
    status: 'SUCCESS',
    result: {
      serviceability_results: result.carriers.map((service) => ({
        carrier_id: service.id,
        carrier_name: service.name,
      })),
      zone: zoneLabel(result.zone),
    },
  };
}

export const CarriersResponseSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          carrier_id: Type.String(),
          carrier_name: Type.String(),
          carrier_code: Type.String(),
          service_level: ServiceLevel,
          is_fast: Type.Boolean(),
          is_prime: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CarriersResponse = Static<typeof CarriersResponseSchema>;

/** `GET /custom/api/v1/carriers`: enough for a client to build courier filters. */
export function toCarriersResponse(catalogue: CourierCatalogue): CarriersResponse {
  return {
    data: catalogue.services.map((service) => ({
      carrier_id: service.id,
      carrier_name: service.name,
      carrier_code: service.code,
      service_level: service.serviceLevel,
      is_fast: service.isFast,
      is_prime: service.isPrime,
    })),
  };
}
