import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { authed, RATES } from './kit/http.js';

// What rates-validation.once.test.ts and rates-body.once.test.ts share: POST /rates' messages, a
// request that quotes, and the app they send it to.

export const UNSUPPORTED =
  'Unsupported Content-Type: send application/json (or multipart/form-data where a file is accepted)';

export const JOURNEY = 'journey_type must be "forward" or "return"';
export const PAYMENT = 'payment_method must be "cod" or "prepaid"';
export const PAYMENT_REQUIRED = 'payment_method is required when journey_type is forward';
export const VALUE_REQUIRED = 'shipment_value is required when payment_method is cod';
export const VALUE = 'shipment_value must be a number greater than 0 and at most 10000000 (rupees)';
export const VALUE_UNDER_A_PAISA = 'shipment_value must be at least 0.01 (rupees) for cod';

/** A forward COD request that quotes fine; each case spoils one field. */
export const VALID = {
  journey_type: 'forward',
  origin_pincode: '110001',
  destination_pincode: '400001',
  dead_weight: 400,
  length: 10,
  width: 10,
  height: 10,
  payment_method: 'cod',
  shipment_value: 1000,
} as const;
type Field = keyof typeof VALID | 'qc_applicable';

export const withField = (field: string, value: unknown, base: object = VALID) => ({ ...base, [field]: value });
export const without = (field: Field, base: object = VALID) => {
  const copy: Record<string, unknown> = { ...base };
  delete copy[field];
  return copy;
};
export const RETURN = without('payment_method', without('shipment_value', { ...VALID, journey_type: 'return' }));

export const IGNORED = 'dakiya-ignored-fields';

/** The file's app (made before its first test, closed after its last) and the requests its tests send it. */
export function useRatesApp() {
  let ctx: TestContext;
  let apiKey: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    apiKey = (await ctx.createAccount('Rates validation')).apiKey;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (payload: unknown, url = RATES) =>
    ctx.app.inject({ method: 'POST', url, headers: authed(`Bearer ${apiKey}`), payload: payload as object });

  const raw = (contentType: string | undefined, payload: string) =>
    ctx.app.inject({
      method: 'POST',
      url: RATES,
      headers: { ...authed(apiKey), ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      payload,
    });

  /** A 400 listing exactly these problems, in this order. */
  async function expectProblems(body: unknown, details: { field: string; message: string }[], url = RATES) {
    const response = await post(body, url);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: details[0]!.message,
      errors: details.map((d) => d.message),
      details,
    });
    expect(response.headers[IGNORED]).toBeUndefined();
  }

  const expectFieldError = (body: unknown, field: string, message: string) =>
    expectProblems(body, [{ field, message }]);

  /**
   * `body` answers exactly the quote `plain` does but for `warnings`, which name what the header
   * names (`ignored`), if anything, each as `warned` says (unknown-fields.ts).
   */
  async function expectSameQuote(
    body: unknown,
    plain: unknown,
    ignored?: string,
    warned?: { field: string; message: string }[],
  ) {
    const expected = await post(plain);
    expect(expected.statusCode, expected.body).toBe(200);
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(200);
    const { warnings, ...answer } = response.json();
    expect(answer).toEqual(expected.json());
    expect(response.headers[IGNORED]).toBe(ignored);
    expect(warnings).toEqual(warned);
  }

  return { post, raw, expectProblems, expectFieldError, expectSameQuote };
}
