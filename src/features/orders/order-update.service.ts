import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { EventLog } from '../../events/event-log.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import type { CorrectDeliveryAddress } from '../contracts.js';
import { afterPickupProblems, deliveryCorrection } from './delivery-correction.js';
import * as repo from './orders.repository.js';
import { findBoxes } from './shipment-boxes.js';
import { ORDER_ERRORS } from './orders.errors.js';
import type { OrderPayloadView } from './order-answers.schemas.js';
import type { CreateOrderInput, UpdateOrderInput } from './orders.schemas.js';
import { isWholeOrder, mergeOrderUpdate, storedOrderBody } from './order-merge.js';
import type { OrdersService } from './orders.service.js';
import { type PreparedOrder, orderColumns, searchText, shipmentColumns } from './order-rows.js';
import { orderInputOf } from './order-input.js';
import { reassess, watchedChanges } from './reassess.js';
import { samePackages } from './order-packages.js';

export type OrderUpdateService = ReturnType<typeof createOrderUpdateService>;

interface Deps {
  db: Db;
  clock: Clock;
  orders: OrdersService;
  events: EventLog;
  directory: PincodeDirectory;
  /** RTO_CHECKS: off, the update leaves the checks' columns as they are (decision 93). */
  rtoChecks?: boolean;
  /** NDR's: passes an address corrected during a failed delivery to the courier. */
  correctDeliveryAddress: CorrectDeliveryAddress;
}

/**
 * Once an AWB exists, the courier was chosen and paid for on these values: changing one would
 * change the price (weight, size, COD fee) or the lane (pincodes), so the booking no longer holds.
 */
function frozenFieldChanges(
  order: repo.OrderRow,
  { input, warehouse }: PreparedOrder,
  body: CreateOrderInput,
): FieldError[] {
  const pincodeField = input.shippingIsBilling ? 'billing_pincode' : 'shipping_pincode';
  const changes: [string, boolean][] = [
    [body.warehouse_id ? 'warehouse_id' : 'pickup_location', warehouse.id !== order.warehouseId],
    [pincodeField, input.shipping.pincode !== order.shippingPincode],
    // Kilograms sent, grams stored: a difference below a milligram is the float round trip, not a change.
    ['weight', Math.abs(input.weightGrams - order.weightGrams) >= 0.001],
    ['length', input.lengthCm !== order.lengthCm],
    ['breadth', input.breadthCm !== order.breadthCm],
    ['height', input.heightCm !== order.heightCm],
    ['packages', !samePackages(order.packages, input.packages)],
    ['payment_method', input.paymentMethod !== order.paymentMethod],
    ['cod_collectible', input.codPaise !== order.codCollectiblePaise],
  ];
  return changes
    .filter(([, changed]) => changed)
    .map(([field]) => ({
      field,
      message: `${field} cannot change once an AWB is assigned (it would change the price or the courier): cancel the shipment and book it again`,
    }));
}

const refusal = (problems: FieldError[]) =>
  ORDER_ERRORS.order_change_refused.error(
    problems.map((p) => p.message),
    problems,
  );

/**
 * `PUT /order`: Velocity's Order Update sends the whole forward-order body, which replaces the order
 * (an absent optional field is cleared, as forward-order would have stored it); integrations also
 * send only the fields that change, which are merged into the stored order (order-merge.ts).
 * Allowed until pickup; after an AWB only what leaves the price and the courier as booked. While a
 * failed delivery waits (ndr_raised), the delivery address and phone too, passed to the courier as
 * an address correction (delivery-correction.ts).
 */
