import { callFailure } from './call-failure.js';
import { type CourierBarcode, courierRefused, courierCredentialsRejected } from './connector.js';
import { CourierCallError } from './courier-http.js';
import { record, text } from './courier-answers.js';

/**
 * How Ekart's answers are read: its error object into the merchant's 422 or the operator's 502,
 * the codes that mean "not found", and the barcodes of its label.
 */

const NAME = 'Ekart';

/** Ekart's error answer ({statusCode, code, message, description, severity}) in one line. */
export const errorWords = (body: unknown) => {
  const error = record(body);
  return [text(error?.message), text(error?.description)]
    .filter((w, i, all) => w !== undefined && all.indexOf(w) === i)
    .join(': ');
};

/**
 * The barcodes Ekart's own label carries besides its tracking id: `wbn`, the waybill of the vendor
 * partner it chose, and for some vendors a COD waybill. Its hubs may scan these rather than the
 * tracking id, so Dakiya's label prints them. `order` is the order number, already on the label.
 */
export function labelBarcodes(barcodes: unknown, awb: string): { barcodes?: CourierBarcode[] } {
  const given = record(barcodes);
  const found = [
    { label: 'Vendor waybill', value: text(given?.wbn) },
    { label: 'COD waybill', value: text(given?.cod) },
  ].filter((code): code is CourierBarcode => code.value !== undefined && code.value !== awb);
  return found.length > 0 ? { barcodes: found } : {};
}

export const unavailable = (error: unknown) =>
  callFailure(error, {
    name: NAME,
    credentials: 'EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD',
    reasons: errorWords,
  });

/** A 401 that a new token cannot cure: Ekart answers the token it refused again (its token call caches for 24 h). */
export const sameTokenRefused = () =>
  courierCredentialsRejected(
    NAME,
    "it refused our token (HTTP 401), and its token call answers that same token again (Ekart keeps a token for 24 hours); the operator must check EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD, and that the account's API access is enabled at Ekart",
  );

/** A create naming a pickup or return alias Ekart has no address for (fixtures/ekart.fixtures.ts: EKART_ALIAS_NOT_FOUND). */
export const unregisteredAlias = (error: unknown) => {
  const body = record(error instanceof CourierCallError ? error.body : undefined);
  return (
    error instanceof CourierCallError &&
    error.status === 404 &&
    (body?.code === 'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION' || body?.message === 'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION')
  );
};

/** The merchant's 422 when Ekart has no pickup address under the warehouse's name. */
export const notRegistered = (alias: string, why: string) =>
  courierRefused(
    NAME,
    `the warehouse '${alias}' is not registered at Ekart as a pickup address: ${why}`,
    'warehouse_id',
  );

/** Ekart's tracking id is not known to it (code SWIFT_RESOURCE_NOT_FOUND_EXCEPTION, 404 or, as its clients see, a 5xx). */
export const notFound = (error: unknown) =>
  error instanceof CourierCallError &&
  (error.status === 404 || record(error.body)?.code === 'SWIFT_RESOURCE_NOT_FOUND_EXCEPTION');
