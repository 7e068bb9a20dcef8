import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import { DomainError } from '../../domain/errors.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import { formatDay, indiaDayOf } from '../../domain/calendar.js';
import { paiseToRupees } from '../../domain/money.js';
import type { EventType } from '../../domain/shipment/event-types.js';
import type { EventLog } from '../../events/event-log.js';
import type { BookExchange, ExchangeLegBooking, NewRefund, OpenRefund, ReturnLeg } from '../contracts.js';
import { findStore } from '../../tenancy/stores/stores.repository.js';
import { deliveryAddress } from './return-request-facts.js';
import type { MaskedPayee, RefundMethod } from '../../domain/return-requests/refund-payee.js';
import type { RefundRelease } from '../../domain/return-requests/refund-rules.js';
import * as policies from './return-policy.repository.js';
import { RETURN_REQUEST_ERRORS } from './return-requests.errors.js';
import * as repo from './return-requests.repository.js';

// The merchant's decision on a return request (docs/returns.md): an approval books the return
// through the returns module's own path (the courier's pickup of the items from the buyer's
// address to the warehouse the order left), in the same transaction; a rejection keeps the words
// the buyer is told.

export interface ReturnRequestDecisionsContext {
  db: Db;
  clock: Clock;
  events: Pick<EventLog, 'record'>;
  rates: Pick<RatesContext, 'catalogue'>;
  /** Cancels a booked parcel at its courier when what records it rolls back. */
  couriers: Pick<Couriers, 'callOff'>;
  /** Books a return from reverse-order-orchestration's body, in the caller's transaction (features/returns). */
  returnLeg: ExchangeLegBooking<ReturnLeg>;
  /** Records the buyer's refund of an approved refund request (features/refunds). */
  refunds: { open: OpenRefund };
  /** Books an exchange request's replacement with its pickup (features/exchanges). */
  bookExchange: BookExchange;
}

export type ReturnRequestDecisions = ReturnType<typeof createReturnRequestDecisions>;

/** A refusal of the booking (the return's, or the exchange's), in the request's terms: its pickup address, or the request itself. */
function unbookable(error: unknown, booking: 'return' | 'exchange' = 'return'): unknown {
  if (!(error instanceof DomainError) || !['invalid', 'unprocessable', 'conflict'].includes(error.kind)) return error;
  const messages = error.messages.map((message) => `The ${booking}'s booking: ${message}`);
  const fields = (error.details ?? []).map((detail) => ({
    field: detail.field.startsWith('pickup_') ? 'pickup_address' : 'id',
    message: `The ${booking}'s booking: ${detail.message}`,
  }));
  return RETURN_REQUEST_ERRORS.return_request_unbookable.error(messages, fields.length > 0 ? fields : 'id');
}

/** An item the courier checks at pickup, against the product's picture (QC pickups). */
export interface QcItem {
  sku: string;
  image_url: string;
  brand?: string | undefined;
  size?: string | undefined;
  color?: string | undefined;
}

/** What an exchange request's replacement is, for one of its items: another SKU (a size or colour), its name. */
export interface Replacement {
  sku: string;
  replacement_sku: string;
  replacement_name?: string | undefined;
}

export interface Approval {
  /** The store's auto rule deciding it (its place in the rules); absent: the merchant. */
  rule?: number;
  qc?: readonly QcItem[];
  /** An exchange's replacements by item; an item not named is replaced by its own SKU. */
  replacements?: readonly Replacement[];
  /** What the merchant gives instead of what the buyer asked for: a refund for an exchange, or the reverse. */
  resolution?: 'refund' | 'exchange' | undefined;
}

/** How the request's refund is paid: as it gave it; else a prepaid order's original method, a COD one's to be agreed. */
function refundPayee(request: repo.RequestRow, paymentMethod: string): Pick<NewRefund, 'method' | 'payee'> {
  if (request.refundTo)
    return {
      method: request.refundTo.method as RefundMethod,
      payee: { masked: request.refundTo as MaskedPayee, sealed: request.refundToSealed },
    };
  return paymentMethod.toLowerCase() === 'prepaid'
    ? { method: 'original', payee: { masked: { method: 'original' }, sealed: null } }
    : { method: 'to_be_agreed', payee: null };
}

