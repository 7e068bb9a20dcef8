import type { Clock } from '../../base/clock.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { type FieldError, notFound, unprocessable } from '../../http/errors.js';
import { zoneLabel } from '../../domain/geo/zones.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { type CourierQuote, quoteRates, type RateQuote, unserviceableReason } from '../../domain/rates/engine.js';
import { paiseToRupees } from '../../domain/money.js';
import type { StoresService } from '../../tenancy/stores/stores.service.js';
import type { WarehouseRow, WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { ApplyShipmentEvents, CourierAllocator } from '../contracts.js';
import type { Allocation, OrderFacts, RuleOutcome } from '../../domain/allocation/allocation.js';
import { formatDay } from '../../domain/calendar.js';
import { velocityDateObject, velocityDateTime } from '../../base/clock.js';
import { awbTaken, type Couriers } from '../../couriers/couriers.service.js';
import { allocationView, previewView } from './allocation-preview.js';
import { BookedMeanwhile, bookingRequest } from './booking-request.js';
import { createCancellations, type ReturnCancellations } from './cancel-order.js';
import { bookedTrackUrl, newTrackToken, type TrackUrl } from '../../domain/shipment/track-links.js';
import { type OrderInput, orderInputOf, readOrderInput } from './order-input.js';
import type { EventLog } from '../../events/event-log.js';
import * as repo from './orders.repository.js';
import { type Assessment, assessmentColumns, assessmentEvents, assessOrder } from './rto-assessment.js';
import type { CreateOrderInput, OrderPayloadView } from './orders.schemas.js';
import { type Booking, type PreparedOrder, bookedChange, bookedColumns, bookingMilestones, orderColumns, searchText, shipmentColumns } from './order-rows.js';

export const ORDER_CHANNEL = 'manual_order';

export type OrdersService = ReturnType<typeof createOrdersService>;

interface Deps {
  db: Db;
  clock: Clock;
  rates: RatesContext;
  warehouses: WarehousesService;
  stores: StoresService;
  labelLinks: LabelLinks;
  trackUrl: TrackUrl;
  events: EventLog;
  /** The tracking intake's: a merchant's cancellation goes through the shipment's status machine. */
  applyShipmentEvents: ApplyShipmentEvents;
  /** Books, cancels and tracks through each service's connector. */
  couriers: Couriers;
  /** cancel-order also takes return AWBs and shipment ids: those it finds, the returns module cancels. */
  returns?: ReturnCancellations;
  /** The account's allocation rules: which courier books an order sent without carrier_id. */
  allocator: CourierAllocator;
  /** RTO_CHECKS: address checks and RTO risk at booking (default on); off, the shipment's are null. */
  rtoChecks?: boolean;
}

/** Whether the quote billed the dead weight (Velocity's dead_weight_billing): it is not below the volumetric. */
function deadWeightBilled(order: repo.OrderRow): boolean {
  return order.weightGrams >= (order.lengthCm * order.breadthCm * order.heightCm) / 5;
}

const twoDecimals = (paise: number) => (paise / 100).toFixed(2);

/** A prepared order whose address checks and risk are being read (null with RTO_CHECKS off). */
type AssessedOrder = PreparedOrder & { assessment: Promise<Assessment | null> };

const withStore = (prepared: PreparedOrder) => ({ ...prepared, storeName: prepared.store?.storeName ?? null });

export function createOrdersService({ db, clock, rates, warehouses, stores, labelLinks, trackUrl, events, applyShipmentEvents, couriers, returns, allocator, rtoChecks = true }: Deps) {
  const cancellations = createCancellations({ db, clock, rates, couriers, applyShipmentEvents, returns });

  /** `courierAllowed`: as readOrderInput takes it. */
  const prepare = (ex: Executor, accountId: string, body: CreateOrderInput, courierAllowed: boolean) =>
    prepareWith(ex, accountId, readOrderInput(body, rates.directory, courierAllowed));
  async function prepareWith(ex: Executor, accountId: string, input: OrderInput): Promise<PreparedOrder> {
    const { warehouse, warning } = await warehouses.resolveForOrder(accountId, input.warehouseId, input.pickupLocation, ex);
    const store = input.storeName === undefined ? null : await stores.requireActiveForOrder(accountId, input.storeName, ex);
    return { input, warehouse, store, quote: priceShipment(input, warehouse), warnings: warning ? [warning] : [] };
  }

  /**
   * A booking's order, prepared, with its address checks and risk under way beside it: their
   * history read starts with the warehouse's, so outside a transaction it runs on a second pooled
   * connection while the booking reads, prices and allocates, and adds no round trip of its own.
   */
  async function prepareAssessed(ex: Executor, accountId: string, body: CreateOrderInput, courierAllowed: boolean): Promise<AssessedOrder> {
    const input = readOrderInput(body, rates.directory, courierAllowed);
    const assessment = rtoChecks ? assessOrder(ex, accountId, input, rates.directory) : Promise.resolve(null);
    assessment.catch(() => undefined); // awaited by insertOrder; not unhandled when refused before
    return { ...(await prepareWith(ex, accountId, input)), assessment };
  }

  function priceShipment(input: OrderInput, warehouse: WarehouseRow): RateQuote {
    return quoteRates(
      {
        journeyType: 'forward',
        origin: rates.directory.lookup(warehouse.pincode)!,
        destination: rates.directory.lookup(input.shipping.pincode)!,
        deadWeightGrams: input.weightGrams,
        lengthCm: input.lengthCm,
        widthCm: input.breadthCm,
        heightCm: input.heightCm,
        paymentMethod: input.paymentMethod,
        ...(input.paymentMethod === 'cod' && { shipmentValuePaise: input.codPaise }),
        qcApplicable: false,
      },
      clock.now(),
      rates,
    );
  }

  /** What allocation rules match on, of a priced order. */
  function factsOf(prepared: Pick<PreparedOrder, 'input' | 'quote'> & { storeName: string | null }): OrderFacts {
    const destination = rates.directory.lookup(prepared.input.shipping.pincode)!;
    return {
      zone: prepared.quote.zone,
      paymentMethod: prepared.input.paymentMethod,
      weightGrams: prepared.quote.applicableWeight,
      orderValuePaise: prepared.input.subTotalPaise,
      pincode: destination.pincode,
      state: destination.state,
      storeName: prepared.storeName,
    };
  }

  function requireServiceable(quote: RateQuote): void {
    if (quote.couriers.length === 0) {
      throw unprocessable('No courier service can carry this shipment: check the pincodes, weight and payment method');
    }
  }

  /**
   * The named service (allocation null), or, without one, the account's allocation rules' choice
   * among the serviceable services. `explain` (the preview): also what each rule made of the order,
   * which asks the rules even when a service is named; a booking that names one asks nothing.
   */
  async function allocateCourier(
    ex: Executor,
    accountId: string,
    prepared: Pick<PreparedOrder, 'input' | 'warehouse' | 'quote'> & { storeName: string | null },
    carrierId: string | undefined,
    explain = false,
  ): Promise<{ courier: CourierQuote; allocation: Allocation | null; outcomes: RuleOutcome<CourierQuote>[] }> {
    if (carrierId !== undefined) {
      const courier = namedCourier(prepared, carrierId);
      const outcomes = explain ? (await allocator.choose(ex, accountId, factsOf(prepared), prepared.quote.couriers)).outcomes : [];
      return { courier, allocation: null, outcomes };
    }
    requireServiceable(prepared.quote);
    const choice = await allocator.choose(ex, accountId, factsOf(prepared), prepared.quote.couriers);
    return { ...choice.chosen!, outcomes: choice.outcomes };
  }

  /** The named service when it can carry the shipment; else a 422 saying why not. */
  function namedCourier(prepared: Pick<PreparedOrder, 'input' | 'warehouse' | 'quote'>, carrierId: string) {
    const { quote } = prepared;
    const service = rates.catalogue.byId.get(carrierId);
    if (!service) throw unprocessable(`carrier_id '${carrierId}' is not a known courier service`, 'carrier_id');
    const offered = quote.couriers.find((c) => c.service.id === carrierId);
    if (offered) return offered;
    const reason = unserviceableReason(
      service,
      {
        origin: rates.directory.lookup(prepared.warehouse.pincode)!,
        destination: rates.directory.lookup(prepared.input.shipping.pincode)!,
        applicableWeightGrams: quote.applicableWeight,
        cod: prepared.input.paymentMethod === 'cod',
      },
      rates.catalogue,
    );
    throw unprocessable(`${service.name} cannot carry this shipment: ${reason ?? 'not offered for this lane'}`, 'carrier_id');
  }

  /** The courier's waybill for the shipment, booked with the shipment's id as the courier's reference. */
  async function book(ex: Executor, accountId: string, chosen: { courier: CourierQuote; allocation: Allocation | null }, shipmentId: string, input: OrderInput, warehouse: WarehouseRow): Promise<Booking> {
    const parcel = await couriers.book(ex, accountId, chosen.courier.service, bookingRequest(shipmentId, input, warehouse));
    return { courier: chosen.courier, allocation: chosen.allocation, ...parcel };
  }

  /**
   * Writes what the courier booked (`write`, which also queues the shipment for the tracking poller
   * where its courier is asked for scans); if it fails, the parcel is called off (unless another
   * request stored that very parcel: BookedMeanwhile), so nothing is left half-done on either side.
   * `outer`: an idempotent request's transaction, which the failure rolls back. Then the pickup.
   */
  async function keepBooking<T>(accountId: string, booking: Booking, warehouse: WarehouseRow, write: () => Promise<T>, outer?: Tx) {
    const { service } = booking.courier;
    let result: T;
    try {
      result = await write();
    } catch (error) {
      if (!(error instanceof BookedMeanwhile && error.sameParcel)) await couriers.undoBooking(accountId, service, booking.awb, outer !== undefined);
      throw awbTaken(error, service, booking.awb);
    }
    await couriers.requestPickup(accountId, service, { locationName: warehouse.name, date: formatDay(booking.courier.pickupDay) });
    return result;
  }

  /**
   * The order, its shipment, their events (shipment.created, and shipment.booked with a booking)
   * and with a booking the shipment's place in the poller's queue: one statement (orders.repository).
   */
  async function insertOrder(ex: Executor, accountId: string, prepared: AssessedOrder, booking: Booking | null, shipmentId: string = crypto.randomUUID()) {
    const { input } = prepared;
    const assessment = await prepared.assessment;
    const now = clock.now();
    const orderId = crypto.randomUUID();
    const shipment = {
      ...shipmentColumns(prepared),
      ...assessmentColumns(assessment),
      id: shipmentId,
      channel: ORDER_CHANNEL,
      status: 'pending',
      searchText: searchText(input, orderId, booking?.awb ?? null),
      trackToken: newTrackToken(),
      createdAt: now,
      updatedAt: now,
      ...(booking && bookedColumns(booking, now)),
    };
    const booked = booking ? [{ type: 'shipment.booked' as const, change: bookedChange(booking) }] : [];
    const recorded = events.newShipment(
      accountId,
      { id: shipmentId, carrierId: shipment.carrierId ?? null, awb: shipment.awb ?? null, status: shipment.status, trackToken: shipment.trackToken },
      [{ type: 'shipment.created' }, ...assessmentEvents(assessment), ...booked],
      now,
    );
    const enrolment = booking && couriers.enrolment(accountId, { shipmentId, service: booking.courier.service, awb: booking.awb, at: now });
    try {
      const created = await repo.insertOrder(
        ex,
        accountId,
        { id: orderId, ...orderColumns(prepared), channel: ORDER_CHANNEL, createdAt: now },
        input.items.map((item, position) => ({ position, ...item })),
        shipment,
        [{ milestone: 'order_created', at: now }, ...(booking ? bookingMilestones(booking, now) : [])],
        enrolment ? [recorded.statement, enrolment] : [recorded.statement],
      );
      recorded.written();
      return created;
    } catch (error) {
      if (isUniqueViolation(error, 'orders_account_merchant_order_key')) {
        throw unprocessable(`Order '${input.merchantOrderId}' already exists`, 'order_id');
      }
      throw error;
    }
  }

  function payload(
    order: repo.OrderRow,
    shipment: repo.ShipmentRow,
    storeName: string | null,
    warnings: FieldError[] = [],
  ): OrderPayloadView {
    const service = shipment.carrierId ? rates.catalogue.byId.get(shipment.carrierId) : undefined;
    const booked = shipment.awb !== null;
    return {
      order_id: order.id,
      channel_order_id: order.merchantOrderId,
      shipment_id: shipment.id,
      status: shipment.status,
      store_name: storeName,
      zone: zoneLabel(shipment.zone as Parameters<typeof zoneLabel>[0]),
      applied_weight: Math.round(shipment.appliedWeightGrams) / 1000,
      cod: shipment.isCod ? 1 : 0,
      awb_code: shipment.awb,
      courier_company_id: shipment.carrierId,
      courier_name: service?.name ?? null,
      label_url: booked ? labelLinks.urlFor(shipment.id) : null,
      track_url: bookedTrackUrl(trackUrl, shipment),
      test_mode: shipment.testMode,
      charges: booked
        ? {
            forward_freight_charges: paiseToRupees(shipment.freightPaise!),
            cod_charges: paiseToRupees(shipment.codChargesPaise!),
            rto_freight_charges: paiseToRupees(shipment.rtoChargesPaise!),
            total_forward_charges: paiseToRupees(shipment.freightPaise! + shipment.codChargesPaise!),
            frwd_charges: {
              shipping_charges: twoDecimals(shipment.freightPaise!),
              cod_charges: twoDecimals(shipment.codChargesPaise!),
              dead_weight_billing: deadWeightBilled(order),
            },
            rto_charges: { rto_charges: twoDecimals(shipment.rtoChargesPaise!) },
          }
        : null,
      pickup_location_added: 1,
      order_created: 1,
      awb_generated: booked ? 1 : 0,
      label_generated: booked ? 1 : 0,
      pickup_generated: booked ? 1 : 0,
      manifest_generated: 0,
      pickup_scheduled_date: shipment.expectedPickupDate,
      pickup_booked_date: shipment.assignedAt ? velocityDateTime(shipment.assignedAt) : null,
      expected_delivery_date: shipment.expectedDeliveryDate,
      assigned_date_time: velocityDateObject(shipment.assignedAt ?? shipment.createdAt),
      manifest_url: null,
      allocation: allocationView(shipment.allocation),
      routing_code: shipment.routingCode,
      rto_routing_code: null,
      pickup_token_number: null,
      address_validity: shipment.addressValidity as OrderPayloadView['address_validity'],
      address_reasons: shipment.addressReasons as OrderPayloadView['address_reasons'],
      rto_risk: shipment.rtoRisk as OrderPayloadView['rto_risk'],
      rto_risk_score: shipment.rtoRiskScore,
      rto_risk_reasons: shipment.rtoRiskReasons as OrderPayloadView['rto_risk_reasons'],
      ...(warnings.length > 0 && { warnings }),
    };
  }

  // Each write below takes `outer`, the transaction of an idempotent request: its effects then
  // commit together with the stored answer. Without one, the writes commit on their own.
  return {
    /** `forward-order`: the order and its pending shipment, no courier yet. */
    async createOrder(accountId: string, body: CreateOrderInput, outer?: Tx): Promise<OrderPayloadView> {
      const ex = outer ?? db;
      const prepared = await prepareAssessed(ex, accountId, body, false);
      // Refuse an order no courier can carry now, rather than leave a shipment that can never ship.
      requireServiceable(prepared.quote);
      const created = await insertOrder(ex, accountId, prepared, null);
      return payload(created.order, created.shipment, prepared.store?.storeName ?? null, prepared.warnings);
    },

    /** `forward-order-orchestration`: order, shipment, courier, AWB and label, written by one atomic statement. */
    async orchestrate(accountId: string, body: CreateOrderInput, outer?: Tx): Promise<OrderPayloadView> {
      const ex = outer ?? db;
      const prepared = await prepareAssessed(ex, accountId, body, true);
      // In an outer transaction the AWB counter row stays locked until it commits: taken last.
      const shipmentId = crypto.randomUUID();
      const chosen = await allocateCourier(ex, accountId, withStore(prepared), prepared.input.carrierId);
      const booking = await book(ex, accountId, chosen, shipmentId, prepared.input, prepared.warehouse);
      const created = await keepBooking(accountId, booking, prepared.warehouse, () => insertOrder(ex, accountId, prepared, booking, shipmentId), outer);
      return payload(created.order, created.shipment, prepared.store?.storeName ?? null, prepared.warnings);
    },

    /** What orchestrate would refuse, refused the same way, and the courier it would book; nothing is written. */
    async check(accountId: string, body: CreateOrderInput) {
      const prepared = await prepare(db, accountId, body, true);
      const { courier } = await allocateCourier(db, accountId, withStore(prepared), prepared.input.carrierId);
      if (await repo.orderIdTaken(db, accountId, prepared.input.merchantOrderId)) {
        throw unprocessable(`Order '${prepared.input.merchantOrderId}' already exists`, 'order_id');
      }
      return { carrier_id: courier.service.id, courier_name: courier.service.name, ...(prepared.warnings.length > 0 && { warnings: prepared.warnings }) };
    },

    /** `forward-order-shipment`: books a courier onto a pending shipment that has none. */
    async assignCourier(accountId: string, shipmentId: string, carrierId: string | undefined, outer?: Tx): Promise<OrderPayloadView> {
      const ex = outer ?? db;
      const found = await repo.findShipmentWithOrder(ex, accountId, shipmentId);
      if (!found) throw unprocessable(`Shipment '${shipmentId}' not found`, 'shipment_id');
      const { order } = found;
      if (found.shipment.awb !== null) throw unprocessable('A courier is already assigned to this shipment', 'shipment_id');
      if (found.shipment.status !== 'pending') {
        throw unprocessable(`The shipment is ${found.shipment.status}; only a pending shipment can be booked`, 'shipment_id');
      }
      const warehouse = await warehouses.requireForOrder(accountId, order.warehouseId, ex);
      const items = await repo.findItems(ex, accountId, order.id);
      const input = orderInputOf(order, items);
      const store = await repo.findStoreName(ex, accountId, order.storeId);
      const storeName = store?.storeName ?? null;
      // Velocity: a blank carrier_id means "assign automatically".
      const chosen = await allocateCourier(ex, accountId, { input, warehouse, quote: priceShipment(input, warehouse), storeName }, carrierId || undefined);
      const booking = await book(ex, accountId, chosen, shipmentId, input, warehouse);
      const now = clock.now();
      const shipment = await keepBooking(accountId, booking, warehouse, () => inTransaction(db, outer, async (tx) => {
        const updated = await repo.assignCourier(tx, accountId, shipmentId, {
          ...bookedColumns(booking, now),
          updatedAt: now,
          searchText: searchText(input, order.id, booking.awb),
        });
        // Another request booked it since our read: one booking wins; its parcel may be this one.
        if (!updated) throw new BookedMeanwhile((await repo.findShipmentById(tx, accountId, shipmentId))?.awb === booking.awb);
        await repo.addMilestones(tx, accountId, shipmentId, bookingMilestones(booking, now));
        await events.shipment(tx, accountId, shipmentId, [{ type: 'shipment.booked', change: bookedChange(booking) }], now);
        await couriers.enrol(tx, accountId, { shipmentId, service: booking.courier.service, awb: booking.awb, at: now });
        return updated;
      }), outer);
      return payload(order, shipment, storeName);
    },

    // cancel-order: both of its forms (cancel-order.ts).
    cancel: cancellations.cancel,
    cancelShipment: cancellations.cancelShipment,

    // For order updates (order-update.service.ts): the same checks, pricing and answer as a new order.
    prepare,
    requireCourier: (prepared: PreparedOrder) => requireServiceable(prepared.quote),

    /**
     * POST /allocation/preview: the courier a booking of this order would get now, and what each rule
     * made of it, through the same choice as forward-order-orchestration; nothing is written.
     */
    async previewAllocation(accountId: string, body: CreateOrderInput) {
      const prepared = await prepare(db, accountId, body, true);
      const chosen = await allocateCourier(db, accountId, withStore(prepared), prepared.input.carrierId, true);
      return previewView(prepared.quote, chosen, prepared.warnings);
    },
    view: payload,

    async get(accountId: string, shipmentId: string) {
      const found = await repo.findShipmentWithOrder(db, accountId, shipmentId);
      if (!found) throw notFound('Shipment not found');
      return found;
    },
  };
}
