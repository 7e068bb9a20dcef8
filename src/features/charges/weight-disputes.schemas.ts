import { type Static, Type } from 'typebox';
import { DISCREPANCY_STATES } from '../../domain/charges.js';
import { EXAMPLE } from '../../http/examples.js';
import { ListingQueryFields, OneOrMany } from '../../http/csv.js';
import { Nullable } from '../../http/schemas.js';
import type { DiscrepancyRow, EvidenceMeta } from './weight-disputes.repository.js';

export const EVIDENCE_MAX_IMAGES = 5;
export const EVIDENCE_MAX_BYTES = 2 * 1024 * 1024;
/** A report file: 10,000 rows of a few dozen characters fit well within it. */
export const REPORT_MAX_BYTES = 5 * 1024 * 1024;

/** A 1×1 PNG: the evidence example a user can send as it is. */
const EXAMPLE_PHOTO =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const EXAMPLE_OPENED = '2026-11-21T06:30:00.000Z';

const Instant = (description: string) => Type.String({ format: 'date-time', description });
const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });

const Evidence = Type.Object({
  position: Type.Integer({ minimum: 1, maximum: EVIDENCE_MAX_IMAGES }),
  content_type: Type.String({
    description: 'Recognised from the bytes: image/png, image/jpeg, image/webp or image/gif.',
  }),
  size: Type.Integer({ description: 'Bytes.' }),
  sha256: Type.String(),
  url: Type.String({ description: 'Where the image is served to this account (GET, with its credential).' }),
});

export const WeightDiscrepancy = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    awb: Type.String(),
    shipment_id: Type.String({ format: 'uuid' }),
    carrier_id: Type.String(),
    state: Type.Union(
      DISCREPANCY_STATES.map((s) => Type.Literal(s)),
      {
        description:
          'open (awaits the merchant), disputed (awaits the operator), accepted, won (no extra charge) or lost (charged).',
      },
    ),
    declared_weight: Type.Number({ description: "Grams: the shipment's applied weight when the report came in." }),
    charged_weight: Type.Number({ description: 'Grams: what the courier charged.' }),
    charged_dimensions: Nullable(
      Type.Object(
        { length: Type.Number(), breadth: Type.Number(), height: Type.Number() },
        { description: "The courier's measures, centimetres." },
      ),
    ),
    booked_freight: Rupees('The forward freight quoted at booking.'),
    charged_freight: Rupees('The forward freight re-quoted at the charged weight, on the same slabs.'),
    extra_charge: Rupees('charged_freight − booked_freight: the weight adjustment line of the shipment.'),
    comment: Nullable(Type.String({ description: "The merchant's reason, once disputed." })),
    evidence: Type.Array(Evidence, { description: 'The photos sent with the dispute.' }),
    settled_by: Nullable(Type.Union([Type.Literal('merchant'), Type.Literal('window'), Type.Literal('operator')])),
    resolution: Nullable(Type.String({ description: "The operator's words on a won or lost dispute." })),
    opened_at: Instant('When the report opened it.'),
    due_at: Instant('When an open discrepancy is accepted automatically (the dispute window ends).'),
    disputed_at: Nullable(Instant('When the merchant disputed it.')),
    settled_at: Nullable(Instant('When it was accepted, won or lost.')),
  },
  { $id: 'WeightDiscrepancy' },
);

export const EXAMPLE_DISCREPANCY = {
  id: EXAMPLE.weightDisputeId,
  awb: EXAMPLE.awb,
  shipment_id: EXAMPLE.bookedShipmentId,
  carrier_id: EXAMPLE.carrierId,
  state: 'open',
  declared_weight: 500,
  charged_weight: 1200,
  charged_dimensions: { length: 30, breadth: 20, height: 10 },
  booked_freight: 62,
  charged_freight: 110,
  extra_charge: 48,
  comment: null,
  evidence: [],
  settled_by: null,
  resolution: null,
  opened_at: EXAMPLE_OPENED,
  due_at: '2026-11-28T06:30:00.000Z',
  disputed_at: null,
  settled_at: null,
};

const evidenceUrl = (id: string, position: number) => `/custom/api/v1/weight-disputes/${id}/evidence/${position}`;

export function discrepancyView(row: DiscrepancyRow, evidence: readonly EvidenceMeta[]) {
  const dimensions =
    row.chargedLengthCm !== null && row.chargedBreadthCm !== null && row.chargedHeightCm !== null
      ? { length: row.chargedLengthCm, breadth: row.chargedBreadthCm, height: row.chargedHeightCm }
      : null;
  return {
    id: row.id,
    awb: row.awb,
    shipment_id: row.shipmentId,
    carrier_id: row.carrierId,
    state: row.state as Static<typeof WeightDiscrepancy>['state'],
    declared_weight: row.declaredWeightGrams,
    charged_weight: row.chargedWeightGrams,
    charged_dimensions: dimensions,
    booked_freight: (row.chargedFreightPaise - row.extraPaise) / 100,
    charged_freight: row.chargedFreightPaise / 100,
    extra_charge: row.extraPaise / 100,
    comment: row.comment,
    evidence: evidence.map((e) => ({
      position: e.position,
      content_type: e.contentType,
      size: e.size,
      sha256: e.sha256,
      url: evidenceUrl(row.id, e.position),
    })),
    settled_by: row.settledBy as 'merchant' | 'window' | 'operator' | null,
    resolution: row.resolution,
    opened_at: row.openedAt.toISOString(),
    due_at: row.dueAt.toISOString(),
    disputed_at: row.disputedAt?.toISOString() ?? null,
    settled_at: row.settledAt?.toISOString() ?? null,
  };
}

