import { type FormEvent, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import { LabelsDownload } from '../labels';
import { useStoreLimited } from '../permissions';
import { useTitle } from '../router';
import { EmptyState, Field, Loading, SelectField } from '../ui';
import { useReferenceData } from './reference';

type OrderBody = PostBody<'/custom/api/v1/forward-order-orchestration'>;

// The columns are the API's own field names (one item per row), so its field errors name a column.
const COLUMNS = [
  'order_id',
  'order_date',
  'billing_customer_name',
  'billing_last_name',
  'billing_address',
  'billing_city',
  'billing_state',
  'billing_pincode',
  'billing_phone',
  'billing_email',
  'item_name',
  'sku',
  'units',
  'selling_price',
  'payment_method',
  'length',
  'breadth',
  'height',
  'weight',
] as const;
/** Read when the file has them: an item's HSN code, and the e-way bill of an order that needs one (docs/paperwork.md). */
const OPTIONAL_COLUMNS = ['hsn', 'ewaybill_no', 'ewaybill_date'] as const;
const TEMPLATE = `${COLUMNS.join(',')}\r\nORD-1001,2026-11-20 14:30,Asha,Menon,12 Marine Drive,Mumbai,Maharashtra,400001,9123456780,asha@example.com,Cotton Kurta,KURTA-M-BLUE,2,499,Prepaid,10,10,10,0.5\r\n`;
/** Rows checked or booked at once: enough to keep the server busy, not enough to meet the rate limit. */
const PARALLEL = 4;

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

const number = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : Number(text));

function orderOf(cells: Record<string, string>, warehouseId: string, storeName: string): OrderBody {
  const units = number(cells.units);
  const price = number(cells.selling_price);
  const subTotal = (units ?? 0) * (price ?? 0);
  const cod = /^cod$/i.test(cells.payment_method ?? '');
  const body = {
    order_id: cells.order_id,
    order_date: cells.order_date,
    billing_customer_name: cells.billing_customer_name,
    billing_last_name: cells.billing_last_name,
    billing_address: cells.billing_address,
    billing_city: cells.billing_city,
    billing_state: cells.billing_state,
    billing_pincode: cells.billing_pincode,
    billing_country: 'India',
    billing_phone: cells.billing_phone,
    ...(cells.billing_email && { billing_email: cells.billing_email }),
    shipping_is_billing: true,
    print_label: true,
    order_items: [
      { name: cells.item_name, sku: cells.sku, units, selling_price: price, ...(cells.hsn && { hsn: cells.hsn }) },
    ],
    payment_method: cells.payment_method,
    sub_total: subTotal,
    ...(cod && { cod_collectible: subTotal }),
    length: number(cells.length),
    breadth: number(cells.breadth),
    height: number(cells.height),
    weight: number(cells.weight),
    warehouse_id: warehouseId,
    ...(storeName && { store_name: storeName }),
    ...(cells.ewaybill_no && { ewaybill_no: cells.ewaybill_no }),
    ...(cells.ewaybill_date && { ewaybill_date: cells.ewaybill_date }),
  };
  // NaN is not JSON: a cell that is not a number goes as null, which the API names as the field at fault.
  return JSON.parse(JSON.stringify(body, (_k, v) => (Number.isNaN(v) ? null : v))) as OrderBody;
}

interface Row {
  line: number;
  body: OrderBody;
  key: string;
  problems: { field: string; reason: string }[];
  awb?: string | null;
}

const problemsOf = (error: unknown) =>
  error instanceof ApiError && error.details.length > 0
    ? error.details.map((d) => ({ field: d.field.replace(/^order_items\.0\./, ''), reason: d.message }))
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
    const [header, ...lines] = parseCsv(await file.text());
    const missing = COLUMNS.filter((c) => !header?.map((h) => h.trim()).includes(c));
    if (missing.length > 0)
      return setFileError(
        `The file lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: start from the template`,
      );
    if (lines.length === 0) return setFileError('The file has no rows under its header');
    const parsed: Row[] = lines.map((cells, i) => ({
      line: i + 2,
      body: orderOf(
        Object.fromEntries(header!.map((h, j) => [h.trim(), (cells[j] ?? '').trim()])),
        String(form.get('warehouse_id')),
        String(form.get('store_name') ?? ''),
      ),
      key: crypto.randomUUID(),
      problems: [],
    }));
    const seen = new Set<string>();
    for (const row of parsed) {
      if (seen.has(row.body.order_id))
        row.problems.push({ field: 'order_id', reason: `${row.body.order_id} is on an earlier row too` });
      seen.add(row.body.order_id);
    }
    const unique = parsed.filter((r) => r.problems.length === 0);
    setRows(parsed);
    setDone(0);
    setTotal(unique.length);
    setStage('checking');
    await eachLimited(
      unique,
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
