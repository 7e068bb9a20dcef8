import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Text } from '../../http/schemas.js';
import { MAX_BULK_LABELS } from './labels.service.js';

export const BulkLabelsBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_BULK_LABELS,
      description: `The AWBs whose labels to print, 1 to ${MAX_BULK_LABELS}: one page each, in this order (an AWB repeated prints once).`,
      'x-error': `must list 1 to ${MAX_BULK_LABELS} AWBs`,
    }),
  },
  { additionalProperties: false, examples: [{ awbs: [EXAMPLE.awb] }] },
);

export const ReissueParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      "The shipment_id, or its AWB (awb_code), or a multi-piece shipment's box AWB (every box's label is re-issued).",
    examples: [EXAMPLE.bookedShipmentId, EXAMPLE.awb],
  }),
});

export const ReissueBody = Type.Object(
  {
    reason: Type.Optional(
      Text(200, 'Why the label is re-issued (an address corrected, a label damaged); recorded in the event.'),
    ),
  },
  { additionalProperties: false, examples: [{ reason: 'Address corrected by the buyer' }] },
);

export const ReissuedLabel = Type.Object(
  {
    shipment_id: Type.String({ format: 'uuid' }),
    awb_code: Type.String({ description: 'Unchanged: the courier booking stands, only the label is new.' }),
    label_version: Type.Integer({
      minimum: 2,
      description: "The new label's version (the label made at booking is 1); printed on it.",
    }),
    reissued_at: Type.String({ format: 'date-time' }),
    label_url: Type.String({
      format: 'uri',
      description: 'Signed link to the new label; links made before the re-issue answer 410.',
    }),
    expires_at: Type.String({ format: 'date-time', description: 'When label_url stops working.' }),
  },
  {
    description: 'The re-issued label.',
    examples: [
      {
        shipment_id: '3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e04',
        awb_code: 'DKY0000012345',
        label_version: 2,
        reissued_at: '2026-11-20T09:00:00.000Z',
        label_url:
          'https://ship.example.in/public/v1/labels/3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e04?expires=1795250400&signature=pV3mX8QbW1nR5tY7uI9oP2aS4dF6gH8jK0lZ1xC3vB5',
        expires_at: '2026-11-21T09:00:00.000Z',
      },
    ],
  },
);
