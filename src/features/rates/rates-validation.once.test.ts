import { describe, expect, it } from 'vitest';
import {
  JOURNEY,
  PAYMENT,
  PAYMENT_REQUIRED,
  RETURN,
  useRatesApp,
  VALID,
  VALUE,
  VALUE_REQUIRED,
  VALUE_UNDER_A_PAISA,
  withField,
  without,
} from '../../../test/rates-validation.js';

// SPEC 4.6 rules 1–5 and issue 3's validation list: every bad input is a 400 whose message names
// the field, in the `{message, errors, details}` envelope; nothing is quoted. What issue 10 reads
// leniently (a decimal string for a number, "true"/"false", unknown fields) quotes as the plain body.

const { post, raw, expectFieldError, expectSameQuote } = useRatesApp();

describe('the valid baselines quote (so each 400 below is caused by its one change)', () => {
  it.each([
    ['forward COD', VALID],
    ['forward prepaid without shipment_value', without('shipment_value', withField('payment_method', 'prepaid'))],
    ['return without payment_method', RETURN],
    ['dead_weight at its maximum, 500000 g', withField('dead_weight', 500_000)],
    ['length, width and height at their maximum, 500 cm', { ...VALID, length: 500, width: 500, height: 500 }],
    ['shipment_value at its maximum, 10000000', withField('shipment_value', 10_000_000)],
    ['shipment_value of one paisa', withField('shipment_value', 0.01)],
    ['fractional weight and dimensions', { ...VALID, dead_weight: 0.5, length: 0.1, width: 0.1, height: 0.1 }],
  ])('%s → 200', async (_name, body) => {
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().status).toBe('SUCCESS');
  });
});

describe('journey_type (required, "forward" or "return")', () => {
  it('missing → 400', async () => {
    await expectFieldError(without('journey_type'), 'journey_type', 'journey_type is required');
  });

  it.each([
    ['sideways'],
    ['FORWARD'],
    ['Forward'],
    ['Return'],
    ['rto'],
    [''],
    [5],
    [null],
    [true],
    [['forward']],
    [{}],
  ])('journey_type %j → 400', async (value) => {
    await expectFieldError(withField('journey_type', value), 'journey_type', JOURNEY);
  });
});

describe('rule 1: payment_method is required for forward journeys, cod or prepaid in any case', () => {
  it('forward without payment_method → 400', async () => {
    await expectFieldError(without('payment_method'), 'payment_method', PAYMENT_REQUIRED);
  });

  it('forward prepaid without payment_method but with shipment_value → still 400 for payment_method', async () => {
    await expectFieldError(
      without('payment_method', withField('shipment_value', 500)),
      'payment_method',
      PAYMENT_REQUIRED,
    );
  });

  // COD, Cod, PREPAID… are taken as orders take them (rates-forward.once.test.ts).
  it.each([['card'], ['upi'], ['cash'], ['CODE'], [' cod'], [''], [null], [1], [true]])(
    'payment_method %j → 400',
    async (value) => {
      await expectFieldError(withField('payment_method', value), 'payment_method', PAYMENT);
    },
  );

  it('a return with a payment_method that is not cod or prepaid → 400 as well', async () => {
    await expectFieldError(withField('payment_method', 'card', RETURN), 'payment_method', PAYMENT);
  });
});

describe('rule 2: COD needs a shipment_value greater than 0', () => {
  it('COD without shipment_value → 400', async () => {
    await expectFieldError(without('shipment_value'), 'shipment_value', VALUE_REQUIRED);
  });

  it.each([
    [0],
    [-1],
    [-0.01],
    [-1000],
    ['NaN'],
    ['abc'],
    ['1e3'],
    [' 1000'],
    ['1,000'],
    ['₹1000'],
    ['0'],
    ['-5'],
    [null],
    [true],
    [[1000]],
    [10_000_000.01],
    [1e12],
  ])('shipment_value %j → 400', async (value) => {
    await expectFieldError(withField('shipment_value', value), 'shipment_value', VALUE);
  });

  it('a shipment_value under half a paisa (0.004) rounds to 0 paise → 400, not a 500', async () => {
    await expectFieldError(withField('shipment_value', 0.004), 'shipment_value', VALUE_UNDER_A_PAISA);
  });

  it('a non-positive shipment_value is refused for prepaid too (the field has one rule)', async () => {
    await expectFieldError(
      withField('shipment_value', 0, withField('payment_method', 'prepaid')),
      'shipment_value',
      VALUE,
    );
  });

  it.each([
    ['1000', 1000],
    ['1000.50', 1000.5],
    ['0.01', 0.01],
  ])('shipment_value %j is read as %s: the same quote', async (text, value) => {
    await expectSameQuote(withField('shipment_value', text), withField('shipment_value', value));
  });

  it('shipment_value "" is taken as absent: COD still needs one (400), prepaid quotes as without it', async () => {
    await expectFieldError(withField('shipment_value', ''), 'shipment_value', VALUE_REQUIRED);
    const prepaid = without('shipment_value', withField('payment_method', 'prepaid'));
    await expectSameQuote(withField('shipment_value', '', prepaid), prepaid);
  });
});

