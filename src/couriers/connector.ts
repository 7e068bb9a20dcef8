import type { Executor } from '../base/db/client.js';
import { DomainError } from '../domain/errors.js';
import { COURIER_ERRORS } from './couriers.errors.js';
import type { ConnectorName, CourierService } from '../domain/rates/catalogue.js';
import type { Journey, ParcelScans } from './carrier-event.js';

export interface ParcelAddress {
  name: string;
  address: string;
  city: string;
  state: string;
  pincode: string;
  phone: string;
  /** Another phone the courier may call (the buyer's own, from the address form); only some couriers take one. */
  alternatePhone?: string | null;
}

/** What a courier needs to carry one parcel: money in paise, weight in grams, sizes in centimetres. */
export interface BookingRequest {
  /** Our shipment (or return) id. The courier keeps it as its order reference, so a repeated booking finds the first. */
  reference: string;
  journey: 'forward' | 'return';
  merchantOrderId: string;
  tags: readonly string[];
  paymentMethod: 'cod' | 'prepaid';
  codPaise: number;
  totalPaise: number;
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  productsDescription: string;
  quantity: number;
  /**
   * Two or more: a multi-piece shipment (MPS), each box with its own weight and size, box 1 first;
   * the weight and sizes above are then the whole consignment's. Absent for a parcel in one box.
   */
  boxes?: readonly ParcelBox[];
  /** The consignment's e-way bill number (rule 138; 12 digits), for the couriers whose create call takes one. */
  ewayBillNumber?: string | null;
  /** Where the parcel goes. */
  consignee: ParcelAddress;
  /** Where it is collected: for a forward parcel the warehouse, whose name is the courier's pickup location. */
  pickup: ParcelAddress & { locationName: string };
  orderDate: Date;
  /**
   * A return's items. `qc` holds what the courier checks at pickup (Velocity's qc_* fields), set
   * only on a return booked with QC; a courier that checks nothing ignores it.
   */
  items?: readonly ParcelItem[];
}

/** One box of a multi-piece shipment: grams and centimetres. */
export interface ParcelBox {
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
}

export interface ParcelItem {
  name: string;
  sku: string;
  units: number;
  pricePaise: number;
  qc: { productName?: string; imageUrl: string; brand?: string; size?: string; color?: string } | null;
}

export interface BookedParcel {
  awb: string;
  /** The courier's sort code for the destination, when it gives one. */
  routingCode: string | null;
  /**
   * Barcodes the courier's own label carries besides the AWB, which its hubs may scan instead (Ekart's
   * vendor waybill): Dakiya's label prints each under its caption. Left out by a courier with none.
   */
  barcodes?: CourierBarcode[];
  /**
   * A multi-piece booking's boxes in the request's order, each with its AWB and the reference it was
   * booked under; the first is `awb` (the master AWB). Absent for a parcel in one box.
   */
  boxes?: BookedBox[];
}

export interface BookedBox {
  awb: string;
  reference: string;
}

/** One extra barcode: its caption on the label ("Vendor waybill") and the text it encodes. */
export interface CourierBarcode {
  label: string;
  value: string;
}

export interface PickupRequest {
  locationName: string;
  date: string;
  parcels: number;
  awbs?: readonly string[];
}

export interface Instruction {
  action: 'reattempt' | 'rto';
  /** When the merchant asked. */
  at: Date;
  payload: Record<string, unknown>;
  /** The failed attempt it answers (the shipment's attempt count when asked), for couriers that limit re-attempts by it. */
  attempt?: number;
  /** The courier's own id (event_id) of the parcel's latest failed-attempt scan, whose code some couriers' rules read. */
  ndrScanId?: string | null;
  /** The buyer's name as the order has it, for couriers whose address change names the consignee. */
  consigneeName?: string;
}

/**
 * One courier integration. `push` couriers post scans to /carrier/v1; the others are asked: the
 * poller calls `pull` with up to `batchSize` waybills and feeds the answer to the tracking intake.
 */
