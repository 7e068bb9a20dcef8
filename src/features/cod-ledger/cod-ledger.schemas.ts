import { type TSchema, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });
const Day = (description: string) =>
  Type.String({ format: 'date', description: `${description} YYYY-MM-DD, India's calendar.` });

/** The largest remittance file taken in one request: 50,000 lines (MAX_REMITTANCE_LINES) of a courier's many columns fit in it. */
export const REMITTANCE_FILE_MAX_BYTES = 20 * 1024 * 1024;

const FILE_DESCRIPTION =
  "A courier's COD remittance file (CSV, UTF-8). The header names the columns: Dakiya's own awb,amount,utr,remittance_date, or " +
  "Delhivery's Waybill,COD Amount,UTR No,Remittance Date (case does not matter; other columns are ignored). Amounts in rupees with " +
  'at most two decimals; dates YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY. docs/money.md has examples.';

export const RemittanceFileBody = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      description: `${FILE_DESCRIPTION} In a multipart form, the file field; in JSON, the file's text.`,
    }),
    file_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Kept with the import for the record; a multipart upload gives its own.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        file: `awb,amount,utr,remittance_date\n${EXAMPLE.awb},998.00,UTIB0000123456,2026-11-27\n`,
        file_name: 'shadowfax-2026-11-27.csv',
      },
    ],
  },
);

const LineProblem = Type.Object({
  line: Type.Integer({ minimum: 1, description: "The file's line (1 is the header)." }),
  awb: Nullable(Type.String({ maxLength: 200, description: 'As the file wrote it, cut to 200 characters.' })),
  reason: Type.String({ description: 'Why; a value of the file it quotes is cut to 200 characters.' }),
});

export const Discrepancy = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Union(
    [
      Type.Literal('short_paid'),
      Type.Literal('over_paid'),
      Type.Literal('paid_not_delivered'),
      Type.Literal('missing_from_remittance'),
    ],
    {
      description:
        'short_paid / over_paid: the lines so far add up to less / more than the COD amount; paid_not_delivered: a line for a shipment that was not delivered (an RTO paid as delivered); missing_from_remittance: unpaid past its expected day.',
    },
  ),
  awb: Type.String(),
  carrier_id: Type.String(),
  shipment_id: Type.String({ format: 'uuid' }),
  receivable_id: Nullable(Type.String({ format: 'uuid' })),
  remittance_id: Nullable(
    Type.String({
      format: 'uuid',
      description: 'The remittance line that showed it (null for missing_from_remittance).',
    }),
  ),
  expected_amount: Rupees('The COD amount owed (0 when nothing was owed).'),
  received_amount: Rupees('What the courier had paid for it (the line, for paid_not_delivered).'),
  difference: Rupees('received_amount minus expected_amount.'),
  expected_date: Nullable(Day('The day it was due (missing_from_remittance).')),
  detected_at: Type.String({ format: 'date-time' }),
});

const IMPORT_EXAMPLE = {
  id: '4f2a9c1e-7b3d-4e8a-9c0f-1d2e3f4a5b6c',
  format: 'dakiya',
  file_name: 'shadowfax-2026-11-27.csv',
  lines: 3,
  applied: 1,
  duplicates: 1,
  applied_amount: 998,
  utrs: ['UTIB0000123456'],
  discrepancies: 0,
  problems: [{ line: 4, awb: 'SFX0000009999', reason: 'AWB SFX0000009999 not found' }],
  problem_count: 1,
  found: [],
};

export const RemittanceImport = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The import (the subject of its cod.remittance_applied event).' }),
    format: Type.String({ description: 'The column names the header matched: dakiya or delhivery.' }),
    file_name: Nullable(Type.String()),
    lines: Type.Integer({ minimum: 0, description: 'Lines after the header, blank lines left out.' }),
    applied: Type.Integer({ minimum: 0, description: 'Lines taken in now.' }),
    duplicates: Type.Integer({
      minimum: 0,
      description: 'Lines taken in before (same courier, UTR and AWB, same amount and date): nothing changed.',
    }),
    applied_amount: Rupees('Sum of the lines taken in now.'),
    utrs: Type.Array(Type.String(), { description: 'The bank references of the lines taken in now.' }),
    discrepancies: Type.Integer({ minimum: 0, description: 'The discrepancies the applied lines showed.' }),
    problems: Type.Array(LineProblem, {
      maxItems: 100,
      description:
        'The first 100 lines not taken in, in line order, with their number and why (problem_count counts them all).',
    }),
    problem_count: Type.Integer({ minimum: 0, description: 'Every line not taken in, listed in problems or not.' }),
    found: Type.Array(Discrepancy, {
      maxItems: 100,
      description: 'The first 100 discrepancies the applied lines showed (discrepancies counts them all).',
    }),
  },
  { examples: [IMPORT_EXAMPLE] },
);

