import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { promiseStands } from '../../../src/domain/shipment/delivery-promise';
import { ApiError, api, type Shipment, unwrap } from '../api/client';
import {
  channelName,
  formatDate,
  formatDateTime,
  formatRupees,
  ndrReasonLabel,
  shipmentStatusLabel,
  statusLabel,
} from '../format';
import { useCan } from '../permissions';
import { Link, useLocation, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { ReattemptForm, RtoButton } from './ndr-actions';
import { useReferenceData } from './reference';
import { ShipmentEmails } from './shipment-emails';

/** Statuses before pickup: the only ones a merchant may cancel from, or re-issue the label in. */
const CANCELLABLE = new Set(['pending']);
/** The promised delivery date, or why there is none any more (lost, returned, cancelled). */
function promised(a: Shipment['attributes']): string {
  if (promiseStands(a.status)) return formatDate(a.expected_delivery_date);
  if (a.status === 'cancelled') return 'None: the shipment is cancelled';
  if (a.status === 'others') return `None: the parcel is ${shipmentStatusLabel(a.status, a.sub_status).toLowerCase()}`;
  return 'None: the parcel is going back to you';
}

/** A shipment's page, found through the listing by its order id (the id in the path picks the row). */
export function ShipmentPage({ id }: { id: string }) {
  const { query } = useLocation();
  const order = query.get('order') ?? id;
  const found = useQuery({
    queryKey: ['shipment', id, order],
    queryFn: async () => {
      const page = await unwrap(api.POST('/custom/api/v1/shipments', { body: { search: order, per_page: 100 } }));
      return page.data.find((s) => s.id === id) ?? null;
    },
  });
  useTitle(found.data ? `Shipment ${found.data.attributes.order.display_id}` : 'Shipment');
  if (found.isPending) return <Loading what="the shipment" />;
  if (found.error) return <ErrorSummary error={found.error} />;
  if (!found.data) {
    return (
      <EmptyState title="Shipment not found">
        <p>
          No shipment of this account has this address. Find it in <Link to="/shipments">Shipments</Link> by its AWB or
          order id.
        </p>
      </EmptyState>
    );
  }
  return <ShipmentDetails shipment={found.data} />;
}

function ShipmentDetails({ shipment }: { shipment: Shipment }) {
  const a = shipment.attributes;
  const can = useCan();
  const { warehouses } = useReferenceData();
  const warehouse = warehouses.find((w) => w.id === a.warehouse_id);
  const timeline = [...a.tracking_details].sort((x, y) => y.event_date_time.localeCompare(x.event_date_time));
  return (
    <section className="shipment">
      <p>
        <Link to="/shipments">← Shipments</Link>
      </p>
      <div className="page-head">
        <h1>Order {a.order.display_id}</h1>
        {/* A live region: a cancellation or an RTO from this page changes it, and it says so. */}
        <span
          role="status"
          aria-label="Shipment status"
          id="shipment-status"
          tabIndex={-1}
          className={`status status-${a.status}`}
        >
          {shipmentStatusLabel(a.status, a.sub_status)}
        </span>
      </div>
      {a.test_mode && (
        <p className="notice">
          Test booking: no courier issued this AWB (the sandbox or a simulator of the courier's API); nobody will
          collect the parcel.
        </p>
      )}
      <div className="cards">
        <article className="card" aria-labelledby="summary-h">
          <h2 id="summary-h">Shipment</h2>
          <dl>
            {a.order.channel !== 'manual_order' && a.order.channel_order_name && (
              <>
                <dt>Store order</dt>
                <dd>{`${channelName(a.order.channel)} ${a.order.channel_order_name}`}</dd>
              </>
            )}
            <dt>AWB</dt>
            <dd>{a.tracking_number ?? 'Not booked yet'}</dd>
            <dt>Courier</dt>
            <dd>{a.carrier?.name ?? '—'}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(a.created_at)}</dd>
            <dt>Expected delivery</dt>
            <dd>{promised(a)}</dd>
            <dt>Payment</dt>
            <dd>{a.is_cod ? `COD, collect ${formatRupees(a.cod_amount)}` : 'Prepaid'}</dd>
            <dt>Weight</dt>
            <dd>{a.applied_weight.value} g</dd>
          </dl>
          <div className="actions">
            {a.tracking_number && can('buyers:read') && (
              <a
                className="button"
                href={`/custom/api/v1/shipments/${encodeURIComponent(shipment.id)}/label?format=pdf`}
                download={`label-${a.tracking_number}.pdf`}
              >
                Download label
              </a>
            )}
            {a.track_url && (
              <a className="button secondary" href={a.track_url} target="_blank" rel="noreferrer">
                Tracking page
              </a>
            )}
            {can('returns:write') && a.status === 'delivered' && (
              <Link
                className="button secondary"
                to={`/returns/new?shipment=${encodeURIComponent(shipment.id)}&order=${encodeURIComponent(a.order.display_id)}`}
              >
                Create a return
              </Link>
            )}
          </div>
          {can('shipments:write') && CANCELLABLE.has(a.status) && a.tracking_number && (
            <ReissueLabel shipment={shipment} />
          )}
          {can('shipments:write') && CANCELLABLE.has(a.status) && <CancelShipment shipment={shipment} />}
        </article>
        <article className="card" aria-labelledby="addresses-h">
          <h2 id="addresses-h">Addresses</h2>
          <h3>Deliver to</h3>
          <p>
            {a.shipping_address.name}
            <br />
            {a.shipping_address.address}
            {a.shipping_address.address_2 && (
              <>
                <br />
                {a.shipping_address.address_2}
              </>
            )}
            <br />
            {a.shipping_address.city}, {a.shipping_address.state} {a.shipping_address.zip}
            <br />
            {a.shipping_address.phone}
          </p>
          <h3>Pick up from</h3>
          <p>
            {warehouse ? (
              <>
                {warehouse.name}
                <br />
                {warehouse.address_attributes.street_address}, {warehouse.address_attributes.city}{' '}
                {warehouse.address_attributes.zip}
              </>
            ) : (
              'Warehouse'
            )}
          </p>
        </article>
        <article className="card" aria-labelledby="charges-h">
          <h2 id="charges-h">Charges</h2>
          {a.fare_breakup ? (
            <dl>
              <dt>Freight</dt>
              <dd>{formatRupees(a.fare_breakup.forward_charges)}</dd>
              <dt>COD charge</dt>
              <dd>{formatRupees(a.fare_breakup.cod_charges)}</dd>
              <dt>RTO charge</dt>
              <dd>{formatRupees(a.fare_breakup.rto_charges)}</dd>
              <dt>Total</dt>
              <dd>
                <strong>{formatRupees(a.fare_breakup.total_charges)}</strong>
              </dd>
            </dl>
          ) : (
            <p>Charged once a courier is assigned.</p>
          )}
          <h3>Items</h3>
          <ul>
            {a.items.map((item) => (
              <li key={item.id}>
                {item.quantity} × {item.name} ({item.sku}), {formatRupees(item.price)}
              </li>
            ))}
          </ul>
        </article>
      </div>
      {can('ndr:write') && a.status === 'ndr_raised' && a.tracking_number && (
        <NdrActions
          awb={a.tracking_number}
          order={a.order.display_id}
          reason={a.ndr_reason}
          attempts={a.attempt_count}
        />
      )}
      <ShipmentEmails shipmentId={shipment.id} />
      <h2>Scans</h2>
      {timeline.length === 0 ? (
        <p>No scans yet: the courier's first scan appears here once the parcel is picked up.</p>
      ) : (
        <ol className="timeline">
          {timeline.map((scan) => (
            <li key={scan.id}>
              <strong>{statusLabel(scan.status)}</strong> · {formatDateTime(scan.event_date_time)}
              {scan.last_location && <> · {scan.last_location}</>}
              {scan.description && <div>{scan.description}</div>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * A new version of the label (same AWB): the links to earlier versions stop working, so a copy
 * queued at a printer or shared before a correction is not printed. Confirmed first, with a reason.
 */
function ReissueLabel({ shipment }: { shipment: Shipment }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const reissue = useMutation({
    mutationFn: (reason: string) =>
      unwrap(
        api.POST('/custom/api/v1/shipments/{id}/label/reissue', {
          params: { path: { id: shipment.id }, header: { 'idempotency-key': idempotencyKey } },
          body: reason ? { reason } : {},
        }),
      ),
    onSuccess: () => {
      setAsking(false);
      setIdempotencyKey(crypto.randomUUID());
      // The shipment changed (its label, its update time): listings read before are stale.
      void queryClient.invalidateQueries({ queryKey: ['shipments'] });
    },
  });
  const errors = reissue.error instanceof ApiError ? reissue.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reissue.mutate(String(new FormData(event.currentTarget).get('reason') ?? '').trim());
  };
  return (
    <>
      {reissue.data && !asking && (
        <p role="status">
          Label {reissue.data.label_version} issued {formatDateTime(reissue.data.reissued_at)}: links to earlier labels
          no longer work. Download label prints the new one.
        </p>
      )}
      {asking ? (
        <form className="confirm" onSubmit={submit} aria-labelledby="reissue-h">
          <h3 id="reissue-h">Re-issue the label</h3>
          <p>
            The AWB stays {shipment.attributes.tracking_number}; the label gets a new version and links to the old one
            stop working.
          </p>
          <ErrorSummary error={reissue.error} />
          <Field label="Reason (optional)" name="reason" maxLength={200} error={errors.reason} />
          <button type="submit" disabled={reissue.isPending}>
            Re-issue
          </button>
          <button type="button" className="secondary" onClick={() => setAsking(false)}>
            Keep the current label
          </button>
        </form>
      ) : (
        <button type="button" className="secondary" onClick={() => setAsking(true)}>
          Re-issue label
        </button>
      )}
    </>
  );
}

function CancelShipment({ shipment }: { shipment: Shipment }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/cancel-order', { body: { shipment_id: shipment.id } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const result = cancel.data?.results[0];
  if (result) return <p role="status">{result.message}</p>;
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Cancel shipment
      </button>
    );
  }
  return (
    <fieldset className="confirm">
      <legend>Confirm cancellation</legend>
      <p>Cancel order {shipment.attributes.order.display_id}? The courier will not collect it.</p>
      <ErrorSummary error={cancel.error} />
      <button type="button" className="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
        Yes, cancel it
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </fieldset>
  );
}

function NdrActions({
  awb,
  order,
  reason,
  attempts,
}: {
  awb: string;
  order: string;
  reason: string | null;
  attempts: number;
}) {
  const [done, setDone] = useState('');
  const said = useRef<HTMLParagraphElement>(null);
  // After an RTO this card leaves with the NDR status: the status it changed takes the focus then.
  const returned = useRef(false);
  useEffect(() => {
    if (done && returned.current) document.getElementById('shipment-status')?.focus();
    else if (done) said.current?.focus();
  }, [done]);
  return (
    <article className="card ndr" aria-labelledby="ndr-h">
      <h2 id="ndr-h">Delivery failed</h2>
      <p>
        {ndrReasonLabel(reason)} · {attempts} attempt{attempts === 1 ? '' : 's'}
      </p>
      {done ? (
        <p role="status" ref={said} tabIndex={-1}>
          {done}
        </p>
      ) : (
        <>
          <ReattemptForm awb={awb} order={order} onDone={setDone} />
          <RtoButton
            awb={awb}
            order={order}
            onDone={(message) => {
              returned.current = true;
              setDone(message);
            }}
          />
        </>
      )}
    </article>
  );
}
