import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import { RETURN_ERRORS } from './returns.errors.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { warehouseAddress } from './return-booking-request.js';
import { bookedChange, bookedColumns, type ReturnBooking } from './return-courier-booking.js';
import type { Parcel, ReturnCourierChoice } from './return-courier-choice.js';
import { type ReturnInput, readReturnInput } from './return-input.js';
import type { ReturnPayload } from './return-payload.js';
import * as repo from './returns.repository.js';
import type { CreateReturnInput } from './returns.schemas.js';

interface Deps {
  db: Db;
  clock: Clock;
  rates: RatesContext;
  warehouses: WarehousesService;
  events: EventLog;
  choice: ReturnCourierChoice;
  booking: ReturnBooking;
  payload: ReturnPayload;
}

/**
 * A new return (reverse-order), and with `book` its courier booking (reverse-order-orchestration),
 * all or nothing. `outer`: the transaction of an idempotent request, with which its writes commit.
 */
export function createNewReturn({ db, clock, rates, warehouses, events, choice, booking, payload }: Deps) {
  const record = auditRecorder(clock);
  /**
   * Where the return travels: the shipping_* address when sent, else warehouse_id's address.
   * Integrations send their own return address beside their warehouse_id (VELOCITY.md), so the
   * address need not be the warehouse's: the return is priced and labelled to it, and stays
   * filed under the warehouse.
   */
  async function destination(ex: Executor, accountId: string, input: Pick<ReturnInput, 'warehouseId' | 'shipping'>) {
    if (!input.warehouseId) return { warehouseId: null, shipping: input.shipping! };
    const warehouse = await warehouses.requireForOrder(accountId, input.warehouseId, ex);
    return { warehouseId: warehouse.id, shipping: input.shipping ?? warehouseAddress(warehouse) };
  }

  async function forwardLink(ex: Executor, accountId: string, input: ReturnInput) {
    if (!input.forward) return null;
    const field = 'awb' in input.forward ? 'forward_awb' : 'forward_order_id';
    const found = await repo.findForwardShipment(ex, accountId, input.forward);
    const named = 'awb' in input.forward ? input.forward.awb : input.forward.merchantOrderId;
    if (!found)
      throw RETURN_ERRORS.forward_shipment_not_found.error(
        `${field} '${named}' names no forward shipment of this account`,
        field,
      );
    if (found.status !== 'delivered') {
      throw RETURN_ERRORS.forward_shipment_not_delivered.error(
        `The forward shipment ${named} is ${found.status}; only a delivered shipment can be returned`,
        field,
      );
    }
    // Checked before an AWB is drawn; the unique key still settles two requests racing for it.
    if (await repo.findReturnOfForward(ex, accountId, found.shipmentId))
      throw RETURN_ERRORS.forward_shipment_already_returned.error('The forward shipment already has a return', field);
    return found;
  }

  /** Reads, checks and prices a new return; with `book`, also picks its courier and draws its AWB. */
  return async function create(actor: Actor, body: CreateReturnInput, outer: Tx | undefined, book: boolean) {
    const { accountId } = actor;
    const ex = outer ?? db;
    const input = readReturnInput(body, rates.directory, book);
    const { warehouseId, shipping } = await destination(ex, accountId, input);
    const forward = await forwardLink(ex, accountId, input);
    const parcel: Parcel = { ...input, pickupPincode: input.pickup.pincode, destinationPincode: shipping.pincode };
    // Refuse a return no courier can carry now, rather than keep one that can never be picked up.
    const chosen = choice.chooseCourier(parcel, input.qcRequested, book ? input.carrierId : undefined);
    const priced = choice.quote(parcel, false);
    // In an outer transaction the AWB counter row stays locked until it commits: taken last.
    const now = clock.now();
    const id = crypto.randomUUID();
    const shipmentId = crypto.randomUUID();
    const awb = book
      ? await booking.book(
          ex,
          accountId,
          chosen,
          shipmentId,
          input,
          input.items,
          input.pickup,
          shipping,
          warehouseId ?? null,
        )
      : null;
    const write = () =>
      inTransaction(db, outer, async (tx) => {
        const row = await repo.insertReturn(
          tx,
          accountId,
          {
            id,
            shipmentId,
            merchantOrderId: input.merchantOrderId,
            warehouseId,
            forwardShipmentId: forward?.shipmentId ?? null,
            channelRef: input.channelRef,
            orderDate: input.orderDate,
            paymentMethod: 'prepaid',
            subTotalPaise: input.subTotalPaise,
            totalDiscountPaise: input.totalDiscountPaise,
            pickup: input.pickup,
            shipping,
            lengthCm: input.lengthCm,
            breadthCm: input.breadthCm,
            heightCm: input.heightCm,
            weightGrams: input.weightGrams,
            requestPickup: input.requestPickup,
            qcRequested: input.qcRequested,
            qcNote: book ? (input.qcNote ?? chosen.qcNote) : input.qcNote,
            status: 'return_requested',
            zone: priced.zone,
            appliedWeightGrams: priced.applicableWeight,
            createdAt: now,
            updatedAt: now,
            ...(awb !== null && bookedColumns(chosen, awb, now)),
          },
          input.items.map((item, position) => ({ position, ...item })),
        );
        if (awb !== null) await booking.enrol(tx, accountId, row.id, chosen, awb, now);
        const booked = awb === null ? [] : [{ type: 'return.booked' as const, change: bookedChange(chosen, awb) }];
        await events.return(tx, accountId, row.id, [{ type: 'return.created' }, ...booked], now);
        await record(tx, actor, {
          action: 'return.created',
          objectType: 'return',
          objectId: row.id,
          changes: {
            order_id: input.merchantOrderId,
            ...(awb !== null && { carrier_id: chosen.courier.service.id, awb }),
          },
        });
        return payload(tx, accountId, row);
      });
    try {
      return await (awb === null ? write() : booking.keep(accountId, chosen, awb, write, outer));
    } catch (error) {
      if (isUniqueViolation(error, 'returns_account_merchant_order_key')) {
        throw RETURN_ERRORS.return_id_taken.error(`Return '${input.merchantOrderId}' already exists`, 'order_id');
      }
      if (isUniqueViolation(error, 'returns_forward_shipment_key')) {
        throw RETURN_ERRORS.forward_shipment_already_returned.error(
          'The forward shipment already has a return',
          input.forward && 'awb' in input.forward ? 'forward_awb' : 'forward_order_id',
        );
      }
      throw error;
    }
  };
}