export const AwbsBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 100,
      'x-error': 'must list 1 to 100 AWBs',
    }),
  },
  { additionalProperties: false, examples: [{ awbs: [EXAMPLE.awb] }] },
);

const Found = Type.Literal(1, { description: '1: the account has this AWB (as /shipping-charges writes it).' });
const NotFound = Type.Object({
  awb: Type.String(),
  found: Type.Literal(0),
  error: Type.String({ description: 'AWB … not found: unknown, or another account’s.' }),
});

const CodRemittanceEntry = Type.Object({
  awb: Type.String(),
  found: Found,
  cod_amount: Rupees('The cash to collect on delivery (0 for a prepaid shipment).'),
  remittance_status: Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('remitted'),
      Type.Literal('reconciled'),
      Type.Literal('not_delivered'),
      Type.Literal('prepaid'),
    ],
    {
      description:
        "The receivable's state; not_delivered for a COD shipment not (yet) delivered, prepaid when nothing is collected.",
    },
  ),
  expected_remittance_date: Nullable(Day("When the courier's cycle makes the cash due.")),
  remitted_amount: Rupees('Sum of the remittance lines taken in for it.'),
  utr: Nullable(Type.String({ description: 'The latest remittance’s bank reference.' })),
  remittance_date: Nullable(Day('The latest remittance’s date.')),
});

export const CodRemittanceResponse = Type.Object(
  {
    status: Type.Literal(1),
    payload: Type.Record(Type.String(), Type.Union([CodRemittanceEntry, NotFound]), {
      description: 'One entry per AWB asked, keyed by AWB.',
    }),
  },
  {
    examples: [
      {
        status: 1,
        payload: {
          [EXAMPLE.awb]: {
            awb: EXAMPLE.awb,
            found: 1,
            cod_amount: 998,
            remittance_status: 'reconciled',
            expected_remittance_date: '2026-11-30',
            remitted_amount: 998,
            utr: 'UTIB0000123456',
            remittance_date: '2026-11-27',
          },
          SFX0000009999: { awb: 'SFX0000009999', found: 0, error: 'AWB SFX0000009999 not found' },
        },
      },
    ],
  },
);

const SettlementEntry = Type.Object({
  awb: Type.String(),
  found: Found,
  settlement_status: Type.Union(
    [
      Type.Literal('unsettled'),
      Type.Literal('overdue'),
      Type.Literal('settled'),
      Type.Literal('short_settled'),
      Type.Literal('over_settled'),
      Type.Literal('not_applicable'),
    ],
    {
      description:
        'unsettled: delivered, cash not yet due or paid; overdue: unpaid past its expected day; settled: paid in full; short_settled / ' +
        'over_settled: paid less / more than collected; not_applicable: prepaid, or COD not delivered.',
    },
  ),
  cod_amount: Rupees('The cash to collect on delivery.'),
  settled_amount: Rupees('What the courier has paid for it.'),
  expected_date: Nullable(Day('When it is due.')),
  settled_on: Nullable(Day('The latest remittance’s date.')),
  utr: Nullable(Type.String()),
});

export const SettlementResponse = Type.Object(
  {
    status: Type.Literal(1),
    payload: Type.Record(Type.String(), Type.Union([SettlementEntry, NotFound]), {
      description: 'One entry per AWB asked, keyed by AWB.',
    }),
  },
  {
    examples: [
      {
        status: 1,
        payload: {
          [EXAMPLE.awb]: {
            awb: EXAMPLE.awb,
            found: 1,
            settlement_status: 'settled',
            cod_amount: 998,
            settled_amount: 998,
            expected_date: '2026-11-30',
            settled_on: '2026-11-27',
            utr: 'UTIB0000123456',
          },
        },
      },
    ],
  },
);

export const AccountParams = Type.Object({ id: Type.String({ format: 'uuid', examples: [EXAMPLE.accountId] }) });
