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
  confirmedAt?: Date | null;
  refusedAt?: Date | null;
  refusal?: string | null;
  payload: Record<string, unknown>;
}

/** Where an instruction stands with its courier. */
export const COURIER_STATUSES = ['waiting', 'queued', 'done', 'refused'] as const;
export type CourierStatus = (typeof COURIER_STATUSES)[number];

export function courierStatusOf(row: ActionRecord): CourierStatus {
  if (row.refusedAt) return 'refused';
  if (row.confirmedAt) return 'done';
  return row.acknowledgedAt ? 'queued' : 'waiting';
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
  courier_status: Type.Unsafe<CourierStatus>(
    Type.Union(
      COURIER_STATUSES.map((status) => Type.Literal(status)),
      {
        description:
          '`waiting`: not yet handed to the courier (sent on its next round); `queued`: the courier took it and says later ' +
          "whether it carried it out (Delhivery's re-attempts); `done`: the courier took it; `refused`: the courier said no " +
          '(`refusal`), and it is not sent again.',
      },
    ),
  ),
  refusal: Type.Union([Type.String(), Type.Null()], { description: "The courier's words when it refused; else null." }),
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
    courier_status: courierStatusOf(row),
    refusal: row.refusal ?? null,
    details: row.payload,
  };
}
