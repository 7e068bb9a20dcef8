import type { Executor, Tx } from '../base/db/client.js';
import type { returnEvents, trackingEvents } from '../base/db/schema.js';
import type { Allocation, Candidate, OrderFacts, RuleOutcome } from '../domain/allocation/allocation.js';
import type { FieldError } from '../domain/errors.js';
import type { Actor } from '../domain/access/permissions.js';
import type { NdrActionView } from '../domain/shipment/ndr-actions.js';
import type { MaskedPayee, RefundMethod } from '../domain/return-requests/refund-payee.js';
import type { RefundRelease, RefundTerms } from '../domain/return-requests/refund-rules.js';
import type { ReturnStatus } from '../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../domain/shipment/status-machine.js';

/*
 * What one feature hands another through the composition root (app.ts), so that no feature imports
 * another. The tracking intake owns the status histories of shipments and returns: orders (cancel),
 * NDR (initiate-rto) and returns (cancel) record their merchant events through it, under the same
 * row lock and status machine as couriers' scans.
 */

/** A status event on a shipment, as the tracking history stores it. */
export type NewShipmentEvent = Omit<typeof trackingEvents.$inferInsert, 'accountId' | 'shipmentId'>;
/** A status event on a return, as the return's history stores it. */
export type NewReturnEvent = Omit<typeof returnEvents.$inferInsert, 'accountId' | 'returnId'>;

/**
 * Records events on one shipment in the caller's transaction and recomputes its state; per event,
 * whether it was new, and the resulting status when anything new was recorded.
 */
export type ApplyShipmentEvents = (
  tx: Executor,
  accountId: string,
  shipmentId: string,
  events: NewShipmentEvent[],
  now: Date,
) => Promise<{ fresh: boolean[]; status: ShipmentStatus | null }>;

/** The same for a booked return. */
export type ApplyReturnEvents = (
  tx: Executor,
  accountId: string,
  returnId: string,
  events: NewReturnEvent[],
  now: Date,
) => Promise<{ fresh: boolean[]; status: ReturnStatus | null }>;

/**
 * The allocation rules' choice of courier for an order sent without carrier_id (features/allocation),
 * handed to orders: the booking and the preview call the same function, so they choose alike.
 * `candidates`: the quote's serviceable services, cheapest first. Null when there are none.
 */
export interface CourierAllocator {
  choose<C extends Candidate>(
    ex: Executor,
    accountId: string,
    facts: OrderFacts,
    candidates: readonly C[],
  ): Promise<AllocationChoice<C>>;
}

export interface AllocationChoice<C extends Candidate> {
  chosen: { courier: C; allocation: Allocation } | null;
  /** What each active rule, in order, made of the order. */
  outcomes: RuleOutcome<C>[];
}

/**
 * Cancels one forward shipment through cancel-order's path (the courier first, then the status
 * machine), in the caller's transaction when given: handed to buyer messaging, whose buyer may
 * cancel a COD order from a confirmation.
 */
export type CancelShipment = (
  /** Who asked (the audit log names them): Dakiya acting for the account, on whose behalf. */
  actor: Actor,
  shipmentId: string,
  outer?: Tx,
) => Promise<{ cancelled: boolean; message: string }>;

/**
 * The buyer's answer to an NDR message (features/ndr): `reattempt` asks for a reattempt on the next
 * working day, `cancel` turns the parcel back (RTO), both through the NDR path with its limits and
 * recorded as asked by the customer, as on the tracking page. Only while the shipment still waits
 * on failed attempt `attempt`; `done` false with the reason otherwise (another account's shipment
 * reads as unknown). Handed to buyer messaging, whose WhatsApp replies carry these answers.
 */
export type NdrBuyerAnswer = (
  accountId: string,
  shipmentId: string,
  attempt: number,
  answer: 'reattempt' | 'cancel',
) => Promise<{ done: boolean; message: string }>;

/** What a merchant corrected of the delivery after a failed one (PUT /order on an ndr_raised shipment). */
export interface DeliveryCorrection {
  /** The corrected street address and landmark (the order's address lines), in the same pincode. */
  updated_address?: { address_line: string; landmark?: string };
  /** A 10-digit Indian mobile number the courier can call. */
  updated_phone_number?: string;
}

/**
 * Passes a delivery correction to the courier through the NDR path (features/ndr), in the caller's
 * transaction: the instruction a reattempt's updated_address is, with `address_correction: true`,
 * so the courier (told through its API, or reading /carrier/v1/actions) delivers again there.
 * Handed to orders, whose PUT /order records the new address on the order. A DomainError naming
 * `awb` when no failed delivery waits or no reattempt is left; else the instruction as recorded.
 */
export type CorrectDeliveryAddress = (
  tx: Tx,
  accountId: string,
  shipmentId: string,
  correction: DeliveryCorrection,
  now: Date,
) => Promise<NdrActionView>;

/** What turning a COD shipment prepaid did: the amount that no longer needs collecting, the re-quoted charges (rupees), a fresh label link. */
export interface PrepaidConversion {
  paidPaise: number;
  charges: { freight: number; cod_charges: number; rto_charges: number } | null;
  labelUrl: string | null;
  /** The label's new version when a printed label was re-issued (its earlier links refused); null when none was printed. */
  labelVersion: number | null;
}

/**
 * Re-issues a forward shipment's label in the caller's transaction, as the merchant's
 * POST /shipments/{id}/label/reissue does (features/labels): a new version, links signed before it
 * refused, shipment.label_reissued recorded. Handed to orders, whose COD-to-prepaid reprints a label
 * that was printed showing the COD amount.
 */