/** Who decides: the merchant through the API, or the store's auto rule at this place. */
const decider = (rule: number | undefined) =>
  rule === undefined ? { decidedBy: 'merchant', decisionRule: null } : { decidedBy: 'rule', decisionRule: rule };

export function createReturnRequestDecisions({
  db,
  clock,
  events,
  rates,
  couriers,
  returnLeg,
  refunds,
  bookExchange,
}: ReturnRequestDecisionsContext) {
  const record = auditRecorder(clock);
  /** Locks a pending request, or refuses: one decision per request. */
  async function pending(tx: Tx, accountId: string, requestId: string) {
    const request = await repo.lockRequest(tx, accountId, requestId);
    if (!request) throw RETURN_REQUEST_ERRORS.return_request_not_found.error('Return request not found');
    if (request.status !== 'pending')
      throw RETURN_REQUEST_ERRORS.return_request_decided.error(`The return request is already ${request.status}`);
    return request;
  }

  async function recorded(tx: Tx, accountId: string, requestId: string, type: EventType, at: Date) {
    const view = repo.viewOf((await repo.findRequest(tx, accountId, requestId))!);
    await events.record(
      tx,
      accountId,
      { type, subjectType: 'return_request', subjectId: requestId, data: { return_request: view } },
      at,
    );
    return view;
  }

  /** The reverse-order-orchestration body of the request's return: its items at the order's prices, in the forward parcel's box. */
  async function returnBody(tx: Tx, accountId: string, request: repo.RequestRow, qc: readonly QcItem[]) {
    const { shipment, order } = (await repo.findShipment(tx, accountId, request.shipmentId, 'read'))!;
    const orderItems = await repo.findOrderItems(tx, accountId, request.orderId);
    const found = await repo.findRequest(tx, accountId, request.id);
    // The price paid for a unit, never below nothing (a discount larger than the price is the whole price).
    const priceOf = new Map(
      orderItems.map((item) => [item.sku, Math.max(0, item.sellingPricePaise - item.discountPaise)]),
    );
    const unknown = qc.flatMap((check, i) => (found!.items.some((item) => item.sku === check.sku) ? [] : [i]));
    if (unknown.length > 0)
      throw RETURN_REQUEST_ERRORS.return_request_unbookable.error(
        unknown.map((i) => `qc.items[${i}].sku ${qc[i]!.sku} is not an item of the request`),
        unknown.map((i) => ({ field: `qc.items[${i}].sku`, message: 'is not an item of the request' })),
      );
    const qcOf = new Map(qc.map((check) => [check.sku, check]));
    const items = found!.items.map((item) => {
      const check = qcOf.get(item.sku);
      return {
        name: item.name,
        sku: item.sku,
        units: item.units,
        selling_price: paiseToRupees(priceOf.get(item.sku) ?? 0),
        // Checked at the doorstep by a courier that does QC pickups, against the product's picture.
        ...(check && {
          qc_enable: true,
          qc_product_name: item.name,
          qc_product_image: check.image_url,
          ...(check.brand && { qc_brand: check.brand }),
          ...(check.size && { qc_size: check.size }),
          ...(check.color && { qc_color: check.color }),
        }),
      };
    });
    const { pickup } = request;
    const priced = found!.items.map((item) => ({ ...item, unitPaise: priceOf.get(item.sku) ?? 0 }));
    const refundItems = priced.map(({ unitPaise, units }) => ({ unitPaise, units }));
    return {
      refundItems,
      priced,
      order,
      paymentMethod: order.paymentMethod,
      body: {
        // The return's own order id: the order's (cut to fit returns' 100 characters), marked as this request's.
        order_id: `${order.merchantOrderId.slice(0, 89)}-R-${request.id.slice(0, 8)}`,
        order_date: formatDay(indiaDayOf(clock.now())),
        pickup_customer_name: pickup.name,
        ...(pickup.last_name && { pickup_last_name: pickup.last_name }),
        pickup_address: pickup.address,
        ...(pickup.address_2 && { pickup_address_2: pickup.address_2 }),
        pickup_city: pickup.city,
        pickup_state: pickup.state,
        pickup_country: pickup.country,
        pickup_pincode: pickup.pincode,
        ...(pickup.email && { pickup_email: pickup.email }),
        pickup_phone: pickup.phone,
        order_items: items,
        payment_method: 'PREPAID',
        sub_total: items.reduce((sum, item) => sum + item.selling_price * item.units, 0),
        length: order.lengthCm,
        breadth: order.breadthCm,
        height: order.heightCm,
        weight: order.weightGrams / 1000,
        warehouse_id: shipment.warehouseId,
        forward_order_id: order.merchantOrderId,
      },
    };
  }

  /**
   * An exchange request's exchange-order-orchestration body: the return's pickup of the items, and
   * each item's replacement (its own SKU unless `replacements` names another) sent prepaid, at the
   * price paid, to the delivery address, from the warehouse the order left.
   */
  async function exchangeBody(
    tx: Tx,
    accountId: string,
    request: repo.RequestRow,
    made: Awaited<ReturnType<typeof returnBody>>,
    replacements: readonly Replacement[],
  ) {
    const { body, order, priced } = made;
    const faults = replacements.flatMap((r, i) => {
      if (!priced.some((item) => item.sku === r.sku)) return [{ i, why: 'is not an item of the request' }];
      return replacements.findIndex((other) => other.sku === r.sku) < i ? [{ i, why: 'is replaced twice' }] : [];
    });
    if (faults.length > 0)
      throw RETURN_REQUEST_ERRORS.return_request_unbookable.error(
        faults.map(({ i, why }) => `replacements[${i}].sku ${replacements[i]!.sku} ${why}`),
        faults.map(({ i, why }) => ({ field: `replacements[${i}].sku`, message: why })),
      );
    const store = order.storeId === null ? undefined : await findStore(tx, accountId, order.storeId);
    const billing = Object.fromEntries(
      Object.entries(deliveryAddress({ order } as repo.FoundShipment)).flatMap(([field, value]) =>
        value === null ? [] : [[`billing_${field === 'name' ? 'customer_name' : field}`, value]],
      ),
    );
    const wanted = request.exchangeFor ? ` (${request.exchangeFor})` : '';
    return {
      // The exchange's own order id, the replacement's: the order's, marked as this request's.
      order_id: `${order.merchantOrderId.slice(0, 89)}-X-${request.id.slice(0, 8)}`,
      // The pickup belongs to the order the items came in, as a request's return does.
      original_order_id: order.merchantOrderId,
      order_date: body.order_date,
      carrier_id: '',
      payment_method: 'PREPAID',
      return_reason: request.reason,
      ...(store && { store_name: store.storeName }),
      ...billing,
      ...Object.fromEntries(Object.entries(body).filter(([field]) => field.startsWith('pickup_'))),
      order_items: priced.map((item) => {
        const replacement = replacements.find((r) => r.sku === item.sku);
        return {
          name: (replacement?.replacement_name ?? `${item.name}${wanted}`).slice(0, 300),
          sku: replacement?.replacement_sku ?? item.sku,
          units: item.units,
          selling_price: paiseToRupees(item.unitPaise),
        };
      }),
      forward_warehouse_id: body.warehouse_id,
      length: body.length,
      breadth: body.breadth,
      height: body.height,
      weight: body.weight,
      return_items: body.order_items,
    };
  }

  /** The merchant's change of what a request gets: a refund of a prepaid order goes back to how it was paid. */
  async function changeResolution(tx: Tx, accountId: string, request: repo.RequestRow, to: 'refund' | 'exchange') {
    const { order } = (await repo.findShipment(tx, accountId, request.shipmentId, 'read'))!;
    const prepaid = order.paymentMethod.toLowerCase() === 'prepaid';
    return repo.changeResolution(
      tx,
      accountId,
      request.id,
      to,
      to === 'refund' && prepaid ? { method: 'original' } : null,
    );
  }

  /** Books what an approval books: an exchange for an exchange request (with the refusal in the request's terms), else the return. */
  async function book(tx: Tx, actor: Actor, request: repo.RequestRow, approval: Approval) {
    const { accountId } = actor;
    const made = await returnBody(tx, accountId, request, approval.qc ?? []);
    if (request.resolution !== 'exchange') {
      if (approval.replacements?.length)
        throw RETURN_REQUEST_ERRORS.return_request_unbookable.error(
          'replacements are for an exchange request; this one asks for a refund',
          'replacements',
        );
      const leg = await returnLeg.book(actor, made.body, tx).catch((error: unknown) => {
        throw unbookable(error);
      });
      const parcels = [{ carrierId: leg.carrierId, awb: leg.awb, journey: 'return' as const }];
      return { made, returnId: leg.returnId, exchangeId: null, parcels };
    }
    const body = await exchangeBody(tx, accountId, request, made, approval.replacements ?? []);
    const exchange = await bookExchange(actor, body, tx).catch((error: unknown) => {
      throw unbookable(error, 'exchange');
    });
    return { made, ...exchange };
  }

  return {
    /**
     * Approves a pending request and books its return (the courier the allocation chooses; one that
     * does QC pickups when `qc` names items to check). `rule`: the store's auto rule deciding it.
     */
    async approve(actor: Actor, requestId: string, outer?: Tx, approval: Approval = {}) {
      const { accountId } = actor;
      return inTransaction(db, outer, async (tx) => {
        const asked = await pending(tx, accountId, requestId);
        const request =
          approval.resolution && approval.resolution !== asked.resolution
            ? await changeResolution(tx, accountId, asked, approval.resolution)
            : asked;
        const booked = await book(tx, actor, request, approval);
        const { refundItems, paymentMethod } = booked.made;
        try {
          const now = clock.now();
          await repo.decide(tx, accountId, requestId, {
            status: 'approved',
            decisionNote: null,
            ...decider(approval.rule),
            returnId: booked.returnId,
            exchangeId: booked.exchangeId,
            decidedAt: now,
            updatedAt: now,
          });
          const approved = await recorded(tx, accountId, requestId, 'return_request.approved', now);
          await record(tx, actor, {
            action: 'return_request.approved',
            objectType: 'return_request',
            objectId: requestId,
            changes: {
              resolution: request.resolution,
              return_id: booked.returnId,
              ...(booked.exchangeId && { exchange_id: booked.exchangeId }),
              ...(approval.rule !== undefined && { rule: approval.rule }),
            },
          });
          if (request.resolution === 'refund') {
            // The terms of the store's policy as they stand at the approval.
            const policy = await policies.findPolicy(tx, accountId, request.storeId);
            await refunds.open(tx, accountId, {
              requestId,
              returnId: booked.returnId,
              storeId: request.storeId,
              items: refundItems,
              terms: {
                deductionPercent: policy?.refundDeductionPercent ?? 0,
                returnShippingFeePaise: policy?.returnShippingFeePaise ?? 0,
              },
              release: (policy?.refundRelease ?? 'warehouse') as RefundRelease,
              ...refundPayee(request, paymentMethod),
            });
          }
          return approved;
        } catch (error) {
          // The transaction rolls back with the booking's rows: their parcels may not stay booked.
          for (const parcel of booked.parcels) {
            const service = parcel.carrierId ? rates.catalogue.byId.get(parcel.carrierId) : undefined;
            // A call-off that fails too never hides why the approval failed.
            if (service && parcel.awb)
              await couriers
                .callOff(accountId, { service, awb: parcel.awb, journey: parcel.journey }, true)
                .catch(() => undefined);
          }
          throw error;
        }
      });
    },

    /** Rejects a pending request with the words the buyer is told. */
    async reject(actor: Actor, requestId: string, message: string, outer?: Tx, rule?: number) {
      const { accountId } = actor;
      return inTransaction(db, outer, async (tx) => {
        await pending(tx, accountId, requestId);
        const now = clock.now();
        await repo.decide(tx, accountId, requestId, {
          status: 'rejected',
          decisionNote: message,
          ...decider(rule),
          returnId: null,
          decidedAt: now,
          updatedAt: now,
        });
        await record(tx, actor, {
          action: 'return_request.rejected',
          objectType: 'return_request',
          objectId: requestId,
          changes: { message, ...(rule !== undefined && { rule }) },
        });
        return recorded(tx, accountId, requestId, 'return_request.rejected', now);
      });
    },
  };
}
