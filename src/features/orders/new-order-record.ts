import type { Clock } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { newTrackToken } from '../../domain/shipment/track-links.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { EventLog } from '../../events/event-log.js';
import { ORDER_ERRORS } from './orders.errors.js';
import type { AssessedOrder } from './order-preparation.js';
import {
  type Booking,
  bookedChange,
  bookedColumns,
  bookingMilestones,
  orderColumns,
  searchText,
  shipmentColumns,
} from './order-rows.js';
import * as repo from './orders.repository.js';
import { boxesInsert, newBoxRows } from './shipment-boxes.js';
import { assessmentColumns, assessmentEvents } from './rto-assessment.js';
import type { ChannelOrigin } from '../contracts.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditStatement } from '../../tenancy/audit/audit.js';
import { invoiceIssueFor, invoiceNumberCtes } from '../../tenancy/stores/invoice-series.js';

export const ORDER_CHANNEL = 'manual_order';

interface Deps {
  clock: Clock;
  events: EventLog;
  /** Queues a booked shipment for its courier's tracking poller. */
  couriers: Couriers;
}

export type InsertOrder = ReturnType<typeof createNewOrderRecord>;

/**
 * The order, its shipment, their events (shipment.created, and shipment.booked with a booking),
 * with a booking the shipment's place in the poller's queue, and the audit entry naming who made
 * it: one statement (orders.repository).
 */
export function createNewOrderRecord({ clock, events, couriers }: Deps) {
  return async function insertOrder(
    ex: Executor,
    actor: Actor,
    prepared: AssessedOrder,
    booking: Booking | null,
    shipmentId: string = crypto.randomUUID(),
    origin?: ChannelOrigin,
  ) {
    const { accountId } = actor;
    const { input } = prepared;
    const assessment = await prepared.assessment;
    const now = clock.now();
    const orderId = crypto.randomUUID();
    const shipment = {
      ...shipmentColumns(prepared),
      ...assessmentColumns(assessment),
      id: shipmentId,
      channel: origin?.channel ?? ORDER_CHANNEL,
      status: 'pending',
      searchText: searchText(input, orderId, booking?.awb ?? null, origin?.channelOrderName),
      trackToken: newTrackToken(),
      createdAt: now,
      updatedAt: now,
      ...(booking && bookedColumns(booking, now)),
    };
    const booked = booking ? [{ type: 'shipment.booked' as const, change: bookedChange(booking) }] : [];
    const recorded = events.newShipment(
      accountId,
      {
        id: shipmentId,
        carrierId: shipment.carrierId ?? null,
        awb: shipment.awb ?? null,
        status: shipment.status,
        trackToken: shipment.trackToken,
      },
      [{ type: 'shipment.created' }, ...assessmentEvents(assessment), ...booked],
      now,
    );
    const enrolment =
      booking &&
      couriers.enrolment(accountId, { shipmentId, service: booking.courier.service, awb: booking.awb, at: now });
    // Who made the order, in the same statement: the order and its audit entry are kept or lost together.
    const audited = auditStatement(
      actor,
      {
        action: 'order.created',
        objectType: 'order',
        objectId: input.merchantOrderId,
        changes: {
          shipment_id: shipmentId,
          ...(booking && { carrier_id: booking.courier.service.id, awb: booking.awb }),
          ...(origin && { channel: origin.channel, channel_order_id: origin.channelOrderId }),
        },
      },
      now,
    );
    // A booking of a store with invoice details numbers its invoice in this statement (no extra
    // round trip, and nothing when the store has none): kept or lost with the booking.
    const invoice = booking ? invoiceIssueFor(accountId, prepared.store, shipmentId, now) : null;
    // A multi-piece booking's boxes, each with the AWB its courier gave it, in the same statement.
    const boxes =
      booking && input.packages
        ? newBoxRows(
            { accountId, shipmentId, awb: booking.awb, status: shipment.status, at: now },
            input.packages,
            booking.boxes,
          )
        : [];
    const also = [
      recorded.statement,
      ...(enrolment ? [enrolment] : []),
      audited,
      ...(boxes.length > 0 ? [boxesInsert(boxes)] : []),
    ];
    try {
      const created = await repo.insertOrder(
        ex,
        accountId,
        {
          id: orderId,
          ...orderColumns(prepared),
          channel: origin?.channel ?? ORDER_CHANNEL,
          salesChannelId: origin?.salesChannelId ?? null,
          channelOrderId: origin?.channelOrderId ?? null,
          channelOrderName: origin?.channelOrderName ?? null,
          createdAt: now,
        },
        input.items.map((item, position) => ({ position, ...item })),
        shipment,
        [{ milestone: 'order_created', at: now }, ...(booking ? bookingMilestones(booking, now) : [])],
        invoice ? [...also, ...invoiceNumberCtes(invoice)] : also,
      );
      recorded.written();
      return { ...created, boxes };
    } catch (error) {
      if (isUniqueViolation(error, 'orders_account_merchant_order_key')) {
        throw ORDER_ERRORS.order_id_taken.error(`Order '${input.merchantOrderId}' already exists`, 'order_id');
      }
      throw error;
    }
  };
}
