import { EKART_ALIAS_NOT_FOUND } from '../../couriers/fixtures/ekart.fixtures.js';

/** What Ekart's simulator checks of a create body (PUT /api/v1/package/create), and the barcodes it answers. */

/** The waybill of the vendor partner Ekart "chose" for a parcel: digits, unlike the Ekart tracking id. */
export const vendorWaybill = (trackingId: string) => `3180${trackingId.slice('500999A'.length)}`;

/**
 * The create answer's `barcodes`, the plain text of the barcodes on Ekart's label: the vendor
 * waybill, the order number and, as some vendors do, a COD waybill on a cash-on-delivery parcel.
 */
export function barcodesOf(trackingId: string, body: Record<string, unknown>) {
  const wbn = vendorWaybill(trackingId);
  return { wbn, order: String(body.order_number), ...(body.payment_mode === 'COD' && { cod: `C${wbn}` }) };
}

const REQUIRED = [
  'seller_name',
  'seller_address',
  'order_number',
  'invoice_number',
  'invoice_date',
  'consignee_name',
  'consignee_alternate_phone',
  'payment_mode',
  'category_of_goods',
  'products_desc',
  'total_amount',
  'cod_amount',
  'taxable_amount',
  'commodity_value',
  'quantity',
  'weight',
  'drop_location',
  'pickup_location',
  'return_location',
  'length',
  'height',
  'width',
];

const invalid = (description: string) => ({
  status: 400,
  body: { statusCode: 400, code: 'VALIDATION_EXCEPTION', message: 'Invalid request', description, severity: 'ERROR' },
});

/**
 * Ekart's answer to a create it does not take, or undefined when it takes it: a missing field, a
 * pickup or return location named by an alias the account has not registered (404
 * SWIFT_RESOURCE_NOT_FOUND_EXCEPTION, fixtures/ekart.fixtures.ts), a drop pincode it does not serve
 * (HTTP 200, status false), too much cash on delivery.
 */
export function createRefusal(
  body: Record<string, unknown>,
  hasAlias: (alias: unknown) => boolean,
): { status: number; body: unknown } | undefined {
  const missing = REQUIRED.filter((field) => body[field] === undefined || body[field] === null);
  if (missing.length > 0) return invalid(`Missing ${missing.join(', ')}`);
  const named = [body.pickup_location, body.return_location].map((l) => (l as Record<string, unknown>).name);
  if (named.some((alias) => !hasAlias(alias))) return { status: 404, body: { ...EKART_ALIAS_NOT_FOUND } };
  const drop = body.drop_location as Record<string, unknown>;
  if (String(drop.pin).startsWith('79'))
    return {
      status: 200,
      body: { status: false, remark: `Pincode ${String(drop.pin)} is not serviceable`, tracking_id: '' },
    };
  if (body.payment_mode === 'COD' && Number(body.cod_amount) > 49_999)
    return invalid('cod_amount must be at most 49999');
  return undefined;
}