export type ReissueLabel = (
  tx: Tx,
  actor: Actor,
  shipmentId: string,
  reason: string,
) => Promise<{ label_version: number; label_url: string }>;

/**
 * Turns a COD shipment prepaid in the caller's transaction (features/orders/cod-to-prepaid.ts):
 * handed to buyer messaging, where the merchant reports the buyer's online payment.
 */
export type ConvertToPrepaid = (tx: Tx, actor: Actor, shipmentId: string, now: Date) => Promise<PrepaidConversion>;

/**
 * Told, in the tracking intake's transaction, that a shipment's status just changed: the COD ledger
 * opens a receivable when a COD shipment is delivered, committed with the delivery or not at all.
 */
export type ShipmentStatusListener = (
  tx: Executor,
  accountId: string,
  shipmentId: string,
  status: ShipmentStatus,
  now: Date,
) => Promise<void>;

/**
 * Told, in the tracking intake's transaction, that a return's status or its courier's QC result just
 * changed: an exchange releases its replacement when the old item is picked up or passes QC, and
 * flags a QC failure, committed with the scan or not at all.
 */
export type ReturnChangeListener = (
  tx: Executor,
  accountId: string,
  returnId: string,
  state: { status: ReturnStatus; qcStatus: string | null },
  now: Date,
) => Promise<void>;

/** What an approval hands over to record the buyer's refund (features/refunds). */
export interface NewRefund {
  requestId: string;
  returnId: string;
  storeId: string;
  /** The items sent back, each at the price paid for a unit. */
  items: readonly { unitPaise: number; units: number }[];
  terms: RefundTerms;
  release: RefundRelease;
  /**
   * How the buyer is paid, as the request gave it (`to_be_agreed`: a COD order's, when it gave
   * none), with the payee masked for answers and sealed in full (refund-payee.ts).
   */
  method: RefundMethod | 'to_be_agreed';
  payee: { masked: MaskedPayee; sealed: string | null } | null;
}

/** Records the refund of an approved return request, in the approval's transaction (features/refunds). */
export type OpenRefund = (tx: Tx, accountId: string, refund: NewRefund) => Promise<unknown>;

/** Every listener told of a return's change, one after the other, in the scan's transaction. */
export const allReturnListeners =
  (...listeners: ReturnChangeListener[]): ReturnChangeListener =>
  async (...change) => {
    for (const listener of listeners) await listener(...change);
  };

/** Where an order came in from when a sales channel imported it (features/sales-channels). */
export interface ChannelOrigin {
  salesChannelId: string;
  channel: 'shopify' | 'woocommerce';
  /** The store's id of the order, and what the merchant calls it ("#1001"). */
  channelOrderId: string;
  channelOrderName: string;
}

/**
 * Makes a store's order a forward order (features/orders), in the caller's transaction: `body` is
 * forward-order's, checked as its route checks it; `book` books it at once through the allocation
 * rules (forward-order-orchestration). Handed to the sales channels' intake; refuses with the
 * DomainError the route would answer.
 */
export type ImportChannelOrder = (
  accountId: string,
  body: object,
  outer: Tx,
  origin: ChannelOrigin,
  book: boolean,
) => Promise<{ orderId: string; shipmentId: string; awb: string | null }>;

/** What an exchange shows of one of its legs (features/exchanges), as the leg's own answer has it. */
export interface ExchangeLegView {
  shipmentId: string;
  /** The leg's own merchant order_id (a forward order's, or a return's). */
  merchantOrderId: string;
  awb: string | null;
  carrierId: string | null;
  courierName: string | null;
  appliedWeightKg: number;
  status: string;
  labelUrl: string | null;
  trackUrl: string | null;
  testMode: boolean;
  /** What the leg accepted but not as sent (a pickup_location warehouse_id overrode, …). */
  warnings: FieldError[];
}

/** The replacement: an ordinary forward order and shipment. */
export interface ForwardLeg extends ExchangeLegView {
  orderId: string;
  isCod: boolean;
  freightPaise: number;
  codPaise: number;
  rtoPaise: number;
}

/** The old item's pickup: an ordinary return. */
export interface ReturnLeg extends ExchangeLegView {
  returnId: string;
  freightPaise: number;
  /** The QC-capable courier's charge; 0 when booked without QC. */
  qcPaise: number;
  qcApplied: boolean;
  qcNote: string | null;
}

/** An exchange as exchange-order-orchestration booked it: its id, its pickup's return, and both legs' parcels. */
export interface BookedExchange {
  exchangeId: string;
  returnId: string;
  parcels: { carrierId: string | null; awb: string | null; journey: 'forward' | 'return' }[];
}

/**
 * Books an exchange from exchange-order-orchestration's body (checked against its route's schema),
 * both legs or neither, in the caller's transaction (features/exchanges); a repeated order_id
 * answers the exchange already made.
 */
export type BookExchange = (actor: Actor, body: object, tx: Tx) => Promise<BookedExchange>;

/**
 * One kind of leg an exchange is made of, handed in by the module that owns it (orders, returns):
 * `book` runs that module's orchestration of `body` (checked against its route's schema, refused
 * with the DomainError the route would answer) in the exchange's transaction; `read` shows a leg
 * already made, as it is now.
 */
export interface ExchangeLegBooking<L extends ExchangeLegView, Id extends string = string> {
  book(actor: Actor, body: object, tx: Tx): Promise<L>;
  read(ex: Executor, accountId: string, id: Id): Promise<L>;
}
