import { type FormEvent, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import { LabelsDownload } from '../labels';
import { useStoreLimited } from '../permissions';
import { useTitle } from '../router';
import { EmptyState, Field, Loading, SelectField } from '../ui';
import { OPTIONAL_COLUMNS, rowProblems, rowsOf, TEMPLATE } from './bulk-import-csv';
import { useReferenceData } from './reference';

type OrderBody = PostBody<'/custom/api/v1/forward-order-orchestration'>;
/** Rows checked or booked at once: enough to keep the server busy, not enough to meet the rate limit. */
const PARALLEL = 4;

interface Row {
  line: number;
  body: OrderBody;
  key: string;
  problems: { field: string; reason: string }[];
  awb?: string | null;
}

const problemsOf = (error: unknown) =>
  error instanceof ApiError && error.details.length > 0
    ? rowProblems(error.details)
    : [{ field: '—', reason: error instanceof Error ? error.message : String(error) }];

/** Runs `work` on every item, PARALLEL at a time, reporting how many are done. */
async function eachLimited<T>(items: T[], work: (item: T) => Promise<void>, progress: (done: number) => void) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      await work(items[next++]!);
      progress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
}

/** Upload a CSV of orders: every row checked before any is booked; then the valid rows booked. */
export function BulkImport() {
  useTitle('Bulk import');
  const reference = useReferenceData();
  const limited = useStoreLimited();
  const [rows, setRows] = useState<Row[]>([]);
  const [stage, setStage] = useState<'idle' | 'checking' | 'checked' | 'booking' | 'booked'>('idle');
  const [done, setDone] = useState(0);
  const [total, setTotal] = useState(0);
  const [fileError, setFileError] = useState<string | undefined>();
  const [template] = useState(() => URL.createObjectURL(new Blob([TEMPLATE], { type: 'text/csv' })));

  if (!reference.loaded) return <Loading what="your warehouses" />;
  const valid = rows.filter((r) => r.problems.length === 0);
  const errors = rows.flatMap((r) => r.problems.map((p) => ({ ...p, line: r.line, orderId: r.body.order_id })));

  const check = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get('file');
    setFileError(undefined);
    if (!(file instanceof File) || file.size === 0) return setFileError('Choose a CSV file of orders');
    const read = rowsOf(await file.text(), String(form.get('warehouse_id')), String(form.get('store_name') ?? ''));
    if (typeof read === 'string') return setFileError(read);
    const parsed: Row[] = read.map((row) => ({ ...row, body: row.body as OrderBody, key: crypto.randomUUID() }));
    const ready = parsed.filter((r) => r.problems.length === 0);
    setRows(parsed);
    setDone(0);
    setTotal(ready.length);
    setStage('checking');
    await eachLimited(
      ready,
      async (row) => {
        try {
          await unwrap(api.POST('/custom/api/v1/forward-order/check', { body: row.body }));
        } catch (error) {
          row.problems = problemsOf(error);
        }
      },
      setDone,
    );
    setRows([...parsed]);
    setStage('checked');
  };

  const bookAll = async () => {
    setDone(0);
    setTotal(valid.length);
    setStage('booking');
    await eachLimited(
      valid,
      async (row) => {
        try {
          const booked = await unwrap(
            api.POST('/custom/api/v1/forward-order-orchestration', {
              body: row.body,
              params: { header: { 'idempotency-key': row.key } },
            }),
          );
          row.awb = booked.payload.awb_code;
        } catch (error) {
          row.problems = problemsOf(error);
        }
      },
      setDone,
    );
    setRows([...rows]);
    setStage('booked');
  };

  const booked = rows.filter((r) => r.awb !== undefined);
  return (
    <section>
      <h1>Bulk import</h1>
      <p>
        Upload a CSV of orders, one item per row, with the columns of the{' '}
        <a href={template} download="dakiya-orders-template.csv">
          template
        </a>
        , and optionally {OPTIONAL_COLUMNS.join(', ')} (an order over ₹50,000 needs its e-way bill). Every row is
        checked before any is booked.
      </p>
      <p className="hint">
        An order in several boxes (2 to 20) lists them in its packages column, each as weight x length x breadth x
        height in kg and cm, separated by ;, e.g. 1.5x30x20x10;2x40x30x20. Its weight may then be left empty: it is the
        boxes' total.
      </p>
      {reference.warehouses.length === 0 ? (
        <EmptyState title="No warehouse yet">
          <p>Orders are picked up from a warehouse: add one in Settings first.</p>
        </EmptyState>
      ) : (
        <form onSubmit={(event) => void check(event)} noValidate className="order-form" aria-label="Upload orders">
          <fieldset>
            <legend>Upload orders</legend>
            <SelectField
              label="Pick up from"
              name="warehouse_id"
              options={reference.warehouses.map((w) => ({ value: w.id, label: w.name }))}
            />
            {(reference.stores.length > 0 || limited) && (
              <SelectField
                label="Store of every row"
                name="store_name"
                // A member limited to stores books into one of theirs (the list holds only theirs).
                defaultValue={reference.stores.length === 1 || limited ? (reference.stores[0]?.store_name ?? '') : ''}
                options={[
                  ...(limited ? [] : [{ value: '', label: 'No store' }]),
                  ...reference.stores.map((s) => ({ value: s.store_name, label: s.brand_name ?? s.store_name })),
                ]}
              />
            )}
            <Field label="Orders CSV" name="file" type="file" accept=".csv,text/csv" error={fileError} />
            <div className="actions">
              <button type="submit" disabled={stage === 'checking' || stage === 'booking'}>
                Check rows
              </button>
            </div>
          </fieldset>
        </form>
      )}
      {(stage === 'checking' || stage === 'booking') && (
        <p>
          <label>
            {stage === 'checking' ? 'Checking rows' : 'Booking rows'} ({done} of {total}){' '}
            <progress max={total} value={done} />
          </label>
        </p>
      )}
      {stage === 'checked' && (
        <div className="actions">
          <p role="status">
            {valid.length} of {rows.length} rows can be booked; {rows.length - valid.length} have errors.
          </p>
          {valid.length > 0 && (
            <button type="button" onClick={() => void bookAll()}>
              Book {valid.length} valid rows
            </button>
          )}
        </div>
      )}
      {stage === 'booked' && (
        <div className="actions">
          <p role="status">Booked {booked.length} shipments. Find them under Shipments.</p>
          <LabelsDownload awbs={booked.flatMap((r) => (r.awb ? [r.awb] : []))}>Download all labels</LabelsDownload>
        </div>
      )}
      {errors.length > 0 && (
        <table className="data">
          <caption>Row errors</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Order id</th>
              <th scope="col">Field</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e) => (
              <tr key={`${e.line}-${e.field}-${e.reason}`}>
                <td data-label="Row">{e.line}</td>
                <td data-label="Order id">{e.orderId}</td>
                <td data-label="Field">{e.field}</td>
                <td data-label="Reason">{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {booked.length > 0 && (
        <table className="data">
          <caption>Booked</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Order id</th>
              <th scope="col">AWB</th>
            </tr>
          </thead>
          <tbody>
            {booked.map((r) => (
              <tr key={r.line}>
                <td data-label="Row">{r.line}</td>
                <td data-label="Order id">{r.body.order_id}</td>
                <td data-label="AWB">{r.awb ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
