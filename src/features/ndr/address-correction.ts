import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { toActionView } from '../../domain/shipment/ndr-actions.js';
import { addressCorrectionProblem } from '../../domain/shipment/ndr-rules.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import type { EventLog } from '../../events/event-log.js';
import { invalid } from '../../domain/errors.js';
import { NDR_ERRORS } from './ndr.errors.js';
import type { CorrectDeliveryAddress } from '../contracts.js';
import * as repo from './ndr.repository.js';
import { addNdrOutcome } from './ndr-rules.repository.js';

/**
 * A delivery address the merchant corrected during a failed delivery (PUT /order), passed to the
 * courier as a reattempt's updated_address is (contracts.ts): one instruction on the shipment's
 * courier queue, `reattempt` marked `address_correction`, recorded as shipment.reattempt_requested.
 * It is an instruction to deliver again, so it counts as this failed delivery's reattempt; a
 * further correction, or the merchant's own reattempt for the same failed delivery, spends none.
 */
export function createAddressCorrection({ events }: { events: EventLog }): CorrectDeliveryAddress {
  return async (tx, accountId, shipmentId, correction, now) => {
    const phone =
      correction.updated_phone_number === undefined
        ? undefined
        : canonicalIndianMobile(correction.updated_phone_number);
    if (phone === null)
      throw invalid('updated_phone_number must be a 10-digit Indian mobile number', 'updated_phone_number');
    const shipment = await repo.lockShipment(tx, accountId, { id: shipmentId });
    if (!shipment?.carrierId)
      throw NDR_ERRORS.shipment_has_no_courier.error('The shipment has no courier to tell', 'awb');
    const { reattempts, corrections } = await repo.findReattemptAttempts(tx, accountId, shipment.id);
    const refused = addressCorrectionProblem({
      status: shipment.status as ShipmentStatus,
      attemptCount: shipment.attemptCount,
      earlierReattempts: reattempts,
      correctedAttempts: corrections,
    });
    if (refused) throw NDR_ERRORS.ndr_action_not_allowed.error(refused, 'awb');
    const action = await repo.insertAction(tx, accountId, {
      shipmentId: shipment.id,
      carrierId: shipment.carrierId,
      action: 'reattempt',
      requestedBy: 'merchant',
      attempt: shipment.attemptCount,
      payload: {
        ...(correction.updated_address && { updated_address: correction.updated_address }),
        ...(phone && { updated_phone_number: phone }),
        address_correction: true,
      },
      createdAt: now,
    });
    await addNdrOutcome(tx, accountId, shipment.id, 'reattempt');
    const view = toActionView(action);
    await events.shipment(
      tx,
      accountId,
      shipment.id,
      [{ type: 'shipment.reattempt_requested', change: { action: view } }],
      now,
    );
    return view;
  };
}
