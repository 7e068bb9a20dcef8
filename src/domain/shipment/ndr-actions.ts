import { type Static, Type } from 'typebox';

/** A merchant's or customer's instruction after a failed delivery, as merchants and couriers see it. */

const Uuid = Type.String({ format: 'uuid' });

/** What the views below read of a stored instruction. */
export interface ActionRecord {
  id: string;
  action: string;
  requestedBy: string;
  createdAt: Date;
  acknowledgedAt: Date | null;
  payload: Record<string, unknown>;
}

const ActionFields = {
  id: Uuid,
  action: Type.Union([Type.Literal('reattempt'), Type.Literal('rto')]),
  requested_by: Type.String({
    description:
      "`merchant` (this API), `customer` (the reattempt form on the tracking page) or `rule` (one of the account's NDR rules, named in details.rule).",
  }),
  requested_at: Type.String({ format: 'date-time' }),
  acknowledged_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the courier took the instruction; null while open.',
  }),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description:
      "The instruction as given: updated_address, updated_phone_number, comments, reattempt_date (reattempt); {} for an RTO; rule: the NDR rule's name when one made it; address_correction: true when the merchant corrected the delivery address or phone with PUT /order during the failed delivery (updated_address and updated_phone_number say what changed).",
  }),
};

/** An NDR action as the merchant sees it (order-tracking and the listing). */
export const NdrAction = Type.Object(ActionFields);
export type NdrActionView = Static<typeof NdrAction>;

export const CarrierAction = Type.Object({ ...ActionFields, awb: Type.String() });

/** An action row as merchants see it; the courier's view adds the AWB. */
export function toActionView(row: ActionRecord): NdrActionView {
  return {
    id: row.id,
    action: row.action as NdrActionView['action'],
    requested_by: row.requestedBy,
    requested_at: row.createdAt.toISOString(),
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    details: row.payload,
  };
}
