import type { StatusCondition } from '../../domain/shipment/granular-statuses.js';
import { SHIPMENT_STATUSES, type ShipmentStatus } from '../../domain/shipment/status-machine.js';

export type { StatusCondition };

const PICKUP_AWAITED: StatusCondition[] = [{ status: 'pending', courierBooked: true }];
const NDR: StatusCondition[] = [{ status: 'ndr_raised' }];

/**
 * The `status` filter's words beyond SPEC's ten (VELOCITY.md, "Listings"): coarse groups, older
 * than `granular_status[]` (domain/shipment/granular-statuses.ts), whose meaning integrations already rely on. Each is conditions on SPEC's statuses (a
 * shipment matches a word when it meets any of its conditions). The return words come from
 * Velocity's return listing; on this forward listing they mean the same stage of the forward
 * journey. `in_transit` and `cancelled` are return words too, and already SPEC statuses.
 */
export const VELOCITY_STATUSES = {
  need_attention: NDR,
  // As a status word, every failed delivery; granular_status[] tells need_attention, reattempt_delivery and ndr_raised apart.
  reattempt_delivery: NDR,
  rto_need_attention: [{ status: 'others', rtoStarted: true }],
  return_requested: [{ status: 'pending', courierBooked: false }],
  return_pickup_scheduled: PICKUP_AWAITED,
  pickup_scheduled: PICKUP_AWAITED,
  return_in_transit: [{ status: 'in_transit' }, { status: 'out_for_delivery' }],
  return_received: [{ status: 'delivered' }],
  return_delivered: [{ status: 'delivered' }],
  return_lost: [{ status: 'others', subStatuses: ['lost'] }],
} as const satisfies Record<string, readonly StatusCondition[]>;

export type VelocityStatus = keyof typeof VELOCITY_STATUSES;

/** Every word the listing's `status` takes: SPEC's statuses first, then Velocity's. */
export const LISTING_STATUSES = [
  ...SHIPMENT_STATUSES,
  ...(Object.keys(VELOCITY_STATUSES) as VelocityStatus[]),
] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export function statusConditions(word: ListingStatus): readonly StatusCondition[] {
  return Object.hasOwn(VELOCITY_STATUSES, word)
    ? VELOCITY_STATUSES[word as VelocityStatus]
    : [{ status: word as ShipmentStatus }];
}

/** For the OpenAPI description of `status`: each Velocity word and what it matches. */
export function describeVelocityStatuses(): string {
  const condition = (c: StatusCondition) =>
    [
      c.status,
      c.subStatuses && `with sub_status ${c.subStatuses.join(' or ')}`,
      c.courierBooked === true && 'with a courier booked',
      c.courierBooked === false && 'with no courier booked yet',
      c.rtoStarted && 'after its RTO began',
    ]
      .filter(Boolean)
      .join(' ');
  return Object.entries(VELOCITY_STATUSES)
    .map(([word, conditions]) => `${word}: ${(conditions as readonly StatusCondition[]).map(condition).join(', or ')}`)
    .join('; ');
}
