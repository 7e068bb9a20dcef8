import { type SQL, sql } from 'drizzle-orm';
import { csvCell } from '../../domain/csv.js';

// The export's spreadsheets (issue 52): beside every table's JSON lines, the main tables again as
// CSV with the columns a merchant opens a spreadsheet for, written in the same pass over the rows.
// Money is in rupees (the tables keep paise); cells are made safe by domain/csv.ts (RFC 4180
// quoting, a formula-like text led by an apostrophe), as every CSV Dakiya hands out.

export interface Sheet {
  /** The file in the archive. */
  file: string;
  /** The table's columns, in the sheet's order; a `_paise` column is written in rupees as `_rupees`. */
  columns: string[];
  /** Columns of other tables, by the row `t`: the order's own id beside its shipment. */
  extra?: Record<string, SQL>;
}

export const SHEETS: Record<string, Sheet> = {
  shipments: {
    file: 'shipments.csv',
    columns: [
      'id',
      'awb',
      'carrier_id',
      'status',
      'sub_status',
      'is_cod',
      'cod_amount_paise',
      'total_price_paise',
      'freight_paise',
      'cod_charges_paise',
      'rto_charges_paise',
      'applied_weight_grams',
      'zone',
      'channel',
      'order_date',
      'created_at',
      'assigned_at',
      'picked_up_at',
      'delivered_at',
      'cancelled_at',
      'rto_initiated_at',
      'rto_delivered_at',
      'expected_delivery_date',
      'attempt_count',
      'ndr_reason',
      'rto_reason',
      'skus',
      'tags',
      'test_mode',
      'order_id',
      'store_id',
      'warehouse_id',
    ],
    extra: { merchant_order_id: sql`(select o.merchant_order_id from orders o where o.id = t.order_id)` },
  },
  orders: {
    file: 'orders.csv',
    columns: [
      'id',
      'merchant_order_id',
      'order_date',
      'created_at',
      'channel',
      'payment_method',
      'sub_total_paise',
      'cod_collectible_paise',
      'total_discount_paise',
      'billing_name',
      'billing_last_name',
      'billing_phone',
      'billing_email',
      'billing_address',
      'billing_address_2',
      'billing_city',
      'billing_state',
      'billing_pincode',
      'shipping_name',
      'shipping_last_name',
      'shipping_phone',
      'shipping_email',
      'shipping_address',
      'shipping_address_2',
      'shipping_city',
      'shipping_state',
      'shipping_pincode',
      'weight_grams',
      'length_cm',
      'breadth_cm',
      'height_cm',
      'tags',
      'channel_order_name',
      'store_id',
      'warehouse_id',
    ],
  },
  returns: {
    file: 'returns.csv',
    columns: [
      'id',
      'merchant_order_id',
      'awb',
      'carrier_id',
      'status',
      'sub_status',
      'qc_status',
      'qc_reason',
      'payment_method',
      'sub_total_paise',
      'freight_paise',
      'qc_paise',
      'order_date',
      'created_at',
      'picked_up_at',
      'delivered_at',
      'cancelled_at',
      'forward_shipment_id',
      'shipment_id',
      'warehouse_id',
    ],
  },
  cod_remittances: {
    file: 'cod_remittances.csv',
    columns: [
      'id',
      'awb',
      'carrier_id',
      'amount_paise',
      'utr',
      'remittance_date',
      'shipment_id',
      'import_id',
      'created_at',
    ],
  },
};

const PAISE = /_paise$/;

/** The sheet's header line: its columns (money renamed to rupees), then its extra columns. */
export function sheetHeader(sheet: Sheet): string {
  const names = [...sheet.columns.map((c) => c.replace(PAISE, '_rupees')), ...Object.keys(sheet.extra ?? {})];
  return `${names.map(csvCell).join(',')}\r\n`;
}

/** Paise as rupees with two decimals, exactly (no floating point): -12345 → -123.45. */
export function rupees(paise: number | string): string {
  const whole = BigInt(paise);
  const sign = whole < 0n ? '-' : '';
  const abs = whole < 0n ? -whole : whole;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** One cell from a column's JSON text: lists joined by "; ", objects as JSON, money in rupees. */
function cell(column: string, json: string | null): string {
  if (json === null) return '';
  const value: unknown = JSON.parse(json);
  if (value === null) return '';
  if (PAISE.test(column) && (typeof value === 'number' || typeof value === 'string')) return rupees(value);
  if (Array.isArray(value))
    return csvCell(value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join('; '));
  if (typeof value === 'object') return csvCell(JSON.stringify(value));
  return csvCell(value as string | number | boolean);
}

/** One CSV line of a row: `json` maps each of the table's read columns to its JSON text. */
export function sheetLine(sheet: Sheet, json: Map<string, string | null>, extra: (string | null)[]): string {
  const cells = [
    ...sheet.columns.map((column) => cell(column, json.get(column) ?? null)),
    ...Object.keys(sheet.extra ?? {}).map((name, i) => cell(name, extra[i] ?? null)),
  ];
  return `${cells.join(',')}\r\n`;
}
