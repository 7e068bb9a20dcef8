import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { forward, returning } from '../../../test/rates-quotes.js';
import { createRatesService, type RatesService } from './rates.service.js';
import type { RatesInput } from './rates.schemas.js';

// The rates service's rules as functions (the rates context and clock the composition root hands
// it, no database of its own): the checks a quote's body must pass beyond its schema, all named
// together; a quote kept for its minute only; the pincode lookup. The routes' contract and the
// quotes' contents are rates-validation.once.test.ts's, rates-quote-rules.test.ts's and
// rates-quote-cache.once.test.ts's.

let ctx: UseCaseContext;
let rates: RatesService;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As rates.register.ts builds it.
  rates = createRatesService({ rates: ctx.rates, clock: ctx.clock });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  // Friday 20 November 2026, 09:00 India time.
  ctx.clock.set('2026-11-20T03:30:00.000Z');
});

const body = (b: object) => b as RatesInput;
const quote = (b: object) => JSON.parse(rates.quoteJson(body(b)).toString('utf8'));

describe('what a quote body must be, beyond its schema', () => {
  it.each<[string, object, { field: string; message: string }[]]>([
    [
      'pincodes not in the directory',
      forward({ origin_pincode: '000000', destination_pincode: '999999' }),
      [
        { field: 'origin_pincode', message: 'origin_pincode 000000 is not a pincode in the directory' },
        { field: 'destination_pincode', message: 'destination_pincode 999999 is not a pincode in the directory' },
      ],
    ],
    [
      'a forward quote without payment_method',
      forward({ payment_method: undefined }),
      [{ field: 'payment_method', message: 'payment_method is required when journey_type is forward' }],
    ],
    [
      'COD without shipment_value',
      forward({ payment_method: 'cod' }),
      [{ field: 'shipment_value', message: 'shipment_value is required when payment_method is cod' }],
    ],
    [
      'COD worth less than a paisa',
      forward({ payment_method: 'COD', shipment_value: 0.004 }),
      [{ field: 'shipment_value', message: 'shipment_value must be at least 0.01 (rupees) for cod' }],
    ],
    [
      'a weight under 0.005 g, and a bad pincode, together',
      forward({ dead_weight: 0.004, destination_pincode: '000001' }),
      [
        { field: 'destination_pincode', message: 'destination_pincode 000001 is not a pincode in the directory' },
        { field: 'dead_weight', message: 'dead_weight must be at least 0.01 (grams)' },
      ],
    ],
  ])('refuses %s, naming each field', (_name, request, details) => {
    expect(() => rates.quoteJson(body(request))).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        kind: 'invalid',
        messages: details.map((d) => d.message),
        details,
      }),
    );
  });

  it.each([
    ['a return needs no payment method', returning()],
    ['a prepaid forward quote needs no shipment_value', forward()],
    ['COD of one paisa', forward({ payment_method: 'cod', shipment_value: 0.01 })],
    ['a weight of 0.005 g (0.01 once rounded)', forward({ dead_weight: 0.005 })],
  ])('takes %s', (_name, request) => {
    expect(quote(request)).toMatchObject({ status: 'SUCCESS' });
  });
});

describe('a quote is kept for the minute it was made in', () => {
  it('answers the same bytes within the minute, and quotes again in the next', () => {
    ctx.clock.set('2026-11-20T03:30:00.000Z');
    const first = rates.quoteJson(body(forward()));
    ctx.clock.set('2026-11-20T03:30:59.999Z');
    expect(rates.quoteJson(body(forward()))).toBe(first);
    // Another body is another quote.
    expect(rates.quoteJson(body(forward({ dead_weight: 401 })))).not.toBe(first);
    ctx.clock.set('2026-11-20T03:31:00.000Z');
    const next = rates.quoteJson(body(forward()));
    expect(next).not.toBe(first);
    // Nothing in the quote moved between 09:00 and 09:01 India time.
    expect(next.equals(first)).toBe(true);
  });

  it('answers a refused body afresh each time: a refusal is never kept', () => {
    const bad = body(forward({ origin_pincode: '000000' }));
    expect(() => rates.quoteJson(bad)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => rates.quoteJson(bad)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('serviceability and the pincode lookup', () => {
  it('names both unknown pincodes of a serviceability check together', () => {
    expect(() =>
      rates.serviceability({
        from: '000000',
        to: '000001',
        payment_mode: 'prepaid',
        shipment_type: 'forward',
      } as never),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        messages: ['from 000000 is not a pincode in the directory', 'to 000001 is not a pincode in the directory'],
      }),
    );
  });

  it('looks a pincode up, and refuses one the directory lacks as not found', () => {
    expect(rates.pincode('400001')).toEqual({
      pincode: '400001',
      city: expect.any(String),
      district: expect.any(String),
      state: expect.any(String),
    });
    expect(() => rates.pincode('999999')).toThrow(
      expect.objectContaining({
        code: 'pincode_not_found',
        kind: 'not_found',
        messages: ['Pincode 999999 is not in the pincode directory'],
      }),
    );
  });
});
