import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, type Shipment, unwrap } from '../api/client';
import { formatDateTime, ndrReasonLabel, statusLabel } from '../format';
import { Link, useTitle } from '../router';
import { EmptyState, ErrorSummary, Loading } from '../ui';
import { useCan } from '../permissions';
import { ReattemptForm, RtoButton } from './ndr-actions';
import { NdrRulesEditor, ThresholdsEditor } from './ndr-rules';
import { shipmentPath } from './shipments';

/** When the last failed delivery was reported: the newest NDR milestone, else the newest scan. */
function failedAt(s: Shipment): string | undefined {
  const ndr = s.attributes.shipment_milestones.filter((m) => m.milestone.includes('ndr')).map((m) => m.milestone_at);
  return (
    ndr.sort().at(-1) ??
    s.attributes.tracking_details
      .map((t) => t.event_date_time)
      .sort()
      .at(-1)
  );
}

/** The queue of failed deliveries: the reason and attempts, and another attempt or RTO in one click. */
export function NdrQueue() {
  useTitle('NDR');
  const can = useCan();
  const queue = useQuery({
    queryKey: ['shipments', 'ndr'],
    queryFn: () => unwrap(api.POST('/custom/api/v1/shipments', { body: { status: 'ndr_raised', per_page: 100 } })),
  });
  const rows = queue.data?.data ?? [];
  // What the last action did, said where the focus goes: the row that had it may leave the queue.
  const [outcome, setOutcome] = useState('');
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);
  return (
    <section>
      <h1>Failed deliveries (NDR)</h1>
      <p role="status" ref={said} tabIndex={-1}>
        {outcome}
      </p>
      <ErrorSummary error={queue.error} />
      {queue.isPending ? (
        <Loading what="failed deliveries" />
      ) : rows.length === 0 ? (
        <EmptyState title="No failed deliveries">
          <p>
            When a courier cannot deliver a parcel, it appears here with the reason, for another attempt or a return to
            origin.
          </p>
        </EmptyState>
      ) : (
        <table className="data responsive">
          <caption>
            {queue.data?.meta.total} shipment{queue.data?.meta.total === 1 ? '' : 's'} awaiting your decision
          </caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">AWB</th>
              <th scope="col">Customer</th>
              <th scope="col">Reason</th>
              <th scope="col">Attempts</th>
              <th scope="col">Failed</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <NdrRow key={s.id} shipment={s} onDone={setOutcome} />
            ))}
          </tbody>
        </table>
      )}
      <RuleOutcomes />
      {/* The rules and thresholds are settings, edited here where they act. */}
      {can('settings:write') && <NdrRulesEditor />}
      {can('settings:write') && <ThresholdsEditor />}
    </section>
  );
}

const ACTION_LABELS: Record<string, string> = { reattempt: 'Reattempt', rto: 'Return to origin' };

/**
 * What the account's NDR rules did, newest shipments first: each action a rule took (its name is
 * on the action), and the shipments whose buyer a rule had messaged. The listing carries both.
 */
function RuleOutcomes() {
  const acted = useQuery({
    queryKey: ['shipments', 'ndr-outcomes'],
    queryFn: () =>
      unwrap(
        api.POST('/custom/api/v1/shipments', {
          body: { ndr_all_outcomes: ['reattempt', 'rto', 'buyer_message'], per_page: 50 },
        }),
      ),
  });
  const rows = (acted.data?.data ?? []).flatMap((s) => {
    const a = s.attributes;
    const byRule = a.ndr_actions
      .filter((action) => action.requested_by === 'rule')
      .map((action) => ({
        id: action.id,
        shipment: s,
        rule: String(action.details.rule ?? '—'),
        what: ACTION_LABELS[action.action] ?? action.action,
        at: action.requested_at,
        taken: action.acknowledged_at,
      }));
    const messaged = a.ndr_all_outcomes.includes('buyer_message')
      ? [
          {
            id: `${s.id}-message`,
            shipment: s,
            rule: 'An NDR rule',
            what: 'Buyer messaged',
            at: undefined,
            taken: null,
          },
        ]
      : [];
    return [...byRule, ...messaged];
  });
  return (
    <>
      <h2>Automatic actions</h2>
      <ErrorSummary error={acted.error} />
      {acted.isPending ? (
        <Loading what="automatic actions" />
      ) : rows.length === 0 ? (
        <EmptyState title="No automatic actions yet">
          <p>
            When one of the NDR rules below acts on a failed delivery, the shipment, the rule and what it did appear
            here.
          </p>
        </EmptyState>
      ) : (
        <table className="data responsive">
          <caption>What the NDR rules did</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">AWB</th>
              <th scope="col">Rule</th>
              <th scope="col">Action</th>
              <th scope="col">When</th>
              <th scope="col">Courier took it</th>
              <th scope="col">Status now</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td data-label="Order">
                  <Link to={shipmentPath(r.shipment)}>{r.shipment.attributes.order.display_id}</Link>
                </td>
                <td data-label="AWB">{r.shipment.attributes.tracking_number ?? '—'}</td>
                <td data-label="Rule">{r.rule}</td>
                <td data-label="Action">{r.what}</td>
                <td data-label="When">{formatDateTime(r.at)}</td>
                <td data-label="Courier took it">
                  {r.taken ? formatDateTime(r.taken) : r.what === 'Buyer messaged' ? '—' : 'Not yet'}
                </td>
                <td data-label="Status now">{statusLabel(r.shipment.attributes.status)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function NdrRow({ shipment, onDone }: { shipment: Shipment; onDone: (message: string) => void }) {
  const can = useCan();
  const a = shipment.attributes;
  const awb = a.tracking_number ?? '';
  const order = a.order.display_id;
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <>
      <tr>
        <td data-label="Order">
          <Link to={shipmentPath(shipment)}>{order}</Link>
        </td>
        <td data-label="AWB">{awb}</td>
        <td data-label="Customer">
          {a.shipping_address.name}, {a.shipping_address.phone}
        </td>
        <td data-label="Reason">{ndrReasonLabel(a.ndr_reason)}</td>
        <td data-label="Attempts">{a.attempt_count}</td>
        <td data-label="Failed">{formatDateTime(failedAt(shipment))}</td>
        <td data-label="Action">
          {a.granular_status === 'reattempt_delivery' ? (
            <span className="status">Reattempt requested</span>
          ) : !can('ndr:write') ? null : (
            <div className="row-actions">
              <button
                ref={toggle}
                type="button"
                aria-expanded={open}
                aria-controls={open ? formId : undefined}
                onClick={() => setOpen(!open)}
                aria-label={`Reattempt ${order}`}
              >
                Reattempt…
              </button>
              <RtoButton awb={awb} order={order} onDone={onDone} />
            </div>
          )}
        </td>
      </tr>
      {open && a.granular_status !== 'reattempt_delivery' && (
        <tr className="expansion">
          <td colSpan={7} id={formId}>
            <ReattemptForm
              awb={awb}
              order={order}
              focusFirst
              onCancel={close}
              onDone={(message) => {
                setOpen(false);
                onDone(`${message} for order ${order}.`);
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}
