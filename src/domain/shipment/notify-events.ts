/**
 * The moments a customer is e-mailed about, in the parcel's order, then those of a return they ask
 * for. A store chooses among them (`notify_events`); every one is on by default. `shipped` is the
 * booking (courier and AWB); `return_requested` the buyer's request kept, `return_approved` and
 * `return_rejected` the store's decision.
 */
export const NOTIFY_EVENTS = [
  'shipped',
  'out_for_delivery',
  'delivered',
  'ndr_raised',
  'rto_delivered',
  'return_requested',
  'return_approved',
  'return_rejected',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
/** The moments of a return the buyer asked for; the others are the parcel's. */
export type ReturnMoment = 'return_requested' | 'return_approved' | 'return_rejected';
export type ShipmentMoment = Exclude<NotifyEvent, ReturnMoment>;

/** Why a notification was not sent; the notifications route shows these. */
export const SKIP_REASONS = ['smtp_not_configured', 'event_turned_off', 'no_email_address'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

const RETURN_REQUEST_MOMENTS: Readonly<Record<string, NotifyEvent>> = {
  'return_request.created': 'return_requested',
  'return_request.approved': 'return_approved',
  'return_request.rejected': 'return_rejected',
};

export const isNotifyEvent = (value: string): value is NotifyEvent =>
  (NOTIFY_EVENTS as readonly string[]).includes(value);

/**
 * The moment an event tells the customer of, if any: the booking, or the shipment entering one of
 * the statuses above. Only `shipment.status_changed` is read for statuses (the milestone events,
 * such as shipment.delivered, repeat it), and one that moves only the sub-status tells nothing new.
 */
export function notifyEventOf(event: { type: string; data: Record<string, unknown> }): NotifyEvent | undefined {
  if (event.type === 'shipment.booked') return 'shipped';
  const returned = RETURN_REQUEST_MOMENTS[event.type];
  if (returned) return returned;
  if (event.type !== 'shipment.status_changed') return undefined;
  const { from, to } = event.data;
  return typeof to === 'string' && to !== from && to !== 'shipped' && isNotifyEvent(to) ? to : undefined;
}
