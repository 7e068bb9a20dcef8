import type { LabelLinks } from '../../domain/shipment/label-links.js';
import type { ReturnTrackTokens, TrackUrl } from '../../domain/shipment/track-links.js';
import type { Host } from '../../http/host.js';
import { createReturnLeg } from './exchange-leg.js';
import { returnsRoutes } from './returns.routes.js';
import { createReturnsService } from './returns.service.js';

type ReturnsDeps = Parameters<typeof createReturnsService>[0];

export interface ReturnsContext
  extends Pick<ReturnsDeps, 'db' | 'clock' | 'rates' | 'events' | 'warehouses' | 'couriers' | 'applyReturnEvents'> {
  trackUrl: TrackUrl;
  /** Signs returns' tracking-page tokens (shared with the tracking page, which opens them). */
  returnTrackTokens: ReturnTrackTokens;
  labelLinks: LabelLinks;
}

/** Returns: their bookings, cancellation and routes; and an exchange's pickup of the old item. */
export function registerReturns(host: Host, { trackUrl, returnTrackTokens, labelLinks, ...deps }: ReturnsContext) {
  const returns = createReturnsService({
    ...deps,
    links: { track: (returnId) => trackUrl(returnTrackTokens.issue(returnId)), label: labelLinks.urlFor },
  });
  host.routes?.add('account', returnsRoutes(returns));
  return { ...returns, exchangeLeg: createReturnLeg(returns) };
}