export const DiscrepancyEnvelope = Type.Object({ data: Type.Ref('WeightDiscrepancy') });

export const WeightReportBody = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      maxLength: REPORT_MAX_BYTES,
      description:
        "The courier's weight report as CSV text (JSON), or the uploaded file (multipart field `file`): columns awb and the " +
        'charged weight in the unit its header states (charged_weight_g or "Charged Weight (g)" in grams, charged_weight_kg or ' +
        '"Charged Weight (kg)" in kilograms), optionally length_cm, breadth_cm, height_cm; or Delhivery\'s Waybill, Charged ' +
        'Weight, Length, Breadth, Height. A header that states no unit is judged against the parcels (docs/money.md).',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ file: `awb,charged_weight_g,length_cm,breadth_cm,height_cm\n${EXAMPLE.awb},1200,30,20,10\n` }],
  },
);

const RowError = Type.Object({
  line: Type.Integer({ description: 'The line of the file, the header being line 1.' }),
  awb: Nullable(Type.String({ maxLength: 200, description: 'As the file wrote it, cut to 200 characters.' })),
  message: Type.String({ description: 'Why; a value of the file it quotes is cut to 200 characters.' }),
});

export const ImportEnvelope = Type.Object({
  data: Type.Object({
    rows: Type.Integer({ description: 'Rows read (the header and blank lines not counted).' }),
    opened: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        awb: Type.String(),
        charged_weight: Type.Number(),
        extra_charge: Type.Number(),
      }),
      { description: 'The discrepancies this file opened.' },
    ),
    unchanged: Type.Integer({ description: 'Rows already applied by an earlier import of the same report.' }),
    no_extra_charge: Type.Integer({
      description: 'Rows at or below the applied weight, or heavier within the same slab.',
    }),
    errors: Type.Array(RowError, {
      maxItems: 100,
      description:
        'The first 100 rows that were not applied, in line order, with why (error_count counts them all); the other rows were.',
    }),
    error_count: Type.Integer({ minimum: 0, description: 'Every row that was not applied, listed in errors or not.' }),
  }),
});

export const EXAMPLE_IMPORT = {
  data: {
    rows: 1,
    opened: [{ id: EXAMPLE_DISCREPANCY.id, awb: EXAMPLE.awb, charged_weight: 1200, extra_charge: 48 }],
    unchanged: 0,
    no_extra_charge: 0,
    errors: [],
    error_count: 0,
  },
};

export const DisputeBody = Type.Object(
  {
    comment: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the charged weight is wrong.' }),
    images: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: EVIDENCE_MAX_IMAGES })], {
      description:
        `1 to ${EVIDENCE_MAX_IMAGES} photos of the packed parcel with its measures, each at most 2 MiB (PNG, JPEG, WebP or GIF): ` +
        'base64 in JSON, or the file field `images` repeated in multipart/form-data.',
      'x-error': `must be 1 to ${EVIDENCE_MAX_IMAGES} images`,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      { comment: 'Packed at 480 g in a 20x15x10 cm box; photo of the scale attached.', images: [EXAMPLE_PHOTO] },
    ],
  },
);

export const OutcomeBody = Type.Object(
  {
    outcome: Type.Union([Type.Literal('won'), Type.Literal('lost')], {
      description: "The courier's verdict on the dispute.",
      'x-error': 'must be "won" or "lost"',
    }),
    resolution: Type.Optional(Type.String({ maxLength: 2000, description: 'Why, in words the merchant sees.' })),
  },
  {
    additionalProperties: false,
    examples: [{ outcome: 'won', resolution: 'The courier accepted the photos of the scale.' }],
  },
);

const IdParam = Type.String({
  format: 'uuid',
  'x-error': 'must be the id of a weight discrepancy',
  examples: [EXAMPLE.weightDisputeId],
});
export const DisputeIdParams = Type.Object({ id: IdParam });
export const EvidenceParams = Type.Object({
  id: IdParam,
  position: Type.String({
    pattern: `^[1-${EVIDENCE_MAX_IMAGES}]$`,
    'x-error': `must be 1 to ${EVIDENCE_MAX_IMAGES}`,
    examples: ['1'],
  }),
});
export const AccountParams = Type.Object({
  id: Type.String({ format: 'uuid', 'x-error': 'must be an account id', examples: [EXAMPLE.accountId] }),
});
export const AccountDisputeParams = Type.Object({
  account_id: Type.String({ format: 'uuid', 'x-error': 'must be an account id', examples: [EXAMPLE.accountId] }),
  id: IdParam,
});

export const DisputeListQuery = Type.Object(
  {
    state: OneOrMany(
      Type.Union(
        DISCREPANCY_STATES.map((s) => Type.Literal(s)),
        { 'x-error': `must be one of ${DISCREPANCY_STATES.join(', ')}` },
      ),
      'Only these states; repeat for several.',
    ),
    ...ListingQueryFields,
  },
  { additionalProperties: false },
);
export type DisputeListQuery = Static<typeof DisputeListQuery>;

export const DisputeListEnvelope = Type.Object({
  data: Type.Array(Type.Ref('WeightDiscrepancy'), { description: 'Newest first.' }),
  next_cursor: Nullable(Type.String({ description: 'Send as cursor for the next page; null on the last.' })),
});
