import { describe, expect, it } from 'vitest';
import { activityLabel } from './activity-labels.js';
import { SHIPMENT_STATUSES, type ShipmentStatus, SUB_STATUSES } from './status-machine.js';

/** docs/tracking.md's mapping, written out independently of the code: status, sub_status (- for none), label. */
const TABLE = `
pending           -                          OUT FOR PICKUP
pending           pickup_scheduled           OUT FOR PICKUP
pending           pickup_failed              PICKUP EXCEPTION
in_transit        -                          IN TRANSIT
in_transit        picked_up                  PICKED UP
in_transit        in_transit                 IN TRANSIT
in_transit        reached_origin_hub         IN TRANSIT
in_transit        departed_origin_hub        IN TRANSIT
in_transit        reached_destination_hub    IN TRANSIT
in_transit        misrouted                  MISROUTED
out_for_delivery  -                          OUT FOR DELIVERY
out_for_delivery  out_for_delivery           OUT FOR DELIVERY
delivered         -                          DELIVERED
delivered         delivered                  DELIVERED
ndr_raised        -                          UNDELIVERED
ndr_raised        customer_unavailable       UNDELIVERED
ndr_raised        address_incomplete         UNDELIVERED
ndr_raised        refused                    UNDELIVERED
ndr_raised        cod_not_ready              UNDELIVERED
ndr_raised        premises_closed            UNDELIVERED
ndr_raised        future_delivery_requested  UNDELIVERED
ndr_raised        contact_unreachable        UNDELIVERED
ndr_raised        other                      UNDELIVERED
rto_initiated     -                          RTO INITIATED
rto_initiated     rto_initiated              RTO INITIATED
rto_in_transit    -                          RTO IN TRANSIT
rto_in_transit    rto_in_transit             RTO IN TRANSIT
rto_in_transit    rto_reached_origin_hub     RTO IN TRANSIT
rto_in_transit    rto_out_for_delivery       RTO OUT FOR DELIVERY
rto_delivered     -                          RTO DELIVERED
rto_delivered     rto_delivered              RTO DELIVERED
cancelled         -                          CANCELLED
cancelled         cancelled_by_merchant      CANCELLED
cancelled         cancelled_by_courier       CANCELLED
others            -                          EXCEPTION
others            lost                       LOST
others            damaged                    DAMAGED
others            destroyed                  DESTROYED
others            on_hold                    ON HOLD
others            box_exception              EXCEPTION
`;

const rows = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [status, sub, ...label] = line.trim().split(/\s+/);
    return { status: status as ShipmentStatus, subStatus: sub === '-' ? null : sub!, label: label.join(' ') };
  });

describe('activityLabel', () => {
  it('the table lists every (status, sub_status) pair the machine allows, and a bare status, once each', () => {
    const allowed = SHIPMENT_STATUSES.flatMap((status) =>
      [null, ...SUB_STATUSES[status]].map((sub) => `${status}/${sub}`),
    );
    expect(rows.map((r) => `${r.status}/${r.subStatus}`)).toEqual(allowed);
  });

  it.each(rows)('$status / $subStatus → $label', ({ status, subStatus, label }) => {
    expect(activityLabel(status, subStatus)).toBe(label);
  });
});
