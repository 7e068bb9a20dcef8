import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { Link, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';

/** The reasons a buyer picks from, as the merchant reads them. */
const REASONS: Record<string, string> = {
  size_issue: 'Size or fit is not right',
  damaged: 'Arrived damaged',
  defective: 'Does not work',
  wrong_item: 'Received a different item',
  not_as_described: 'Not as described or shown',
  missing_parts: 'Parts or accessories missing',
  quality_issue: 'Quality not as expected',
  changed_mind: 'No longer needed',
  other: 'Another reason',
};

/** Where a refund goes, as the request gives it (masked: the full details are for the payment system). */
function refundTo(payee: Request['refund_to']): string {
  if (!payee) return 'by a method to agree with the buyer (cash on delivery)';
  if (payee.method === 'upi') return `to UPI ${payee.upi_id}`;
  if (payee.method === 'bank_transfer') return `to ${payee.bank} account ${payee.account_number} (${payee.ifsc})`;
  return payee.method === 'store_credit' ? 'as store credit' : 'to how they paid';
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The buyer's record with the account, as the auto rules read it: a first-time buyer says so. */
function buyerHistory({
  delivered,
  rto,
  refused,
  other_return_requests,
  other_returns_approved,
}: Request['buyer_history']) {
  if (delivered + rto + refused + other_return_requests === 0) return 'No earlier orders or returns with you';
  const parts = [count(delivered, 'order delivered', 'orders delivered'), count(rto, 'RTO', 'RTOs')];
  if (refused > 0) parts.push(count(refused, 'delivery refused', 'deliveries refused'));
  parts.push(
    `${count(other_return_requests, 'other return request')}${other_return_requests > 0 ? ` (${other_returns_approved} approved)` : ''}`,
  );
  return parts.join(' · ');
}

type Request = Awaited<ReturnType<typeof pendingRequests>>['data'][number];
const pendingRequests = () =>
  unwrap(api.GET('/custom/api/v1/return-requests', { params: { query: { status: 'pending', limit: '100' } } }));

/** The buyers' return requests waiting for a decision, oldest first: approve (booking the return) or reject with a message. */
export function ReturnRequests() {
  useTitle('Return requests');
  const queue = useQuery({ queryKey: ['return-requests', 'pending'], queryFn: pendingRequests });
  const rows = queue.data?.data ?? [];
  const [outcome, setOutcome] = useState('');
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);
  return (
    <section>
      <h1>Return requests</h1>
      <p>
        What buyers asked to send back on their tracking page, oldest first. Approving books the return and records the
        refund the buyer is owed, or, for an exchange, books the replacement with the pickup; rejecting tells the buyer
        your message. Booked returns are in <Link to="/returns">Returns</Link>.
      </p>
      <p role="status" ref={said} tabIndex={-1}>
        {outcome}
      </p>
      <ErrorSummary error={queue.error} />
      {queue.isPending ? (
        <Loading what="return requests" />
      ) : rows.length === 0 ? (
        <EmptyState title="No requests waiting">
          <p>
            When a buyer asks for a return on a delivered order's tracking page, the request waits here for your
            decision (unless your store's rules decided it).
          </p>
        </EmptyState>
      ) : (
        <ul className="cards" aria-label="Requests waiting for a decision">
          {rows.map((request) => (
            <RequestCard key={request.id} request={request} onDone={setOutcome} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RequestCard({ request, onDone }: { request: Request; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [rejecting, setRejecting] = useState(false);
  const items = request.items.map((item) => `${item.name} × ${item.quantity}`).join(', ');
  // What the approval gives: as asked, or the other (an exchange's approval books the replacement
  // with the pickup, the same SKU: the API names others).
  const [giving, setGiving] = useState(request.resolution);
  const exchange = giving === 'exchange';
  const done = (message: string) => {
    onDone(message);
    void queryClient.invalidateQueries();
  };
  // QC at pickup: a courier checks at most 2 SKUs, each against its picture.
  const checkable = request.items.slice(0, 2);
  const [qc, setQc] = useState(false);
  const [pictures, setPictures] = useState<Record<string, string>>({});
  const qcItems = checkable.flatMap((item) =>
    pictures[item.sku]?.trim() ? [{ sku: item.sku, image_url: pictures[item.sku]!.trim() }] : [],
  );
  const approve = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/custom/api/v1/return-requests/{id}/approve', {
          params: { path: { id: request.id } },
          body: {
            ...(qc && qcItems.length > 0 && { qc: { items: qcItems } }),
            ...(giving !== request.resolution && { resolution: giving }),
          },
        }),
      ),
    onSuccess: () => done(`Approved: the ${exchange ? 'exchange' : 'return'} of ${items} is booked.`),
  });
  const reject = useMutation({
    mutationFn: (message: string) =>
      unwrap(
        api.POST('/custom/api/v1/return-requests/{id}/reject', {
          params: { path: { id: request.id } },
          body: { message },
        }),
      ),
    onSuccess: () => done(`Rejected: the buyer is told your message about ${items}.`),
  });
  const submitRejection = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reject.mutate(String(new FormData(event.currentTarget).get('message') ?? ''));
  };
  const fieldErrorsOf = (error: unknown): Record<string, string> =>
    error && typeof error === 'object' && 'fieldErrors' in error
      ? (error as { fieldErrors(): Record<string, string> }).fieldErrors()
      : {};
  const messageError = fieldErrorsOf(reject.error).message;
  const qcErrors = fieldErrorsOf(approve.error);
  return (
    <li className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{items}</h2>
      <dl>
        <dt>Reason</dt>
        <dd>{REASONS[request.reason] ?? request.reason}</dd>
        {request.comment && (
          <>
            <dt>Buyer's comment</dt>
            <dd>{request.comment}</dd>
          </>
        )}
        <dt>Wants</dt>
        <dd>
          {request.resolution === 'exchange'
            ? `An exchange${request.exchange_for ? ` for ${request.exchange_for}` : ''}`
            : `Their money back, ${refundTo(request.refund_to)}`}
        </dd>
        <dt>Buyer's history</dt>
        <dd>{buyerHistory(request.buyer_history)}</dd>
        <dt>Pickup</dt>
        <dd>
          {request.pickup_address.name}, {request.pickup_address.city} {request.pickup_address.pincode}
        </dd>
        <dt>Photos</dt>
        <dd>
          {request.photos.length === 0 ? (
            'None'
          ) : (
            // Served to the session like every account route; each opens at full size.
            <ul className="photos">
              {request.photos.map((photo, i) => (
                <li key={photo.url}>
                  <a href={photo.url} target="_blank" rel="noreferrer">
                    <img
                      src={photo.url}
                      alt={`Sent by the buyer, ${i + 1} of ${request.photos.length}`}
                      width={96}
                      height={Math.round((96 * photo.height) / photo.width)}
                      loading="lazy"
                    />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Asked</dt>
        <dd>{formatDateTime(request.created_at)}</dd>
      </dl>
      <ErrorSummary error={approve.error} />
      {!rejecting && (
        <fieldset className="qc">
          <legend className="visually-hidden">How to approve</legend>
          <SelectField
            label="Give the buyer"
            value={giving}
            onChange={(event) => setGiving(event.target.value as typeof giving)}
            options={[
              {
                value: 'exchange',
                label: request.resolution === 'exchange' ? 'An exchange, as asked' : 'An exchange instead',
              },
              {
                value: 'refund',
                label: request.resolution === 'refund' ? 'Their money back, as asked' : 'Their money back instead',
              },
            ]}
          />
          <label className="choice">
            <input type="checkbox" checked={qc} onChange={(event) => setQc(event.target.checked)} />
            Have the courier check {checkable.length === 1 ? 'the item' : 'the items'} at pickup (QC)
          </label>
          {qc &&
            checkable.map((item) => (
              <Field
                key={item.sku}
                label={`Picture of ${item.name} (URL)`}
                type="url"
                hint="The courier compares the item with it at the doorstep; leave empty to skip this item"
                value={pictures[item.sku] ?? ''}
                onChange={(event) => setPictures({ ...pictures, [item.sku]: event.target.value })}
                error={qcErrors[`qc.items.${qcItems.findIndex((q) => q.sku === item.sku)}.image_url`]}
              />
            ))}
        </fieldset>
      )}
      {!rejecting ? (
        <div className="actions">
          <button type="button" disabled={approve.isPending} onClick={() => approve.mutate()}>
            {exchange ? 'Approve and book the exchange' : 'Approve and book the return'}
          </button>
          <button type="button" className="secondary" onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      ) : (
        <form onSubmit={submitRejection} aria-label={`Reject ${items}`} noValidate>
          <label htmlFor={`${headingId}-message`}>Message to the buyer</label>
          {messageError && (
            <p className="error" id={`${headingId}-message-error`}>
              {messageError}
            </p>
          )}
          <textarea
            id={`${headingId}-message`}
            name="message"
            maxLength={500}
            rows={3}
            aria-invalid={messageError ? true : undefined}
            aria-describedby={messageError ? `${headingId}-message-error` : undefined}
          />
          <div className="actions">
            <button type="submit" className="danger" disabled={reject.isPending}>
              Reject the request
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