export function createOrderUpdateService({
  db,
  clock,
  orders,
  events,
  directory,
  rtoChecks = true,
  correctDeliveryAddress,
}: Deps) {
  const record = auditRecorder(clock);
  /** The correction through NDR's path; its refusals (no reattempt left, the delivery moved on) name the order. */
  async function passToCourier(...[tx, accountId, shipmentId, correction, now]: Parameters<CorrectDeliveryAddress>) {
    try {
      await correctDeliveryAddress(tx, accountId, shipmentId, correction, now);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const named = (error.details ?? []).map((d) => ({
        field: d.field === 'awb' ? 'order_id' : d.field,
        message: d.message,
      }));
      throw refusal(named.length > 0 ? named : error.messages.map((message) => ({ field: 'order_id', message })));
    }
  }

  return {
    async update(actor: Actor, sent: UpdateOrderInput, outer?: Tx): Promise<OrderPayloadView> {
      const { accountId } = actor;
      return inTransaction(db, outer, async (tx) => {
        const found = await repo.findOrderForUpdate(tx, accountId, sent.order_id);
        // Unknown and another account's order read the same: nothing about the other account leaks.
        if (!found) throw ORDER_ERRORS.order_not_found.error(`Order '${sent.order_id}' not found`);
        const { order, shipment } = found;
        const body = isWholeOrder(sent)
          ? sent
          : mergeOrderUpdate(
              storedOrderBody(
                order,
                await repo.findItems(tx, accountId, order.id),
                (await repo.findStoreName(tx, accountId, order.storeId))?.storeName ?? null,
              ),
              sent,
            );
        const failedDelivery = shipment.status === 'ndr_raised';
        if (shipment.status !== 'pending' && !failedDelivery) {
          throw ORDER_ERRORS.order_not_updatable.error(
            `The shipment is ${shipment.status}; an order can only be updated before it is picked up, ` +
              'and its delivery address and phone while a failed delivery waits (ndr_raised)',
            'order_id',
          );
        }
        // Whether carrier_id may be sent depends on the booking, checked below.
        const prepared = await orders.prepare(tx, accountId, body, true);
        const booked = shipment.awb !== null;
        if (body.carrier_id && body.carrier_id !== shipment.carrierId) {
          if (!booked)
            throw ORDER_ERRORS.carrier_id_not_accepted.error(
              'carrier_id belongs to forward-order-shipment or forward-order-orchestration',
              'carrier_id',
            );
          throw ORDER_ERRORS.order_change_refused.error(
            'carrier_id cannot change once an AWB is assigned: cancel the shipment and book it again',
            'carrier_id',
          );
        }
        if (failedDelivery) {
          const items = await repo.findItems(tx, accountId, order.id);
          const refused = afterPickupProblems(order, items, prepared, body);
          if (refused.length > 0) throw refusal(refused);
        } else if (booked) {
          const refused = frozenFieldChanges(order, prepared, body);
          if (refused.length > 0) throw refusal(refused);
        } else {
          // As forward-order does: refuse what no courier can carry rather than keep an unshippable order.
          orders.requireCourier(prepared);
        }

        const now = clock.now();
        const changed = rtoChecks ? watchedChanges(orderInputOf(order, []), prepared.input) : [];
        const recheck = changed.length > 0 ? await reassess(tx, accountId, shipment, prepared.input, directory) : null;
        const updatedOrder = await repo.updateOrder(tx, accountId, order.id, orderColumns(prepared));
        await repo.replaceItems(
          tx,
          accountId,
          order.id,
          prepared.input.items.map((item, position) => ({ position, ...item })),
        );
        const listed = shipmentColumns(prepared);
        const updatedShipment = await repo.updateShipment(tx, accountId, shipment.id, {
          ...listed,
          // A booked shipment keeps the zone and weight it was priced on (unchanged by the rule above).
          ...(booked && { zone: shipment.zone, appliedWeightGrams: shipment.appliedWeightGrams }),
          searchText: searchText(prepared.input, order.id, shipment.awb, order.channelOrderName),
          ...recheck?.columns,
          updatedAt: now,
        });
        const correction = failedDelivery ? deliveryCorrection(order, prepared.input) : undefined;
        if (correction) await passToCourier(tx, accountId, shipment.id, correction, now);
        if (recheck) {
          await events.shipment(
            tx,
            accountId,
            shipment.id,
            [{ type: 'shipment.address_checked', change: { ...recheck.change, changed, checked_by: 'merchant' } }],
            now,
          );
        }
        // The fields sent, by name only: their values hold the buyer's details.
        await record(tx, actor, {
          action: 'order.changed',
          objectType: 'order',
          objectId: order.merchantOrderId,
          changes: {
            fields: Object.keys(sent)
              .filter((name) => name !== 'order_id')
              .sort(),
            ...(correction && { passed_to_courier: true }),
          },
        });
        const boxes = booked && order.packages ? await findBoxes(tx, accountId, shipment.id) : [];
        return orders.view(updatedOrder, updatedShipment, prepared.store?.storeName ?? null, prepared.warnings, boxes);
      });
    },
  };
}
