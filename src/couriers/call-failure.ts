import { courierCredentialsRejected, courierRefused, courierUnavailable } from './connector.js';
import { CourierCallError } from './courier-http.js';

/** How one courier's failed calls read: its name, the settings a refused login names, and the words a 4xx body gives. */
export interface CourierVoice {
  name: string;
  /** The settings the operator must check when the courier refuses our credentials (401/403): its token or login variables. */
  credentials: string;
  /** The courier's reasons in a 4xx body that answers about this parcel; undefined when it gives none (or reads none). */
  reasons?: (body: unknown) => string | undefined;
}

/**
 * What a courier's failed call means for the merchant, one rule for every connector: 503 with
 * Retry-After while it limits us or its breaker is open; refused credentials name the settings to
 * check; a 4xx (but 404) with the courier's reasons is its refusal, a 422 in its words, and
 * without them, or a 404, a fault of ours or its (502); a time-out, a 5xx or nonsense a 502.
 * Anything that is not a courier call's failure is answered as it is.
 */
export function callFailure(error: unknown, voice: CourierVoice): unknown {
  if (!(error instanceof CourierCallError)) return error;
  if (error.kind === 'circuit_open' || error.kind === 'rate_limited') {
    return courierUnavailable(
      voice.name,
      error.kind === 'rate_limited' ? 'it is limiting our requests' : 'it failed repeatedly just now',
      503,
      Math.ceil((error.retryAfterMs ?? 1000) / 1000),
    );
  }
  if (error.kind === 'refused') {
    if (error.status === 401 || error.status === 403)
      return courierCredentialsRejected(
        voice.name,
        `it refused our credentials (HTTP ${error.status}); the operator must check ${voice.credentials}`,
      );
    const why = error.status === 404 ? undefined : voice.reasons?.(error.body);
    return why ? courierRefused(voice.name, why) : courierUnavailable(voice.name, `it answered HTTP ${error.status}`);
  }
  return courierUnavailable(voice.name, error.kind === 'malformed' ? 'its answer could not be read' : error.message);
}
