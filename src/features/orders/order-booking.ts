import type { Db, Tx } from '../../base/db/client.js';
import { ORDER_ERRORS } from './orders.errors.js';
import { previewView } from './allocation-preview.schemas.js';
import { type AllocateCourier, requireServiceable, withStore } from './courier-choice.js';
import type { ForwardBooking } from './courier-booking.js';
import type { InsertOrder } from './new-order-record.js';
import type { OrderPayload } from './order-payload.js';
import type { EwayBillCheck } from './eway-bill-check.js';
import type { OrderPreparation } from './order-preparation.js';
import * as repo from './orders.repository.js';
import type { OrderPayloadView } from './order-answers.schemas.js';
import type { CreateOrderInput } from './orders.schemas.js';
import type { ChannelOrigin } from '../contracts.js';
import type { Actor } from '../../domain/access/permissions.js';

// A new order: written without a courier, or booked with one at once; and, writing nothing, what
// such a booking would refuse or which courier it would get.

interface Deps {
  db: Db;
  preparation: OrderPreparation;
  allocateCourier: AllocateCourier;
  booking: ForwardBooking;
  insertOrder: InsertOrder;
  payload: OrderPayload;
  ewayBill: EwayBillCheck;
}

// Each write takes `outer`, the transaction of an idempotent request: its effects then commit
// together with the stored answer. Without one, the writes commit on their own.
export function createOrderBooking({
  db,
  preparation,
  allocateCourier,
  booking,
  insertOrder,
  payload,
  ewayBill,
}: Deps) {
  return {
    /** `forward-order`: the order and its pending shipment, no courier yet. */
    async createOrder(
      actor: Actor,
      body: CreateOrderInput,
      outer?: Tx,
      origin?: ChannelOrigin,
    ): Promise<OrderPayloadView> {
      const ex = outer ?? db;
      const { accountId } = actor;
      const prepared = await preparation.prepareAssessed(ex, accountId, body, false);
      // Refuse an order no courier can carry now, rather than leave a shipment that can never ship.
      requireServiceable(prepared.quote);
      const warnings = [...prepared.warnings, ...ewayBill.beforeBooking(prepared.input, prepared.warehouse)];
      const created = await insertOrder(ex, actor, prepared, null, undefined, origin);
      return payload(created.order, created.shipment, prepared.store?.storeName ?? null, warnings);
    },

    /** `forward-order-orchestration`: order, shipment, courier, AWB and label, written by one atomic statement. */
    async orchestrate(
      actor: Actor,
      body: CreateOrderInput,
      outer?: Tx,
      origin?: ChannelOrigin,
    ): Promise<OrderPayloadView> {
      const ex = outer ?? db;
      const { accountId } = actor;
      const prepared = await preparation.prepareAssessed(ex, accountId, body, true);
      // In an outer transaction the AWB counter row stays locked until it commits: taken last.
      const shipmentId = crypto.randomUUID();
      const chosen = await allocateCourier(ex, accountId, withStore(prepared), prepared.input.carrierId);
      const { input, warehouse } = prepared;
      const ewayWarnings = await ewayBill.atBooking(ex, accountId, input, warehouse, chosen.courier.deliveryDay);
      const booked = await booking.book(ex, accountId, chosen, shipmentId, input, warehouse);
      const created = await booking.keepBooking(
        accountId,
        booked,
        prepared.warehouse,
        () => insertOrder(ex, actor, prepared, booked, shipmentId, origin),
        outer,
      );
      const warnings = [...prepared.warnings, ...ewayWarnings];
      return payload(created.order, created.shipment, prepared.store?.storeName ?? null, warnings, created.boxes);
    },

    /** What orchestrate would refuse, refused the same way, and the courier it would book; nothing is written. */
    async check(accountId: string, body: CreateOrderInput) {
      const prepared = await preparation.prepare(db, accountId, body, true);
      const { courier } = await allocateCourier(db, accountId, withStore(prepared), prepared.input.carrierId);
      if (await repo.orderIdTaken(db, accountId, prepared.input.merchantOrderId)) {
        throw ORDER_ERRORS.order_id_taken.error(`Order '${prepared.input.merchantOrderId}' already exists`, 'order_id');
      }
      const { input, warehouse } = prepared;
      const warnings = [
        ...prepared.warnings,
        ...(await ewayBill.atBooking(db, accountId, input, warehouse, courier.deliveryDay)),
      ];
      return {
        carrier_id: courier.service.id,
        courier_name: courier.service.name,
        ...(warnings.length > 0 && { warnings }),
      };
    },

    /**
     * POST /allocation/preview: the courier a booking of this order would get now, and what each rule
     * made of it, through the same choice as forward-order-orchestration; nothing is written.
     */
    async previewAllocation(accountId: string, body: CreateOrderInput) {
      const prepared = await preparation.prepare(db, accountId, body, true);
      const chosen = await allocateCourier(db, accountId, withStore(prepared), prepared.input.carrierId, true);
      return previewView(prepared.quote, chosen, prepared.warnings);
    },
  };
}