export interface Connector {
  readonly name: ConnectorName;
  readonly pulls: boolean;
  readonly batchSize: number;
  /**
   * A courier whose scans come on a known beat (the sandbox's SANDBOX_STEP_SECONDS) is asked at
   * that beat, whatever the stage; the others on the poll schedule (poll-schedule.ts).
   */
  readonly pollEverySeconds?: number;
  /**
   * True where the courier books a multi-piece shipment natively, all boxes in one consignment
   * (Delhivery's MPS: a waybill per box under a master); the others are booked one linked parcel
   * per box (couriers.service.ts).
   */
  readonly multiPiece?: boolean;
  /**
   * `draw` hands out the next number of the service's own AWB series, for couriers that take ours.
   * `ex` is the booking's executor (its transaction in an idempotent request), for a connector that
   * keeps its parcels in our database: a second connection while that transaction holds one would
   * wait on it for ever on PGlite, which has only one.
   */
  book(
    service: CourierService,
    request: BookingRequest,
    draw: () => Promise<string>,
    ex: Executor,
  ): Promise<BookedParcel>;
  /**
   * Asks the courier to collect parcels at a pickup location; answers its pickup (or manifest) id,
   * if any. `awbs` are the parcels of a pickup the merchant made, for a courier that manifests them
   * by waybill; absent on the request made with each booking.
   */
  requestPickup(service: CourierService, pickup: PickupRequest): Promise<string | null>;
  /**
   * Calls the parcel off: a forward parcel's booking, or a return's pickup at the buyer's door
   * (`journey`). Resolves when the courier cancelled it, or with `{ queued }` (its words) when it
   * took the cancellation for later because the parcel is moving (Shadowfax's 304): its tracking
   * confirms it. Throws courier_refused (a 422) with the courier's words when it refuses (already picked
   * up). `ex` is the caller's executor (its transaction in an idempotent request), for a connector
   * whose parcels are rows of ours, as in `book`.
   */
  cancel(service: CourierService, awb: string, ex?: Executor, journey?: Journey): Promise<void | CancelQueued>;
  /**
   * Its parcels are rows of our database, written through the booking's executor: a booking rolled
   * back takes its parcel with it, and has nothing to call off.
   */
  readonly parcelsInDatabase?: boolean;
  /**
   * Hands the courier a merchant's NDR instruction. Resolves when the courier took it, with
   * `{ pending }` (its reference, Delhivery's UPL id) when it only queued it and says later whether
   * it was carried out (`confirmInstruction`); throws courier_refused (a 422) with the courier's words when it
   * refuses it, a 502/503 when it cannot be reached (sent again later).
   */
  instruct(service: CourierService, awb: string, instruction: Instruction): Promise<void | InstructionPending>;
  /**
   * What became of an instruction `instruct` left pending: done, still pending, or refused in the
   * courier's words. Absent for a courier whose instructions are done when taken.
   */
  confirmInstruction?(service: CourierService, reference: string): Promise<'done' | 'pending' | { refused: string }>;
  /**
   * Tells the courier the parcel's new delivery address lines before pickup; absent for a courier
   * whose API has no such call. Throws courier_refused (a 422) with the courier's words when it refuses, a
   * 502/503 when it cannot be reached.
   */
  changeAddress?(service: CourierService, awb: string, lines: string): Promise<void>;
  /**
   * Scans per waybill, read into the intake's shape or kept unread with why; a waybill the courier
   * does not know is left out. A return's scans are read as return statuses.
   */
  pull(service: CourierService, parcels: readonly PolledParcel[]): Promise<Map<string, ParcelScans>>;
  /**
   * Reads again scans this connector kept unread or the intake could not apply (`raw`, as the
   * courier answered them), through the tables as they are now: the replay after a table is fixed.
   * Absent for a connector whose scans are Dakiya's own (push, sandbox).
   */
  readScans?(parcel: PolledParcel, raw: readonly unknown[]): ParcelScans;
}

/** A cancellation the courier took for later: the parcel is moving, and its tracking will confirm it. */
export interface CancelQueued {
  queued: string;
}

/** An instruction the courier queued, to be confirmed later by its reference. */
export interface InstructionPending {
  pending: string;
}

/** A parcel whose scans are asked for, and which way it travels. */
export interface PolledParcel {
  awb: string;
  journey: Journey;
}

/** The courier could not be reached or answered nonsense: a 502 naming it (503 while it is known to be down or limiting us). */
export function courierUnavailable(
  courier: string,
  why: string,
  status: 502 | 503 = 502,
  retryAfterSeconds?: number,
): DomainError {
  const message = `${courier} could not be reached (${why}); nothing was changed, try again`;
  const { kind, code } = status === 503 ? COURIER_ERRORS.courier_unavailable : COURIER_ERRORS.courier_unreachable;
  return new DomainError(kind, [message], undefined, code, retryAfterSeconds);
}

/** The courier refused our credentials for its API (a 502: the operator, or the account, must set them again). */
export function courierCredentialsRejected(courier: string, why: string): DomainError {
  return COURIER_ERRORS.courier_credentials_rejected.error(
    `${courier} could not be reached (${why}); nothing was changed, try again`,
  );
}

/** The courier answered and said no (an unserviceable pincode, a parcel already picked up). */
export function courierRefused(courier: string, why: string, field?: string): DomainError {
  return COURIER_ERRORS.courier_refused.error(`${courier} refused: ${why}`, field);
}

const COURIER_ANSWERS = new Set<string>(
  [
    COURIER_ERRORS.courier_refused,
    COURIER_ERRORS.courier_unreachable,
    COURIER_ERRORS.courier_unavailable,
    COURIER_ERRORS.courier_credentials_rejected,
    COURIER_ERRORS.courier_credentials_unreadable,
  ].map((entry) => entry.code),
);
/** Whether an error is a courier's answer (its refusal, or a failure to reach it), rather than a fault of ours. */
export const isCourierAnswer = (error: unknown): error is DomainError =>
  error instanceof DomainError && COURIER_ANSWERS.has(error.code);

/** Whether an error is the courier's own "no" (courier_refused), not a failure to reach it. */
export const isCourierRefusal = (error: unknown): error is DomainError =>
  error instanceof DomainError && error.code === COURIER_ERRORS.courier_refused.code;

/** `push`: today's behaviour. The AWB comes from our own series and the courier reports scans itself. */
export const pushConnector: Connector = {
  name: 'push',
  pulls: false,
  batchSize: 0,
  book: async (_service, _request, draw) => ({ awb: await draw(), routingCode: null }),
  requestPickup: async () => null,
  cancel: async () => {},
  // A push courier reads its instructions at GET /carrier/v1/actions.
  instruct: async () => {},
  pull: async () => new Map(),
};
