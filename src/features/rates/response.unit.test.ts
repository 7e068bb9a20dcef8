import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { formatDay } from '../../domain/calendar.js';
import { quoteBoxes } from '../../domain/rates/engine-boxes.js';
import { type RateQuote, type RateRequest, quoteRates, serviceableCarriers } from '../../domain/rates/engine.js';
import {
  CarriersResponseSchema,
  createRatesJsonWriter,
  ForwardRatesResponseSchema,
  type ForwardRatesResponse,
  ReturnRatesResponseSchema,
  type ReturnRatesResponse,
  ServiceabilityResponseSchema,
  toCarriersResponse,
  toServiceabilityResponse,
} from './response.js';
import { loadRatesContext } from '../../data-files.js';

const ctx = loadRatesContext();
const NOW = new Date('2026-06-15T04:30:00Z');
const pin = (pincode: string) => ctx.directory.lookup(pincode)!;

const forwardCod: RateRequest = {
  journeyType: 'forward',
  origin: pin('110001'),
  destination: pin('302001'),
  deadWeightGrams: 1234.567,
  lengthCm: 20.5,
  widthCm: 15.3,
  heightCm: 10.7,
  paymentMethod: 'cod',
  shipmentValuePaise: 133_337,
  qcApplicable: true,
};
const returnQc: RateRequest = {
  journeyType: 'return',
  origin: pin('682001'),
  destination: pin('560001'),
  deadWeightGrams: 800,
  lengthCm: 30,
  widthCm: 20,
  heightCm: 10,
  qcApplicable: true,
};

const writeRatesJson = createRatesJsonWriter(ctx.catalogue);

/**
 * The written body, checked to be ASCII and, for this ASCII catalogue, exactly what JSON.stringify
 * gives for the parsed object: no spaces, the same key order, the same number forms.
 */
function written(quote: RateQuote, request: RateRequest, catalogueWriter = writeRatesJson) {
  const bytes = catalogueWriter(quote, request);
  expect(bytes.every((byte) => byte < 0x80)).toBe(true);
  const text = bytes.toString('utf8');
  const body = JSON.parse(text);
  if (catalogueWriter === writeRatesJson) expect(JSON.stringify(body)).toBe(text);
  return body;
}
const forwardBody = (request: RateRequest): ForwardRatesResponse => written(quoteRates(request, NOW, ctx), request);
const returnBody = (request: RateRequest): ReturnRatesResponse => written(quoteRates(request, NOW, ctx), request);

const amounts = (value: unknown): number[] =>
  typeof value === 'number'
    ? [value]
    : value !== null && typeof value === 'object'
      ? Object.values(value).flatMap(amounts)
      : [];

