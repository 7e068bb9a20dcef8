import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import type { components, paths } from '../api/schema';
import { formatDateTime, formatRupees, statusLabel } from '../format';
import { ErrorSummary } from '../ui';
import { exportHref, ListingTab, type Query, useCursorPages } from './money-kit';

// What shipping costs: each booked shipment's charge lines, and the couriers' weight disputes the
// merchant accepts or contests with photos.

type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
type ChargesPage = paths['/custom/api/v1/shipping-charges']['get']['responses'][200]['content']['application/json'];
type Charge = ChargesPage['data'][number];
type Discrepancy = components['schemas']['WeightDiscrepancy'];
type Options = { value: string; label: string }[];

/** The API's limits on dispute evidence (docs/money.md): checked here first, so a wrong pick costs no upload. */
const MAX_IMAGES = 5;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** Asked for without format=csv, these listings answer JSON; their typed answer also allows the CSV's text. */
const json = <T,>(answer: Promise<T | string>) => answer as Promise<T>;

const grams = (g: number) => `${new Intl.NumberFormat('en-IN').format(g)} g`;

const charge = createColumnHelper<Charge>();
/** The charges' columns; the API names a courier service by its id, the screen by its name. */
const chargeColumns = (courier: (id: string) => string) => [
  charge.accessor('awb', { header: 'AWB' }),
  charge.accessor('order_id', { header: 'Order' }),
  charge.accessor('carrier_id', { header: 'Courier', cell: (c) => courier(c.getValue()) }),
  charge.accessor('status', { header: 'Status', cell: (c) => statusLabel(c.getValue()) }),
  charge.accessor('forward_freight', { header: 'Freight', cell: (c) => formatRupees(c.getValue()) }),
  charge.accessor('cod_fee', { header: 'COD fee', cell: (c) => formatRupees(c.getValue()) }),
  charge.accessor('rto_freight', { header: 'RTO freight', cell: (c) => formatRupees(c.getValue()) }),
  charge.accessor('weight_adjustment', {
    header: 'Weight adjustment',
    cell: (c) =>
      `${formatRupees(c.getValue())}${c.row.original.weight_adjustment_state ? ` (${c.row.original.weight_adjustment_state})` : ''}`,
  }),
  charge.accessor('total_charges', { header: 'Charged', cell: (c) => formatRupees(c.getValue()) }),
  charge.accessor('pending_charges', { header: 'Pending', cell: (c) => formatRupees(c.getValue()) }),
];

const nameOf = (couriers: Options) => (id: string) => couriers.find((c) => c.value === id)?.label ?? id;

/** Every booked shipment's charges: freight and COD fee at booking, RTO freight, weight adjustments. */
export function Charges({ couriers }: { couriers: Options }) {
  const [query, setQuery] = useState<Query>({});
  const list = useCursorPages('charges', query, (q) =>
    json(
      unwrap(
        api.GET('/custom/api/v1/shipping-charges', {
          params: { query: q as QueryOf<'/custom/api/v1/shipping-charges'> },
        }),
      ),
    ),
  );
  return (
    <>
      <ListingTab
        what="charges"
        specs={[
          { name: 'carrier_id', label: 'Courier', options: couriers },
          { name: 'from', label: 'Booked from', type: 'date' },
          { name: 'to', label: 'Booked to', type: 'date' },
        ]}
        query={query}
        onApply={setQuery}
        csvHref={exportHref('/custom/api/v1/shipping-charges', { ...query, format: 'csv' })}
        caption="Shipping charges, newest shipment first"
        columns={chargeColumns(nameOf(couriers))}
        rowId={(r) => r.shipment_id}
        list={list}
        empty={{
          title: 'No charges yet',
          text: 'Each shipment booked with a courier is charged its quoted freight: book one to see it here.',
        }}
        unmatched={{ title: 'No charges match' }}
      />
    </>
  );
}

const DISPUTE_STATES: Options = ['open', 'disputed', 'accepted', 'won', 'lost'].map((s) => ({
  value: s,
  label: statusLabel(s),
}));

/** The couriers' weight discrepancies: accept the extra charge, or dispute it with photos and a comment. */
export function WeightDisputes({ couriers }: { couriers: Options }) {
  const [query, setQuery] = useState<Query>({});
  const [disputing, setDisputing] = useState<Discrepancy | undefined>();
  const list = useCursorPages('disputes', query, (q) =>
    json(
      unwrap(
        api.GET('/custom/api/v1/weight-disputes', {
          params: { query: q as QueryOf<'/custom/api/v1/weight-disputes'> },
        }),
      ),
    ),
  );
  const d = createColumnHelper<Discrepancy>();
  const columns = [
    d.accessor('awb', { header: 'AWB' }),
    d.accessor('carrier_id', { header: 'Courier', cell: (c) => nameOf(couriers)(c.getValue()) }),
    d.accessor('state', {
      header: 'State',
      cell: (c) => <span className={`status money-${c.getValue()}`}>{statusLabel(c.getValue())}</span>,
    }),
    d.accessor('declared_weight', { header: 'Declared', cell: (c) => grams(c.getValue()) }),
    d.accessor('charged_weight', { header: 'Charged weight', cell: (c) => grams(c.getValue()) }),
    d.accessor('extra_charge', { header: 'Extra charge', cell: (c) => formatRupees(c.getValue()) }),
    d.accessor('due_at', {
      header: 'Accepted automatically',
      cell: (c) => (c.row.original.state === 'open' ? formatDateTime(c.getValue()) : '—'),
    }),
    d.display({
      id: 'action',
      header: 'Action',
      cell: (c) => <DisputeActions discrepancy={c.row.original} onDispute={setDisputing} />,
    }),
  ];
  return (
    <>
      <ListingTab
        what="weight disputes"
        specs={[
          { name: 'state', label: 'State', options: DISPUTE_STATES },
          { name: 'carrier_id', label: 'Courier', options: couriers },
          { name: 'from', label: 'Opened from', type: 'date' },
          { name: 'to', label: 'Opened to', type: 'date' },
        ]}
        query={query}
        onApply={setQuery}
        csvHref={exportHref('/custom/api/v1/weight-disputes', { ...query, format: 'csv' })}
        caption="Weight disputes, newest first"
        columns={columns}
        rowId={(r) => r.id}
        list={list}
        empty={{
          title: 'No weight disputes',
          text: 'When a courier weighs a parcel heavier than booked, the extra charge appears here for you to accept or dispute.',
        }}
        unmatched={{ title: 'No weight disputes match' }}
      />
      {disputing && <DisputeForm key={disputing.id} discrepancy={disputing} onClose={() => setDisputing(undefined)} />}
    </>
  );
}

