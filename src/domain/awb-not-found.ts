/**
 * The entry the `{awbs}` money routes (/shipping-charges, /cod-remittance, /settlement-status)
 * answer for an AWB the account does not have, unknown or another account's: one shape on all
 * three, with /order-tracking's wording ("AWB … not found") and a numeric flag beside it (as
 * its track_status is), so a client reads `found` rather than parsing the text.
 */
export const awbNotFound = (awb: string) => ({ awb, found: 0 as const, error: `AWB ${awb} not found` });
