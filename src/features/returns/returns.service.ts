import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import type { ApplyReturnEvents } from '../contracts.js';
import { createNewReturn } from './new-return.js';
import { createReturnCancellation } from './return-cancellation.js';
import { createReturnCourierAssignment } from './return-courier-assignment.js';
import { createReturnCourierBooking } from './return-courier-booking.js';
import { createReturnCourierChoice } from './return-courier-choice.js';
import { createReturnPayload, type ReturnLinks } from './return-payload.js';
import type { CreateReturnInput, ReturnPayloadView } from './returns.schemas.js';

// The returns module's use cases, each built from its own parts: a new return, booked at once or
// not (new-return.ts), a courier assigned to one (return-courier-assignment.ts), and cancel-order's
// part in returns (return-cancellation.ts).

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
  links: ReturnLinks;
}

export function createReturnsService(deps: Deps) {
  const parts = {
    ...deps,
    choice: createReturnCourierChoice(deps),
    booking: createReturnCourierBooking(deps),
    payload: createReturnPayload(deps),
  };
  const create = createNewReturn(parts);
  const { cancel, cancelShipment } = createReturnCancellation(deps);
  // Each write takes `outer`, the transaction of an idempotent request: its effects then commit
  // together with the stored answer. Without one, the writes commit on their own.
  return {
    cancel,
    cancelShipment,

    /** `reverse-order`: the return, no courier yet. */
    async createReturn(actor: Actor, body: CreateReturnInput, outer?: Tx): Promise<ReturnPayloadView> {
      return create(actor, body, outer, false);
    },

    /** `reverse-order-orchestration`: the return and its courier booking, all or nothing. */
    async orchestrate(actor: Actor, body: CreateReturnInput, outer?: Tx): Promise<ReturnPayloadView> {
      return create(actor, body, outer, true);
    },

    /** `reverse-order-shipment`: books a courier onto a return that has none. */
    assignCourier: createReturnCourierAssignment(parts),

    /** A return's answer, as its writes answer it. */
    view: parts.payload,
  };
}
