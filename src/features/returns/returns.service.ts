import { type Clock, velocityDateObject } from '../../base/clock.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import type { ReturnAddress } from '../../base/db/schema.js';
import { unprocessable } from '../../http/errors.js';
import { type Zone, zoneLabel } from '../../domain/geo/zones.js';
import { awbTaken, type Couriers } from '../../couriers/couriers.service.js';
import { returnBookingRequest, type ReturnItem, warehouseAddress } from './return-booking-request.js';
import { formatDay } from '../../domain/calendar.js';
import { isTestService } from '../../domain/rates/catalogue.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { type CourierQuote, quoteRates, type RateQuote, unserviceableReason } from '../../domain/rates/engine.js';
import { paiseToRupees } from '../../domain/money.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { ApplyReturnEvents, NewReturnEvent } from '../contracts.js';
import { type ReturnInput, readReturnInput } from './return-input.js';

type CancelOutcome = { cancelled: boolean; message: string };
import type { EventLog } from '../../events/event-log.js';
import * as repo from './returns.repository.js';
import type { CreateReturnInput, ReturnPayloadView } from './returns.schemas.js';

export type ReturnsService = ReturnType<typeof createReturnsService>;

interface Deps {
  db: Db;
  clock: Clock;
  rates: RatesContext;
  warehouses: WarehousesService;
  events: EventLog;
  /** The tracking intake's: a merchant's cancellation goes through the return's status machine. */
  applyReturnEvents: ApplyReturnEvents;
  /** Books through each service's connector. */
  couriers: Couriers;
  /** The customer's tracking page of a return, and a signed label link for its shipment id (app.ts hands both in). */
  links: { track: (returnId: string) => string; label: (shipmentId: string) => string };
}

/** What a return is priced on: the same inputs /rates takes for `journey_type: "return"`. */
interface Parcel {
  pickupPincode: string;
  destinationPincode: string;
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
}

interface Choice {
  courier: CourierQuote;
  qcApplied: boolean;
  qcNote: string | null;
}

export const NO_QC_COURIER = 'No QC-capable courier serves this lane: booked as a non-QC return';

const twoDecimals = (paise: number) => (paise / 100).toFixed(2);

/** What a return.booked event adds to the return: the courier and AWB just assigned. */
const bookedChange = (choice: Choice, awb: string) => ({
  awb,
  carrier_id: choice.courier.service.id,
  courier_name: choice.courier.service.name,
  qc_enabled: choice.qcApplied,
});