function DisputeActions({ discrepancy, onDispute }: { discrepancy: Discrepancy; onDispute: (d: Discrepancy) => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const accept = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/custom/api/v1/weight-disputes/{id}/accept', { params: { path: { id: discrepancy.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['money'] }),
  });
  if (discrepancy.state !== 'open')
    return (
      <>
        {discrepancy.evidence.length > 0
          ? `${discrepancy.evidence.length} photo${discrepancy.evidence.length === 1 ? '' : 's'} sent`
          : '—'}
      </>
    );
  return (
    <div className="row-actions">
      {confirming ? (
        <>
          <button type="button" disabled={accept.isPending} onClick={() => accept.mutate()}>
            Confirm: pay {formatRupees(discrepancy.extra_charge)}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Keep open
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            aria-label={`Accept the extra charge of ${discrepancy.awb}`}
            onClick={() => setConfirming(true)}
          >
            Accept
          </button>
          <button
            type="button"
            className="secondary"
            aria-label={`Dispute the weight of ${discrepancy.awb}`}
            onClick={() => onDispute(discrepancy)}
          >
            Dispute
          </button>
        </>
      )}
      <ErrorSummary error={accept.error} />
    </div>
  );
}

/** Why the picked photos cannot be sent, as the API would say it; undefined when they can. */
function imagesProblem(files: File[]): string | undefined {
  if (files.length === 0) return 'Add at least one photo of the packed parcel';
  if (files.length > MAX_IMAGES) return `At most ${MAX_IMAGES} photos (${files.length} chosen)`;
  const wrong = files.find((f) => !IMAGE_TYPES.includes(f.type));
  if (wrong) return `${wrong.name} is not a PNG, JPEG, WebP or GIF image`;
  const large = files.find((f) => f.size > MAX_IMAGE_BYTES);
  if (large) return `${large.name} is larger than 2 MB`;
  return undefined;
}

/** The API's field errors by field; a photo's (`images/2`) under `images`, naming the file instead of its index. */
function serverErrors(error: unknown, files: File[]): Record<string, string> {
  const byField: Record<string, string> = {};
  if (!(error instanceof ApiError)) return byField;
  for (const detail of error.details) {
    const [field = detail.field, index] = detail.field.split('/');
    const file = index === undefined ? undefined : files[Number(index)];
    byField[field] ??= file ? detail.message.replace(detail.field, file.name) : detail.message;
  }
  return byField;
}

function DisputeForm({ discrepancy, onClose }: { discrepancy: Discrepancy; onClose: () => void }) {
  const queryClient = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const [comment, setComment] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [local, setLocal] = useState<Record<string, string>>({});
  useEffect(() => heading.current?.focus(), []);
  const send = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append('comment', comment);
      for (const file of files) form.append('images', file, file.name);
      return unwrap(
        api.POST('/custom/api/v1/weight-disputes/{id}/dispute', {
          params: { path: { id: discrepancy.id } },
          body: { comment, images: [] },
          bodySerializer: () => form,
        }),
      );
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['money'] });
      onClose();
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!comment.trim()) problems.comment = 'Say why the charged weight is wrong';
    const images = imagesProblem(files);
    if (images) problems.images = images;
    setLocal(problems);
    if (Object.keys(problems).length === 0) send.mutate();
  };
  const errors = { ...serverErrors(send.error, files), ...local };
  return (
    <section className="card dispute" aria-labelledby="dispute-heading">
      <h2 id="dispute-heading" ref={heading} tabIndex={-1}>
        Dispute the weight of {discrepancy.awb}
      </h2>
      <p>
        The courier charged {grams(discrepancy.charged_weight)} against {grams(discrepancy.declared_weight)} booked:{' '}
        {formatRupees(discrepancy.extra_charge)} more. Send up to {MAX_IMAGES} photos (2 MB each) of the packed parcel
        on a scale and with its measures.
      </p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="dispute-comment">Why the charged weight is wrong</label>
          <textarea
            id="dispute-comment"
            rows={3}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            aria-invalid={errors.comment ? true : undefined}
            aria-describedby={errors.comment ? 'dispute-comment-error' : undefined}
          />
          {errors.comment && (
            <small id="dispute-comment-error" className="field-error">
              {errors.comment}
            </small>
          )}
        </div>
        <div className="field">
          <label htmlFor="dispute-images">Photos of the packed parcel</label>
          <input
            id="dispute-images"
            type="file"
            multiple
            accept={IMAGE_TYPES.join(',')}
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
            aria-invalid={errors.images ? true : undefined}
            aria-describedby={errors.images ? 'dispute-images-error' : undefined}
          />
          {errors.images && (
            <small id="dispute-images-error" className="field-error">
              {errors.images}
            </small>
          )}
        </div>
        <ErrorSummary error={send.error} />
        <div className="actions">
          <button type="submit" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send the dispute'}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
