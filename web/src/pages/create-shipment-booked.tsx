import { ApiError, api, unwrap } from '../api/client';
import { Link } from '../router';
import type { OrderBody } from './create-shipment-rates';

// The order form's booking, and what the form shows once it is booked: the AWB, who chose the
// courier, the label.

/** Books the order; one key per form, so that a double click or a retry books once (Idempotency-Key). */
export const bookOrder = (body: OrderBody, idempotencyKey: string) =>
  unwrap(
    api.POST('/custom/api/v1/forward-order-orchestration', {
      body,
      params: { header: { 'idempotency-key': idempotencyKey } },
    }),
  );
type Booked = Awaited<ReturnType<typeof bookOrder>>['payload'];

/**
 * A refusal the server keeps as the key's answer (a 4xx: nothing booked): the order corrected is
 * another request, which needs a key of its own (the same key with another body is refused). Not a
 * 409, which may be the same key's booking still running; nor a failure without an answer, which
 * is retried with the same key.
 */
export const refusedForGood = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 409;

export function ShipmentBooked({ booked, onAnother }: { booked: Booked; onAnother: () => void }) {
  return (
    <section>
      <h1>Shipment booked</h1>
      <div className="card" role="status">
        <p>
          Order <strong>{booked.channel_order_id}</strong> is booked with {booked.courier_name ?? 'a courier'}: AWB{' '}
          <strong>{booked.awb_code ?? 'pending'}</strong>.
        </p>
        {booked.boxes && (
          <p>
            In {booked.boxes.length} boxes, each with its own AWB and label page:{' '}
            {booked.boxes.map((box) => `box ${box.box_no} ${box.awb ?? 'pending'}`).join(', ')}.
          </p>
        )}
        <p>
          {booked.allocation
            ? booked.allocation.rule
              ? `Your allocation rule “${booked.allocation.rule}” chose it: ${booked.allocation.reason}.`
              : `No allocation rule matched: ${booked.allocation.reason}.`
            : 'You chose this courier from the rate comparison.'}
        </p>
        {booked.test_mode && (
          <p className="notice">
            Test booking: no courier issued this AWB (the sandbox or a simulator of the courier's API); nobody will
            collect the parcel.
          </p>
        )}
        <div className="actions">
          {booked.awb_code && (
            <a
              className="button"
              href={`/custom/api/v1/shipments/${encodeURIComponent(booked.shipment_id)}/label?format=pdf`}
              download={`label-${booked.awb_code}.pdf`}
            >
              Print label
            </a>
          )}
          <Link
            className="button secondary"
            to={`/shipments/${encodeURIComponent(booked.shipment_id)}?order=${encodeURIComponent(booked.channel_order_id)}`}
          >
            Open shipment
          </Link>
          <button type="button" className="secondary" onClick={onAnother}>
            Book another
          </button>
        </div>
      </div>
    </section>
  );
}