export function createReturnsService({ db, clock, rates, warehouses, events, couriers, applyReturnEvents, links }: Deps) {
  /** The courier's waybill for a return, booked with the return's shipment id as the courier's reference. */
  async function bookReturn(ex: Executor, accountId: string, choice: Choice, shipmentId: string, parcel: Parameters<typeof returnBookingRequest>[1], items: ReturnItem[], pickup: ReturnAddress, shipping: ReturnAddress, warehouseId: string | null) {
    const locationName = warehouseId ? (await warehouses.requireForOrder(accountId, warehouseId, ex)).name : shipping.name;
    const request = returnBookingRequest(shipmentId, parcel, items, pickup, { ...shipping, locationName }, choice.qcApplied);
    const { awb } = await couriers.book(ex, accountId, choice.courier.service, request);
    return awb;
  }

  function quote(parcel: Parcel, qcApplicable: boolean): RateQuote {
    return quoteRates(
      {
        journeyType: 'return',
        origin: rates.directory.lookup(parcel.pickupPincode)!,
        destination: rates.directory.lookup(parcel.destinationPincode)!,
        deadWeightGrams: parcel.weightGrams,
        lengthCm: parcel.lengthCm,
        widthCm: parcel.breadthCm,
        heightCm: parcel.heightCm,
        qcApplicable,
      },
      clock.now(),
      rates,
    );
  }

  function refuseNamed(carrierId: string, parcel: Parcel, applicableWeightGrams: number): never {
    const service = rates.catalogue.byId.get(carrierId)!;
    const reason = unserviceableReason(
      service,
      {
        origin: rates.directory.lookup(parcel.pickupPincode)!,
        destination: rates.directory.lookup(parcel.destinationPincode)!,
        applicableWeightGrams,
        cod: false,
      },
      rates.catalogue,
    );
    throw unprocessable(`${service.name} cannot carry this return: ${reason ?? 'not offered for this lane'}`, 'carrier_id');
  }

  /**
   * The named service, else the cheapest. A QC return goes only with a QC-capable service; when
   * none serves the lane it falls back to the cheapest non-QC one (as Velocity does) and says so.
   */
  function chooseCourier(parcel: Parcel, qcRequested: boolean, carrierId: string | undefined): Choice {
    if (carrierId !== undefined && !rates.catalogue.byId.has(carrierId)) {
      throw unprocessable(`carrier_id '${carrierId}' is not a known courier service`, 'carrier_id');
    }
    if (qcRequested) {
      const qc = quote(parcel, true);
      if (carrierId === undefined && qc.couriers[0]) return { courier: qc.couriers[0], qcApplied: true, qcNote: null };
      if (carrierId !== undefined) {
        const offered = qc.couriers.find((c) => c.service.id === carrierId);
        if (offered) return { courier: offered, qcApplied: true, qcNote: null };
        if (!rates.catalogue.byId.get(carrierId)!.qcCapable) {
          throw unprocessable(
            `${rates.catalogue.byId.get(carrierId)!.name} does not carry QC returns: omit carrier_id, or name a QC-capable courier`,
            'carrier_id',
          );
        }
        refuseNamed(carrierId, parcel, qc.applicableWeight);
      }
    }
    const plain = quote(parcel, false);
    const courier = carrierId === undefined ? plain.couriers[0] : plain.couriers.find((c) => c.service.id === carrierId);
    if (courier) return { courier, qcApplied: false, qcNote: qcRequested ? NO_QC_COURIER : null };
    if (carrierId !== undefined) refuseNamed(carrierId, parcel, plain.applicableWeight);
    throw unprocessable('No courier service can carry this return: check the pincodes and weight');
  }

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
    if (!found) throw unprocessable(`${field} '${named}' names no forward shipment of this account`, field);
    if (found.status !== 'delivered') {
      throw unprocessable(`The forward shipment ${named} is ${found.status}; only a delivered shipment can be returned`, field);
    }
    // Checked before an AWB is drawn; the unique key still settles two requests racing for it.
    if (await repo.findReturnOfForward(ex, accountId, found.shipmentId)) throw unprocessable('The forward shipment already has a return', field);
    return found;
  }

  function bookedColumns(choice: Choice, awb: string, at: Date) {
    return {
      carrierId: choice.courier.service.id,
      awb,
      freightPaise: choice.courier.freightPaise,
      qcPaise: choice.courier.qcPaise,
      platformFeePaise: choice.courier.service.platformFeePaise,
      qcApplied: choice.qcApplied,
      assignedAt: at,
      expectedPickupDate: formatDay(choice.courier.pickupDay),
      expectedDeliveryDate: formatDay(choice.courier.deliveryDay),
      status: 'return_pickup_scheduled',
      updatedAt: at,
    };
  }

  async function payload(ex: Executor, accountId: string, row: repo.ReturnRow): Promise<ReturnPayloadView> {
    const service = row.carrierId ? rates.catalogue.byId.get(row.carrierId) : undefined;
    const booked = row.awb !== null;
    const forward = row.forwardShipmentId ? await repo.findForwardById(ex, accountId, row.forwardShipmentId) : undefined;
    return {
      order_created: 1,
      awb_generated: booked ? 1 : 0,
      pickup_generated: booked ? 1 : 0,
      pickup_scheduled_date: row.expectedPickupDate,
      order_id: row.merchantOrderId,
      return_id: row.id,
      shipment_id: row.shipmentId,
      status: row.status,
      zone: zoneLabel(row.zone as Zone),
      awb_code: row.awb,
      courier_company_id: row.carrierId,
      courier_name: service?.name ?? null,
      assigned_date_time: velocityDateObject(row.assignedAt ?? row.createdAt),
      applied_weight: Math.round(row.appliedWeightGrams) / 1000,
      cod: 0,
      is_return: 1,
      routing_code: null,
      rto_routing_code: null,
      pickup_token_number: null,
      expected_delivery_date: row.expectedDeliveryDate,
      charges: booked
        ? {
            reverse_charges: twoDecimals(row.freightPaise!),
            qc: twoDecimals(row.qcPaise!),
            qc_leeway: '0.00',
            dead_weight_billing: row.weightGrams >= (row.lengthCm * row.breadthCm * row.heightCm) / 5,
            platform_fee: paiseToRupees(row.platformFeePaise!),
            total_return_charges: paiseToRupees(row.freightPaise! + row.qcPaise!),
          }
        : null,
      qc_enabled: row.qcApplied ? 1 : 0,
      qc_message: row.qcNote,
      forward_shipment: forward ? { shipment_id: forward.shipmentId, order_id: forward.merchantOrderId, awb_code: forward.awb } : null,
      // As for a forward shipment: a label once a courier gave an AWB, void once cancelled.
      label_url: booked && row.status !== 'return_cancelled' ? links.label(row.shipmentId) : null,
      track_url: booked ? links.track(row.id) : null,
      test_mode: booked && isTestService(rates.catalogue, row.carrierId!),
    };
  }

  /** Reads, checks and prices a new return; with `book`, also picks its courier and draws its AWB. */
  async function create(accountId: string, body: CreateReturnInput, outer: Tx | undefined, book: boolean) {
    const ex = outer ?? db;
    const input = readReturnInput(body, rates.directory, book);
    const { warehouseId, shipping } = await destination(ex, accountId, input);
    const forward = await forwardLink(ex, accountId, input);
    const parcel: Parcel = { ...input, pickupPincode: input.pickup.pincode, destinationPincode: shipping.pincode };
    // Refuse a return no courier can carry now, rather than keep one that can never be picked up.
    const choice = chooseCourier(parcel, input.qcRequested, book ? input.carrierId : undefined);
    const priced = quote(parcel, false);
    // In an outer transaction the AWB counter row stays locked until it commits: taken last.
    const now = clock.now();
    const id = crypto.randomUUID();
    const shipmentId = crypto.randomUUID();
    const awb = book ? await bookReturn(ex, accountId, choice, shipmentId, input, input.items, input.pickup, shipping, warehouseId ?? null) : null;
    try {
      return await inTransaction(db, outer, async (tx) => {
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
            qcNote: book ? (input.qcNote ?? choice.qcNote) : input.qcNote,
            status: 'return_requested',
            zone: priced.zone,
            appliedWeightGrams: priced.applicableWeight,
            createdAt: now,
            updatedAt: now,
            ...(awb !== null && bookedColumns(choice, awb, now)),
          },
          input.items.map((item, position) => ({ position, ...item })),
        );
        const booked = awb === null ? [] : [{ type: 'return.booked' as const, change: bookedChange(choice, awb) }];
        await events.return(tx, accountId, row.id, [{ type: 'return.created' }, ...booked], now);
        return payload(tx, accountId, row);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'returns_account_merchant_order_key')) {
        throw unprocessable(`Return '${input.merchantOrderId}' already exists`, 'order_id');
      }
      if (isUniqueViolation(error, 'returns_forward_shipment_key')) {
        throw unprocessable('The forward shipment already has a return', input.forward && 'awb' in input.forward ? 'forward_awb' : 'forward_order_id');
      }
      throw awb === null ? error : awbTaken(error, choice.courier.service, awb);
    }
  }

  /**
   * A merchant's cancellation is an event through the return machine: a pickup scan already
   * recorded, even one dated before now that arrived late, wins.
   */
  async function cancelRow(accountId: string, row: { id: string; status: string }, now: Date, outer?: Tx): Promise<CancelOutcome> {
    if (!repo.CANCELLABLE.includes(row.status)) {
      return { cancelled: false, message: row.status === repo.CANCELLED ? 'Return is already cancelled' : `Return is ${row.status} and can no longer be cancelled` };
    }
    const { status } = await inTransaction(db, outer, (tx) => applyReturnEvents(tx, accountId, row.id, [merchantReturnCancellation(now)], now));
    return status === repo.CANCELLED
      ? { cancelled: true, message: 'Return cancelled' }
      : { cancelled: false, message: `Return is ${status ?? row.status} and can no longer be cancelled` };
  }

  /** Cancels the account's returns among `awbs`, answering for those it found (the rest are not returns). */
  async function cancel(accountId: string, awbs: string[], outer?: Tx): Promise<Map<string, CancelOutcome>> {
    const found = await repo.findReturnsByAwb(outer ?? db, accountId, awbs);
    const outcome = new Map<string, CancelOutcome>();
    const now = clock.now();
    for (const row of found) outcome.set(row.awb!, await cancelRow(accountId, row, now, outer));
    return outcome;
  }

  /** cancel-order's shipment_id form: the return with this shipment id, booked or not; undefined when none. */
  async function cancelShipment(accountId: string, shipmentId: string, checkAwb: (awb: string | null) => void, outer?: Tx) {
    const row = await repo.findReturnByShipmentId(outer ?? db, accountId, shipmentId);
    if (!row) return undefined;
    checkAwb(row.awb);
    return { awb: row.awb, ...(await cancelRow(accountId, row, clock.now(), outer)) };
  }

  // Each write takes `outer`, the transaction of an idempotent request: its effects then commit
  // together with the stored answer. Without one, the writes commit on their own.
  return {
    cancel,
    cancelShipment,

    /** `reverse-order`: the return, no courier yet. */
    async createReturn(accountId: string, body: CreateReturnInput, outer?: Tx): Promise<ReturnPayloadView> {
      return create(accountId, body, outer, false);
    },

    /** `reverse-order-orchestration`: the return and its courier booking, all or nothing. */
    async orchestrate(accountId: string, body: CreateReturnInput, outer?: Tx): Promise<ReturnPayloadView> {
      return create(accountId, body, outer, true);
    },

    /** `reverse-order-shipment`: books a courier onto a return that has none. */
    async assignCourier(
      accountId: string,
      body: { return_id: string; warehouse_id?: string; carrier_id?: string },
      outer?: Tx,
    ): Promise<ReturnPayloadView> {
      const ex = outer ?? db;
      const found = await repo.findReturn(ex, accountId, body.return_id);
      if (!found) throw unprocessable(`Return '${body.return_id}' not found`, 'return_id');
      if (found.awb !== null) throw unprocessable('A courier is already assigned to this return', 'return_id');
      let { warehouseId, shipping } = found;
      const named = body.warehouse_id?.trim();
      if (named) {
        if (warehouseId !== null && named !== warehouseId) {
          throw unprocessable(`warehouse_id is not this return's destination warehouse (${warehouseId})`, 'warehouse_id');
        }
        const warehouse = await warehouses.requireForOrder(accountId, named, ex);
        if (warehouseId === null) shipping = warehouseAddress(warehouse);
        warehouseId = warehouse.id;
      }
      const parcel: Parcel = {
        pickupPincode: found.pickup.pincode,
        destinationPincode: shipping.pincode,
        weightGrams: found.weightGrams,
        lengthCm: found.lengthCm,
        breadthCm: found.breadthCm,
        heightCm: found.heightCm,
      };
      // Velocity: a blank carrier_id means "assign automatically".
      const choice = chooseCourier(parcel, found.qcRequested, body.carrier_id || undefined);
      const zone = quote(parcel, false).zone;
      const items = await repo.findItems(ex, accountId, found.id);
      const awb = await bookReturn(ex, accountId, choice, found.shipmentId, found, items, found.pickup, shipping, warehouseId);
      const now = clock.now();
      return inTransaction(db, outer, async (tx) => {
        const updated = await repo.assignCourier(tx, accountId, found.id, {
          ...bookedColumns(choice, awb, now),
          qcNote: found.qcNote ?? choice.qcNote,
          warehouseId,
          shipping,
          zone,
        });
        // Another request booked it between our read and this write: exactly one booking wins.
        if (!updated) throw unprocessable('A courier is already assigned to this return', 'return_id');
        await events.return(tx, accountId, found.id, [{ type: 'return.booked', change: bookedChange(choice, awb) }], now);
        return payload(tx, accountId, updated);
      });
    },
  };
}

/** A merchant's cancel-order on a booked return, at the server's time, through the same machine. */
export const merchantReturnCancellation = (now: Date): NewReturnEvent => ({
  status: 'return_cancelled',
  subStatus: 'return_cancelled_by_merchant',
  eventTime: now,
  location: null,
  description: 'Cancelled by the merchant',
  qcStatus: null,
  qcReason: null,
  eventId: null,
  receivedAt: now,
});
