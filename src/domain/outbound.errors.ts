import { errorCodes } from './errors.js';

export const OUTBOUND_ERRORS = errorCodes({
  outbound_url_refused: [
    'invalid',
    'A URL the account gave (a webhook endpoint, a messaging base_url, a store URL) is one the server will not call: not http(s), credentials in it, or an address that is loopback, private, link-local, metadata or an IPv6 transition form.',
  ],
  outbound_host_unresolved: ['invalid', 'The host of a URL that must work when it is saved does not resolve.'],
});

/**
 * A URL an account controls that the outbound guard (base/outbound) refuses: its form, or an
 * address its host resolves to. `field` is the body's name for it (url, base_url, store_url).
 */
export const outboundUrlRefused = (field: string, message: string) =>
  OUTBOUND_ERRORS.outbound_url_refused.error(message, field);

/** A URL whose host does not resolve, where the URL must work when it is saved. */
export const outboundHostUnresolved = (field: string, message: string) =>
  OUTBOUND_ERRORS.outbound_host_unresolved.error(message, field);
