/**
 * What the Shadowfax simulator's API decides, apart from its HTTP plumbing (shadowfax-simulator.ts):
 * creates, cancellations, updates and tracking answers in the shapes Shadowfax's documentation and
 * its clients show (src/couriers/fixtures/shadowfax/, docs/couriers.md). Sources are named beside
 * each rule: the Unified API's transcription is index id 54543910210.
 */
export interface ShadowfaxSimScan {
  status_id: string;
  status: string;
  remarks: string;
  location?: string;
  created: string;
}

/** One entry of a reverse request's history: its state in Shadowfax's display words (index id 5990078441). */
export interface ShadowfaxSimState {
  state: string;
  comment: string;
  current_location?: string;
  created_at: string;
}

export type ShadowfaxSimOrderType = 'warehouse' | 'marketplace';

export interface ShadowfaxSimOrder {
  awb: string;
  kind: 'forward' | 'reverse';
  /** A forward order's lifecycle (its `order_type`); undefined on a reverse request. */
  orderType?: ShadowfaxSimOrderType;
  body: Record<string, unknown>;
  scans: ShadowfaxSimScan[];
  /** A reverse request's history. */
  states: ShadowfaxSimState[];
  cancelled: boolean;
  /** Cancelled while moving (304): Shadowfax intercepts it at its next check-in scan. */
  cancelQueued: boolean;
}

export interface SimAnswer {
  status: number;
  body: unknown;
}

