// The bulk import's CSV: its columns, and each row made into the body of an order as the API takes
// it. Pure and without imports, so that the tests send what the panel sends (test/bulk-import.test.ts).
// The columns are the API's own field names (one item per row), so its field errors name a column.

export const COLUMNS = [
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
/**
 * Read when the file has them: an item's HSN code, the e-way bill of an order that needs one, the
 * buyer's GSTIN for a B2B invoice (docs/paperwork.md), and the boxes of an order in several.
 */
export const OPTIONAL_COLUMNS = ['hsn', 'ewaybill_no', 'ewaybill_date', 'billing_gstin', 'packages'] as const;
export const TEMPLATE = `${COLUMNS.join(',')}\r\nORD-1001,2026-11-20 14:30,Asha,Menon,12 Marine Drive,Mumbai,Maharashtra,400001,9123456780,asha@example.com,Cotton Kurta,KURTA-M-BLUE,2,499,Prepaid,10,10,10,0.5\r\n`;

/** An order as a row makes it: the API's body (warehouse and store as the merchant chose them for every row). */
export type RowBody = { order_id: string } & Record<string, unknown>;
export interface RowProblem {
  field: string;
  reason: string;
}
export interface CsvRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  body: RowBody;
  problems: RowProblem[];
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
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

/** A number as the cell has it: a finite number, else undefined. */
const finite = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));

/**
 * The `packages` cell: the boxes of an order in several, `weight x length x breadth x height` (kg,
 * cm) each, separated by `;`: "1.5x30x20x10; 2x40x30x20". Each box that is not four numbers is a
 * problem naming it; whether the numbers are right (above 0, at most 500) the API says.
 */
export function readPackagesCell(cell: string): {
  packages: { weight: number; length: number; breadth: number; height: number }[];
  problems: RowProblem[];
} {
  const boxes = cell
    .split(';')
    .map((box) => box.trim())
    .filter((box) => box !== '');
  const problems: RowProblem[] = [];
  const packages = boxes.flatMap((box, b) => {
    const sides = box.split(/\s*[x×]\s*/i).map(finite);
    if (sides.length === 4 && sides.every((side) => side !== undefined)) {
      const [weight, length, breadth, height] = sides as number[];
      return [{ weight: weight!, length: length!, breadth: breadth!, height: height! }];
    }
    problems.push({
      field: `packages (box ${b + 1})`,
      reason: `Box ${b + 1} is "${box}": write each box as weight x length x breadth x height (kg, cm), e.g. 1.5x30x20x10, boxes separated by ;`,
    });
    return [];
  });
  return { packages, problems };
}

/** One row as the API's order body, and what is wrong with it before the API is asked. */
export function orderOf(cells: Record<string, string>, warehouseId: string, storeName: string) {
  const units = number(cells.units);
  const price = number(cells.selling_price);
  const subTotal = (units ?? 0) * (price ?? 0);
  const cod = /^cod$/i.test(cells.payment_method ?? '');
  const boxes = cells.packages ? readPackagesCell(cells.packages) : undefined;
  // With boxes, an empty weight is their total; a weight given must be it (the API says when it is not).
  const weight =
    boxes && (cells.weight ?? '').trim() === ''
      ? Math.round(boxes.packages.reduce((sum, box) => sum + box.weight, 0) * 1000) / 1000
      : number(cells.weight);
  const body = {
    order_id: cells.order_id ?? '',
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
    ...(cells.billing_gstin && { billing_gstin: cells.billing_gstin.toUpperCase() }),
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
    weight,
    ...(boxes && { packages: boxes.packages }),
    warehouse_id: warehouseId,
    ...(storeName && { store_name: storeName }),
    ...(cells.ewaybill_no && { ewaybill_no: cells.ewaybill_no }),
    ...(cells.ewaybill_date && { ewaybill_date: cells.ewaybill_date }),
  };
  // NaN is not JSON: a cell that is not a number goes as null, which the API names as the field at fault.
  return {
    body: JSON.parse(JSON.stringify(body, (_k, v) => (Number.isNaN(v) ? null : v))) as RowBody,
    problems: boxes?.problems ?? [],
  };
}

/**
 * The file's rows as orders, each with the problems seen before the API is asked (a box that is not
 * four numbers, an order id on an earlier row); or what is wrong with the file as a whole.
 */
export function rowsOf(text: string, warehouseId: string, storeName: string): CsvRow[] | string {
  const [header, ...lines] = parseCsv(text);
  const names = (header ?? []).map((h) => h.trim());
  const missing = COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0)
    return `The file lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: start from the template`;
  if (lines.length === 0) return 'The file has no rows under its header';
  const seen = new Set<string>();
  return lines.map((cells, i) => {
    const row: CsvRow = {
      line: i + 2,
      ...orderOf(Object.fromEntries(names.map((h, j) => [h, (cells[j] ?? '').trim()])), warehouseId, storeName),
    };
    if (seen.has(row.body.order_id))
      row.problems.push({ field: 'order_id', reason: `${row.body.order_id} is on an earlier row too` });
    seen.add(row.body.order_id);
    return row;
  });
}

/**
 * The API's field errors in the import's words: the item's fields by their column (order_items.0.units
 * → units), a box's by the packages column and the box's number (packages.1.weight → "packages (box 2
 * weight)", its message "Box 2 weight must be…").
 */
export function rowProblems(details: readonly { field: string; message: string }[]): RowProblem[] {
  return details.map(({ field, message }) => {
    const box = /^packages\.(\d+)\.(\S+)$/.exec(field);
    if (!box) return { field: field.replace(/^order_items\.0\./, ''), reason: message };
    const what = `box ${Number(box[1]) + 1} ${box[2]!.replace(/\./g, ' ')}`;
    return {
      field: `packages (${what})`,
      reason: message.startsWith(`${field} `) ? `B${what.slice(1)}${message.slice(field.length)}` : message,
    };
  });
}
