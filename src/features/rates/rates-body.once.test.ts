import { describe, expect, it } from 'vitest';
import {
  IGNORED,
  PAYMENT_REQUIRED,
  UNSUPPORTED,
  useRatesApp,
  VALID,
  VALUE_REQUIRED,
  withField,
  without,
} from '../../../test/rates-validation.js';
import { unknownField } from '../../../test/lenient-input.js';

// POST /rates' body as a whole: every problem of one request at once, unknown fields, and the body
// itself (malformed, not an object, empty, another content type, too large). The rule for each field
// is in rates-validation.once.test.ts.

const { post, raw, expectProblems, expectSameQuote } = useRatesApp();

describe('every problem of one request at once (issue 16)', () => {
  const unknownPin = (field: string, pin: string) => ({
    field,
    message: `${field} ${pin} is not a pincode in the directory`,
  });

  it('names both unknown pincodes, a weight under 0.01 g and the missing payment_method together', async () => {
    await expectProblems(
      { ...without('payment_method'), origin_pincode: '999999', destination_pincode: '100000', dead_weight: 0.001 },
      [
        unknownPin('origin_pincode', '999999'),
        unknownPin('destination_pincode', '100000'),
        { field: 'dead_weight', message: 'dead_weight must be at least 0.01 (grams)' },
        { field: 'payment_method', message: PAYMENT_REQUIRED },
      ],
    );
  });

  it('names a malformed pincode beside a COD request without shipment_value', async () => {
    await expectProblems({ ...without('shipment_value'), destination_pincode: '40001' }, [
      { field: 'destination_pincode', message: 'destination_pincode must be a 6-digit Indian pincode' },
      { field: 'shipment_value', message: VALUE_REQUIRED },
    ]);
  });

  it('/serviceability names both unknown pincodes', async () => {
    const body = { from: '999999', to: '100000', payment_mode: 'cod', shipment_type: 'forward' };
    await expectProblems(
      body,
      [unknownPin('from', '999999'), unknownPin('to', '100000')],
      '/custom/api/v1/serviceability',
    );
  });
});

describe('unknown fields are ignored and named in Dakiya-Ignored-Fields (issue 10)', () => {
  it.each([
    ['foo', undefined],
    ['weight', 'dead_weight'],
    ['cod_amount', undefined],
    ['Journey_Type', 'journey_type'],
    ['breadth', undefined],
    ['zone', undefined],
  ])('%s → the same quote, header and warnings name it (nearest: %s)', async (field, nearest) => {
    await expectSameQuote(withField(field, 1), VALID, field, [unknownField(field, nearest)]);
  });

  it('an ignored field that would change the quote if it were read changes nothing', async () => {
    await expectSameQuote(
      { ...VALID, weight: 50_000, zone: 'E', Journey_Type: 'return' },
      VALID,
      'weight, zone, Journey_Type',
      [unknownField('weight', 'dead_weight'), unknownField('zone'), unknownField('Journey_Type', 'journey_type')],
    );
  });

  it('a request refused for a known field still names the ignored ones, after its problems', async () => {
    const message = 'dead_weight must be a number greater than 0 and at most 500000 (grams)';
    const response = await post({ ...VALID, dead_weight: 'ten', idempotency_key: 'abc' });
    expect(response.statusCode).toBe(400);
    const ignored = unknownField('idempotency_key');
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message, ignored.message],
      details: [{ field: 'dead_weight', message }, ignored],
    });
    expect(response.headers[IGNORED]).toBe('idempotency_key');
  });
});

describe('the body itself', () => {
  it.each([
    ['truncated JSON', '{"journey_type":'],
    ['single quotes', "{'journey_type':'forward'}"],
    ['a NaN literal', '{"dead_weight": NaN}'],
    ['a trailing comma', '{"journey_type":"forward",}'],
  ])('malformed JSON (%s) → 400', async (_name, text) => {
    const response = await raw('application/json', text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'malformed_json',
      message: 'Malformed JSON body',
      errors: ['Malformed JSON body'],
    });
  });

  it.each([['[]'], ['[1,2]'], ['"forward"'], ['42'], ['null']])('JSON %s that is not an object → 400', async (text) => {
    const response = await raw('application/json', text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: 'body must be of type object',
      errors: ['body must be of type object'],
      details: [{ field: 'body', message: 'body must be of type object' }],
    });
  });

  it('an empty JSON body is no body → 400 naming the body', async () => {
    const response = await raw('application/json', '');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'body_required',
      message: 'A request body is required: send a JSON object',
      errors: ['A request body is required: send a JSON object'],
    });
  });

  it('no body and no content type → 400', async () => {
    const response = await raw(undefined, '');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'body_required',
      message: 'A request body is required: send a JSON object',
      errors: ['A request body is required: send a JSON object'],
    });
  });

  it.each([
    ['text/plain'],
    ['application/x-www-form-urlencoded'],
    ['application/xml'],
    ['text/csv'],
    ['multipart/form-data; boundary=x'],
  ])('Content-Type %s → 415', async (contentType) => {
    const response = await raw(
      contentType,
      contentType.includes('urlencoded') ? 'journey_type=forward' : JSON.stringify(VALID),
    );
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ code: 'unsupported_media_type', message: UNSUPPORTED, errors: [UNSUPPORTED] });
  });

  it('a body over 1 MiB → 413, read no further', async () => {
    const response = await raw('application/json', JSON.stringify({ ...VALID, padding: 'x'.repeat(1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: 'body_too_large',
      message: 'Request body is too large',
      errors: ['Request body is too large'],
    });
  });

  it('application/json with a charset is fine', async () => {
    const response = await raw('application/json; charset=utf-8', JSON.stringify(VALID));
    expect(response.statusCode).toBe(200);
  });
});