export const record = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Django REST's field errors: each missing field named with its path. */
function missing(body: Record<string, unknown>, fields: Record<string, string[]>) {
  const errors: Record<string, Record<string, string[]> | string[]> = {};
  for (const [group, names] of Object.entries(fields)) {
    const part = group === '' ? body : record(body[group]);
    if (!part) {
      errors[group] = ['This field is required.'];
      continue;
    }
    for (const name of names) {
      if (part[name] === undefined || part[name] === null || part[name] === '') {
        if (group === '') errors[name] = ['This field is required.'];
        else errors[group] = { ...(errors[group] as Record<string, string[]>), [name]: ['This field is required.'] };
      }
    }
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

const PARTY = ['name', 'contact', 'address_line_1', 'city', 'state', 'pincode'];
/** The way back is `rts_details` on a marketplace order, `rto_details` on a warehouse one (index id 60839310414). */
const FORWARD = (type: ShadowfaxSimOrderType) => ({
  '': ['order_type', 'product_details'],
  order_details: ['client_order_id', 'actual_weight', 'product_value', 'payment_mode', 'total_amount'],
  customer_details: PARTY,
  pickup_details: PARTY,
  [type === 'marketplace' ? 'rts_details' : 'rto_details']: PARTY,
});
const REVERSE = {
  '': ['client_order_number', 'total_amount', 'skus_attributes'],
  address_attributes: ['name', 'phone_number', 'address_line', 'city', 'pincode'],
  seller_attributes: ['name', 'phone', 'address_line', 'city', 'pincode'],
};

/** Pincodes no service reaches here: the North-East's 79xxxx, as the create refuses them too. */
export const unserviceable = (pincode: string) => pincode.startsWith('79');

const failure = (status: number, errors: unknown): SimAnswer => ({ status, body: { message: 'Failure', errors } });

/**
 * `order_details.eway_bill` is optional, "Max 12 alphanumeric characters" (index id 54543910210).
 * Shadowfax's own words for a bad one are in no source: these are Django REST's for a field of that
 * kind (a CharField's type and max_length, a RegexValidator's default).
 */
function ewayBillProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return 'Not a valid string.';
  if (value.length > 12) return 'Ensure this field has no more than 12 characters.';
  return /^[A-Za-z0-9]*$/.test(value) ? undefined : 'Enter a valid value.';
}

/** Checks a create and says why it cannot be made, or undefined. */
export function refusedCreate(
  kind: 'forward' | 'reverse',
  body: Record<string, unknown>,
  orderTypes: readonly ShadowfaxSimOrderType[],
): SimAnswer | undefined {
  const type = body.order_type;
  if (kind === 'forward' && type !== 'warehouse' && type !== 'marketplace')
    return failure(400, { order_type: [`"${String(type)}" is not a valid choice.`] });
  const errors = missing(body, kind === 'forward' ? FORWARD(type as ShadowfaxSimOrderType) : REVERSE);
  if (errors) return failure(400, errors);
  // A client account is set up for its order types: the others are refused (their words are ours).
  if (kind === 'forward' && !orderTypes.includes(type as ShadowfaxSimOrderType))
    return failure(200, `Order type ${String(type)} is not enabled for this client`);
  const destination = kind === 'forward' ? record(body.customer_details)! : record(body.address_attributes)!;
  if (unserviceable(String(destination.pincode)))
    return failure(200, `Pincode ${String(destination.pincode)} is not serviceable`);
  if (kind === 'forward') {
    const details = record(body.order_details)!;
    if (details.payment_mode === 'COD' && Number(details.cod_amount) > 40_000)
      return failure(400, { order_details: { cod_amount: ['COD amount cannot be more than 40000.'] } });
    const ewayBill = ewayBillProblem(details.eway_bill);
    if (ewayBill) return failure(400, { order_details: { eway_bill: [ewayBill] } });
    return undefined;
  }
  const bad = (body.skus_attributes as Record<string, unknown>[]).findIndex(
    (sku) => sku.qc_required === true && (!sku.image_url || !Array.isArray(sku.qc_rules) || sku.qc_rules.length === 0),
  );
  if (bad >= 0)
    return failure(400, {
      skus_attributes: { [bad]: ['image_url and qc_rules are required when qc_required is true.'] },
    });
  return undefined;
}

/**
 * A create for a client order id already booked: HTTP 200 "Failure" naming the existing AWB, with
 * it and the id at the top (index ids 54543910210, 60839310414).
 */
export const duplicateCreate = (clientId: string, awb: string): SimAnswer => ({
  status: 200,
  body: {
    message: 'Failure',
    errors: `Order for COID ${clientId} already created with AWB ${awb}`,
    AWB: awb,
    COID: clientId,
  },
});

/** What a create answers: a forward order's `data` (index id 54543910210), a reverse request's fields at the top (index ids 56717327499, 46763779103). */
export function createdAnswer(order: ShadowfaxSimOrder, clientId: string): SimAnswer {
  if (order.kind === 'reverse')
    return {
      status: 200,
      body: { message: 'Success', client_request_id: order.awb, awb_number: order.awb, status: 'New' },
    };
  return {
    status: 200,
    body: {
      message: 'Success',
      errors: null,
      data: {
        id: Number(order.awb.replace(/\D/g, '')),
        awb_number: order.awb,
        client_order_id: clientId,
        status: 'new',
        sort_code: 'BOM/ANR',
      },
    },
  };
}

/** Scans before the parcel is in Shadowfax's hands, in either lifecycle (index id 54543910210). */
const BEFORE_PICKUP = new Set([
  'new',
  'assigned_for_seller_pickup',
  'assigned_for_pickup',
  'ofp',
  'pickup_on_hold',
  'seller_initiated_delay',
  'seller_not_contactable',
  'pickup_not_attempted',
]);
/** Where a cancellation is queued (304) rather than done: the parcel is moving (index id 54543910210). */
const MOVING = new Set(['ofp', 'recd_at_rev_hub', 'ofd', 'bag_in_transit', 'bag_received_at_via']);
/** Where it is refused: the parcel's journey is over. */
const FINISHED = new Set(['delivered', 'rts_d', 'rto_d', 'lost']);
/** The undelivered states after which a re-attempt is taken (see `updateAnswer`). */
const UNDELIVERED = new Set(['nc', 'na', 'cid', 'on_hold', 'cancelled_by_customer']);

export const pickedUp = (order: ShadowfaxSimOrder) => order.scans.some((s) => !BEFORE_PICKUP.has(s.status_id));

/**
 * The first scan of a cancelled parcel's way back, in its order type's lifecycle: `rto` on a
 * warehouse order, `rts` on a marketplace one (index id 54543910210).
 */
export function returnStart(order: ShadowfaxSimOrder, at: string, location = 'Shadowfax hub'): ShadowfaxSimScan {
  return order.orderType === 'marketplace'
    ? {
        status_id: 'rts',
        status: 'Return to Seller initiated',
        remarks: `Item Return To Seller at ${location}`,
        location,
        created: at,
      }
    : {
        status_id: 'rto',
        status: 'Return to origin initiated',
        remarks: `Item Return To Origin at ${location}`,
        location,
        created: at,
      };
}

const later = (created: string, ms: number) => new Date(Date.parse(created) + ms).toISOString();

/**
 * POST /api/v3/clients/orders/cancel/ (index ids 54543910210, 60839310414): 200 at rest, and for
 * one already being cancelled; 304 while it moves, intercepted at its next check-in; HTTP 400
 * "Order cannot be cancelled. Invalid state." once its journey is over. A parcel already picked up
 * starts its way back (at rest: a minute after its last scan). The 304's words are ours.
 */
export function cancelAnswer(order: ShadowfaxSimOrder): SimAnswer {
  const last = order.scans.at(-1);
  if (order.cancelled)
    return {
      status: 200,
      body: { responseCode: 200, responseMsg: 'The request is already in its cancellation phase' },
    };
  if (last && FINISHED.has(last.status_id))
    return { status: 400, body: { responseCode: 400, responseMsg: 'Order cannot be cancelled. Invalid state.' } };
  order.cancelled = true;
  if (last && MOVING.has(last.status_id)) {
    order.cancelQueued = true;
    return {
      status: 200,
      body: { responseCode: 304, responseMsg: 'Cancellation queued: the order will be cancelled at its next scan' },
    };
  }
  if (last && pickedUp(order)) order.scans.push(returnStart(order, later(last.created, 60_000), last.location));
  return { status: 200, body: { responseCode: 200, responseMsg: 'Request has been marked as cancelled' } };
}

/** A scan of a parcel whose cancellation was queued: its check-in is where Shadowfax intercepts it. */
export function afterScan(order: ShadowfaxSimOrder, scan: ShadowfaxSimScan) {
  if (!order.cancelQueued || MOVING.has(scan.status_id)) return;
  order.cancelQueued = false;
  if (pickedUp(order)) order.scans.push(returnStart(order, later(scan.created, 1000), scan.location));
}

/**
 * POST /api/v2/clients/requests/mark_cancel for a reverse request (index ids 56079360066,
 * 46763779103): `responseCode` 200 "Request has been marked as cancelled" (index id 56717327499)
 * until it is collected; the refusal's words are ours.
 */
export function markCancelAnswer(order: ShadowfaxSimOrder): SimAnswer {
  const collected = order.states.some((s) => !['New', 'Assigned', 'Out For Pickup'].includes(s.state));
  if (collected)
    return { status: 200, body: { responseCode: 400, responseMsg: 'Request cannot be cancelled once picked up' } };
  order.cancelled = true;
  return { status: 200, body: { responseCode: 200, responseMsg: 'Request has been marked as cancelled' } };
}

/**
 * POST /api/v3/clients/order_update/ (index id 54543910210): `delivery_details` (contact,
 * customer_address, pincode) and `status_update.status`. The documentation allows forcing
 * `reopen_ndr` only from on_hold or cancelled_by_customer; clients send it after any failed
 * attempt (index id 17374548919), and whether Shadowfax takes it after nc, na or cid is unverified:
 * here it is taken after any undelivered state and refused elsewhere. Undocumented keys are
 * ignored, as a Django serializer does, so a body of them changes nothing.
 */
export function updateAnswer(order: ShadowfaxSimOrder, update: Record<string, unknown>): SimAnswer {
  const details = record(update.delivery_details);
  if (details?.contact !== undefined && !/^\d{10,13}$/.test(String(details.contact)))
    return failure(400, { delivery_details: { contact: ['Ensure this field has 10 to 13 digits.'] } });
  const status = record(update.status_update)?.status;
  const last = order.scans.at(-1)?.status_id ?? 'new';
  if (status === 'reopen_ndr' && !UNDELIVERED.has(last))
    return failure(200, `Status cannot be updated to reopen_ndr from ${last}`);
  if (status !== undefined && status !== null && status !== 'reopen_ndr')
    return failure(400, { status_update: { status: [`"${String(status)}" is not a valid choice.`] } });
  return { status: 200, body: { responseCode: 200, responseMsg: 'Order updated successfully' } };
}

/** A forward order on the v4 tracking (index id 54543910210). */
export const trackAnswer = (order: ShadowfaxSimOrder) => ({
  awb_number: order.awb,
  order_details: {
    awb_number: order.awb,
    client_order_id: record(order.body.order_details)?.client_order_id,
    status: order.scans.at(-1)?.status_id ?? 'new',
  },
  tracking_details: order.scans.map((scan) => ({ ...scan, awb_number: order.awb })),
});

/** A reverse request's record at GET /api/v4/clients/requests/{id}, its history null until a scan (index id 5990078441). */
export const requestAnswer = (order: ShadowfaxSimOrder) => ({
  client_order_number: order.body.client_order_number,
  request_type: 'pickup',
  client_request_id: order.awb,
  pickup_request_state_histories: order.states.length > 0 ? order.states : null,
  status: order.states.at(-1)?.state ?? 'New',
  pickup_type: 'regular',
  awb_number: order.awb,
  message: 'Success',
});
