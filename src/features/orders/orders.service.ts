import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { TrackUrl } from '../../domain/shipment/track-links.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { EventLog } from '../../events/event-log.js';
import type { StoresService } from '../../tenancy/stores/stores.service.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { ApplyShipmentEvents, CourierAllocator } from '../contracts.js';
import { createCancellations, type ReturnCancellations } from './cancel-order.js';
import { createCourierAssignment } from './courier-assignment.js';
import { createCourierBooking } from './courier-booking.js';
import { createCourierChoice, requireServiceable } from './courier-choice.js';
import { createNewOrderRecord } from './new-order-record.js';
import { createOrderBooking } from './order-booking.js';
import { createOrderPayload } from './order-payload.js';
import { createOrderPreparation } from './order-preparation.js';
import type { PreparedOrder } from './order-rows.js';
import { createEwayBillCheck, type EwayBillCheckOf } from './eway-bill-check.js';
import type { EwayBillRules } from '../../domain/paperwork/eway-bill-data.js';

// The orders module's use cases, each built from its own parts: booking a new order
// (order-booking.ts), assigning a courier to one (courier-assignment.ts), cancelling
// (cancel-order.ts); order updates (order-update.service.ts) reuse the preparation and the answer.

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
  /** Rule 138's data, and what the account's paperwork settings say of an order without its e-way bill. */
  ewayBill: { rules: EwayBillRules; checkOf: EwayBillCheckOf };
}

export function createOrdersService(deps: Deps) {
  const { db, clock, warehouses, events, couriers } = deps;
  const preparation = createOrderPreparation({ ...deps, rtoChecks: deps.rtoChecks ?? true });
  const allocateCourier = createCourierChoice(deps);
  const booking = createCourierBooking(deps);
  const payload = createOrderPayload(deps);
  const insertOrder = createNewOrderRecord(deps);
  const cancellations = createCancellations(deps);
  const ewayBill = createEwayBillCheck({ ...deps.ewayBill, directory: deps.rates.directory });
  return {
    ...createOrderBooking({ db, preparation, allocateCourier, booking, insertOrder, payload, ewayBill }),
    assignCourier: createCourierAssignment({
      db,
      clock,
      warehouses,
      events,
      couriers,
      preparation,
      allocateCourier,
      booking,
      payload,
      ewayBill,
    }),

    // cancel-order: both of its forms (cancel-order.ts).
    cancel: cancellations.cancel,
    cancelShipment: cancellations.cancelShipment,

    // For order updates (order-update.service.ts): the same checks, pricing and answer as a new order.
    prepare: preparation.prepare,
    requireCourier: (prepared: PreparedOrder) => requireServiceable(prepared.quote),
    view: payload,
  };
}