describe('createRatesJsonWriter', () => {
  it('maps a forward quote to the exact SPEC 2.2 shape', () => {
    const body = forwardBody(forwardCod);
    expect(Value.Check(ForwardRatesResponseSchema, body)).toBe(true);
    expect(Object.keys(body)).toEqual(['status', 'result']);
    expect(Object.keys(body.result)).toEqual(['serviceable_couriers', 'shipment_details']);
    const first = body.result.serviceable_couriers[0]!;
    expect(Object.keys(first).sort()).toEqual(
      [
        'carrier_code',
        'carrier_id',
        'carrier_name',
        'charges',
        'expected_delivery',
        'is_fast',
        'is_prime',
        'platform_fee',
        'service_level',
        'status',
      ].sort(),
    );
    expect(Object.keys(first.charges)).toEqual([
      'forward_freight_charges',
      'cod_charges',
      'rto_charges',
      'total_forward_charges',
    ]);
    expect(body.result.shipment_details).toEqual({
      journey_type: 'forward',
      origin_pincode: '110001',
      destination_pincode: '302001',
      payment_method: 'cod',
      dead_weight: 1234.57,
      volumetric_weight: 671.21, // 20.5 × 15.3 × 10.7 / 5 = 3,356.055 / 5 = 671.211
      applicable_weight: 1234.57,
      zone: 'D',
    });
  });

  it('prints a Delhivery Surface line in rupees', () => {
    // D, 1,234.57 g: 52 + ceil(734.57/500) = 2 × 48 = 148; COD 1.75 % of ₹1,333.37 = 23.33 → floor ₹35.
    const body = forwardBody(forwardCod);
    const line = body.result.serviceable_couriers.find((c) => c.carrier_id === 'CARDELHSURF01');
    expect(line).toEqual({
      carrier_id: 'CARDELHSURF01',
      carrier_name: 'Delhivery Surface',
      carrier_code: 'delhivery-surface',
      service_level: 'surface',
      status: 'active',
      is_fast: false,
      is_prime: false,
      platform_fee: 0,
      expected_delivery: { pickup: '2026-06-15', delivery: '2026-06-20' },
      charges: { forward_freight_charges: 148, cod_charges: 35, rto_charges: 148, total_forward_charges: 183 },
    });
  });

  it('maps a return quote without forward-only fields or payment method', () => {
    const body = returnBody(returnQc);
    expect(Value.Check(ReturnRatesResponseSchema, body)).toBe(true);
    expect(Value.Check(ForwardRatesResponseSchema, body)).toBe(false);
    for (const entry of body.result.serviceable_couriers) {
      expect(Object.keys(entry).sort()).toEqual(
        [
          'carrier_code',
          'carrier_id',
          'carrier_name',
          'charges',
          'expected_delivery',
          'service_level',
          'status',
        ].sort(),
      );
      expect(Object.keys(entry.charges)).toEqual(['return_freight_charges', 'qc_charges', 'total_return_charges']);
    }
    expect(body.result.shipment_details).not.toHaveProperty('payment_method');
    expect(body.result.shipment_details).toEqual({
      journey_type: 'return',
      origin_pincode: '682001',
      destination_pincode: '560001',
      dead_weight: 800,
      volumetric_weight: 1200,
      applicable_weight: 1200,
      zone: 'E',
    });
    expect(body.result.serviceable_couriers[0]?.charges).toEqual({
      return_freight_charges: 252,
      qc_charges: 12,
      total_return_charges: 264,
    });
  });

  it.each([
    ['forward COD', forwardCod],
    ['return', returnQc],
    ['forward prepaid', { ...forwardCod, paymentMethod: 'prepaid' as const, shipmentValuePaise: undefined }],
  ])('%s: every amount has at most two decimals and serialises that way', (_, request) => {
    const body = forwardBody(request);
    expect(body.result.serviceable_couriers.length).toBeGreaterThan(0);
    for (const entry of body.result.serviceable_couriers) {
      for (const amount of amounts({ ...entry.charges, fee: 'platform_fee' in entry ? entry.platform_fee : 0 })) {
        expect(JSON.stringify(amount)).toMatch(/^\d+(\.\d{1,2})?$/);
      }
    }
    const d = body.result.shipment_details;
    for (const weight of [d.dead_weight, d.volumetric_weight, d.applicable_weight]) {
      expect(JSON.stringify(weight)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });

  it('answers an unserviceable lane with an empty list', () => {
    const request = { ...forwardCod, destination: pin('682555') };
    const body = forwardBody(request);
    expect(body.result.serviceable_couriers).toEqual([]);
    expect(body.result.shipment_details.zone).toBe('E');
    expect(Value.Check(ForwardRatesResponseSchema, body)).toBe(true);
  });
});

describe('createRatesJsonWriter: fields in schema order, text escaped', () => {
  /** Every object in `value` has exactly its schema's keys, in the schema's order. */
  function expectSchemaKeyOrder(
    value: unknown,
    schema: { properties?: Record<string, unknown>; items?: unknown; required?: string[] },
  ) {
    if (Array.isArray(value)) {
      for (const item of value) expectSchemaKeyOrder(item, schema.items as typeof schema);
    } else if (schema.properties !== undefined) {
      const object = value as Record<string, unknown>;
      // Every required key, and the optional ones (the multi-piece additions) only when written.
      const keys = Object.keys(schema.properties).filter((key) => schema.required?.includes(key) || key in object);
      expect(Object.keys(object)).toEqual(keys);
      for (const [key, child] of Object.entries(schema.properties))
        if (key in object) expectSchemaKeyOrder(object[key], child as typeof schema);
    }
  }

  it('writes every object with its keys in the order the schemas declare them', () => {
    expectSchemaKeyOrder(forwardBody(forwardCod), ForwardRatesResponseSchema);
    expectSchemaKeyOrder(returnBody(returnQc), ReturnRatesResponseSchema);
  });

  it("writes a multi-piece quote's additions after each object's own keys, in schema order", () => {
    const boxes = [
      { weightGrams: 400, lengthCm: 10, breadthCm: 10, heightCm: 10 },
      { weightGrams: 700, lengthCm: 30, breadthCm: 20, heightCm: 10 },
    ];
    for (const [request, schema] of [
      [forwardCod, ForwardRatesResponseSchema],
      [returnQc, ReturnRatesResponseSchema],
    ] as const) {
      const body = written(quoteBoxes(request, boxes, NOW, ctx), request);
      expect(body.result.shipment_details.box_count).toBe(2);
      expect(body.result.serviceable_couriers[0].boxes).toHaveLength(2);
      expectSchemaKeyOrder(body, schema);
      expect(Value.Check(schema, body)).toBe(true);
    }
  });

  it('escapes courier names and codes an operator writes into the catalogue, keeping the body ASCII', () => {
    const name = 'Bharat "Fast" \\ Cargo\n₹ \u2028 express';
    const services = ctx.catalogue.services.map((service, index) =>
      index === 0 ? { ...service, name, code: 'a"b' } : service,
    );
    const catalogue = { ...ctx.catalogue, services };
    const writer = createRatesJsonWriter(catalogue);
    const quote = quoteRates(forwardCod, NOW, { ...ctx, catalogue });
    const body: ForwardRatesResponse = written(quote, forwardCod, writer);
    const entry = body.result.serviceable_couriers.find((c) => c.carrier_id === services[0]!.id);
    expect(entry).toMatchObject({ carrier_name: name, carrier_code: 'a"b' });
  });

  it('writes each quote its own dates and charge keys when one writer serves several days and both journeys', () => {
    const days = ['2026-06-15T04:30:00Z', '2026-06-15T12:30:00Z', '2026-06-18T04:30:00Z', '2026-08-14T04:30:00Z'];
    for (const at of days) {
      for (const request of [forwardCod, returnQc]) {
        const quote = quoteRates(request, new Date(at), ctx);
        const body = written(quote, request);
        expect(body.result.serviceable_couriers.length).toBe(quote.couriers.length);
        body.result.serviceable_couriers.forEach(
          (entry: { expected_delivery: unknown; charges: object }, i: number) => {
            const q = quote.couriers[i]!;
            expect(entry.expected_delivery).toEqual({
              pickup: formatDay(q.pickupDay),
              delivery: formatDay(q.deliveryDay),
            });
            expect(Object.keys(entry.charges)[0]).toBe(
              request.journeyType === 'forward' ? 'forward_freight_charges' : 'return_freight_charges',
            );
          },
        );
      }
    }
  });

  it('refuses a quote for a service outside the catalogue it was built for', () => {
    const stranger = { ...ctx.catalogue.services[0]!, id: 'CARSTRANGER01' };
    const quote = quoteRates(forwardCod, NOW, ctx);
    quote.couriers[0] = { ...quote.couriers[0]!, service: stranger };
    expect(() => writeRatesJson(quote, forwardCod)).toThrow('courier service CARSTRANGER01 is not in the catalogue');
  });
});

describe('toServiceabilityResponse', () => {
  it('lists carriers by id and name with a zone_x label', () => {
    const body = toServiceabilityResponse(
      serviceableCarriers(
        { from: pin('110001'), to: pin('682555'), paymentMode: 'prepaid', shipmentType: 'forward' },
        ctx,
      ),
    );
    expect(body).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: [{ carrier_id: 'CARINPOSPD001', carrier_name: 'India Post Speed Post' }],
        zone: 'zone_e',
      },
    });
    expect(Value.Check(ServiceabilityResponseSchema, body)).toBe(true);
  });
});

describe('toCarriersResponse', () => {
  it('lists the catalogue for client-side filters', () => {
    const body = toCarriersResponse(ctx.catalogue);
    expect(Value.Check(CarriersResponseSchema, body)).toBe(true);
    expect(body.data).toHaveLength(ctx.catalogue.services.length);
    expect(body.data[0]).toEqual({
      carrier_id: 'CARDELHSURF01',
      carrier_name: 'Delhivery Surface',
      carrier_code: 'delhivery-surface',
      service_level: 'surface',
      is_fast: false,
      is_prime: false,
    });
  });
});
