import { DomainError } from './errors.js';

/**
 * A URL an account controls that the outbound guard (base/outbound) refuses: its form, or an
 * address its host resolves to. `field` is the body's name for it (url, base_url, store_url).
 */
export const outboundUrlRefused = (field: string, message: string) =>
  new DomainError('invalid', [message], [{ field, message }], 'outbound_url_refused');

/** A URL whose host does not resolve, where the URL must work when it is saved. */
export const outboundHostUnresolved = (field: string, message: string) =>
  new DomainError('invalid', [message], [{ field, message }], 'outbound_host_unresolved');