describe('rule 3: qc_applicable is a boolean (default true, tested in rates.test.ts)', () => {
  it.each([['yes'], ['TRUE'], ['True'], ['1'], [' true'], [1], [0], [null], [[true]], [{}]])(
    'qc_applicable %j → 400',
    async (value) => {
      await expectFieldError(
        withField('qc_applicable', value, RETURN),
        'qc_applicable',
        'qc_applicable must be of type boolean',
      );
    },
  );

  it.each([
    ['true', true],
    ['false', false],
  ])('qc_applicable %j is read as %s: the same quote', async (text, value) => {
    await expectSameQuote(withField('qc_applicable', text, RETURN), withField('qc_applicable', value, RETURN));
  });

  it('qc_applicable "" is taken as absent (the default, true), not as false', async () => {
    await expectSameQuote(withField('qc_applicable', '', RETURN), withField('qc_applicable', true, RETURN));
  });
});

describe('rule 4: dead_weight, length, width and height are numbers greater than 0, within sane maxima', () => {
  const LIMITS: [keyof typeof VALID, number, string][] = [
    ['dead_weight', 500_000, 'grams'],
    ['length', 500, 'cm'],
    ['width', 500, 'cm'],
    ['height', 500, 'cm'],
  ];

  it.each(LIMITS.map(([field]) => [field]))('%s missing → 400', async (field) => {
    await expectFieldError(without(field), field, `${field} is required`);
  });

  // Strings that are not plain decimals stay strings, and strings that are become the number they
  // write, which must then pass the same rule ("0", "-1").
  const BAD_VALUES: unknown[] = [
    0,
    -1,
    -0.5,
    '',
    'NaN',
    'Infinity',
    'abc',
    'ten',
    '1e3',
    ' 10',
    '10 ',
    '0x10',
    '+10',
    '.5',
    '10.',
    '1,000',
    '10g',
    '0',
    '-1',
    null,
    true,
    [10],
    ['10'],
    { value: 10 },
  ];
  it.each(
    LIMITS.flatMap(([field, max, unit]) => [
      ...BAD_VALUES.map((value) => [field, value, max, unit] as const),
      [field, max + 0.01, max, unit] as const,
      [field, max * 10, max, unit] as const,
    ]),
  )('%s %j → 400 (max %s %s)', async (field, value, max, unit) => {
    await expectFieldError(
      withField(field, value),
      field,
      `${field} must be a number greater than 0 and at most ${max} (${unit})`,
    );
  });

  it.each(LIMITS)('%s 0 on a return journey → 400 too', async (field, max, unit) => {
    await expectFieldError(
      withField(field, 0, RETURN),
      field,
      `${field} must be a number greater than 0 and at most ${max} (${unit})`,
    );
  });

  it.each(LIMITS)('%s written as 1e400 in the JSON (parsed as Infinity) → 400', async (field, max, unit) => {
    const message = `${field} must be a number greater than 0 and at most ${max} (${unit})`;
    const text = JSON.stringify(VALID).replace(`"${field}":${VALID[field]}`, `"${field}":1e400`);
    const response = await raw('application/json', text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field, message }],
    });
  });

  it.each([[0.004], [0.0049], [1e-9]])(
    'a dead_weight of %s g echoes as 0.00 g → 400, not a quote for nothing',
    async (weight) => {
      await expectFieldError(
        withField('dead_weight', weight),
        'dead_weight',
        'dead_weight must be at least 0.01 (grams)',
      );
    },
  );

  it.each(
    LIMITS.flatMap(([field]) => [
      [field, '10', 10],
      [field, '0.5', 0.5],
      [field, '007', 7],
    ]),
  )('%s %j is read as %s: the same quote', async (field, text, value) => {
    await expectSameQuote(withField(field, text), withField(field, value));
  });

  it('every number written as a string at once quotes as the plain body', async () => {
    const strings = Object.fromEntries(
      Object.entries(VALID).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
    );
    await expectSameQuote(strings, VALID);
  });

  it('a dead_weight of 0.005 g rounds up to 0.01 g and is quoted', async () => {
    const response = await post(withField('dead_weight', 0.005));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result.shipment_details.dead_weight).toBe(0.01);
  });
});

describe('rule 5: both pincodes are valid Indian pincodes', () => {
  const FIELDS = ['origin_pincode', 'destination_pincode'] as const;

  it.each(FIELDS.map((field) => [field]))('%s missing → 400', async (field) => {
    await expectFieldError(without(field), field, `${field} is required`);
  });

  // Not 6 digits, or not digits at all: refused before the directory is asked.
  const MALFORMED: unknown[] = [
    '11000', // 5 digits
    '1100011', // 7 digits
    '11000A',
    'abcdef',
    ' 110001',
    '110 001',
    '110001\n',
    '',
    11000, // numbers: 5 digits,
    1100011, // 7 digits,
    -110001, // negative
    0,
  ];
  it.each(FIELDS.flatMap((field) => MALFORMED.map((value) => [field, value] as const)))(
    '%s %j → 400',
    async (field, value) => {
      await expectFieldError(withField(field, value), field, `${field} must be a 6-digit Indian pincode`);
    },
  );

  // Well-formed but not in the India Post directory (none starts with 0, but 000000 has the form).
  it.each(
    FIELDS.flatMap((field) =>
      ['999999', '100000', 999999, 100000, '000000', '012345'].map((value) => [field, value] as const),
    ),
  )('%s %j (not in the directory) → 400', async (field, value) => {
    await expectFieldError(withField(field, value), field, `${field} ${value} is not a pincode in the directory`);
  });

  it.each(FIELDS.flatMap((field) => [null, true, 110001.5, {}, ['110001']].map((value) => [field, value] as const)))(
    '%s %j (neither string nor integer) → 400',
    async (field, value) => {
      await expectFieldError(withField(field, value), field, `${field} must be of type string or integer`);
    },
  );
});
