import type { Host } from '../../http/host.js';
import { exchangeBooking } from './exchange-booking.js';
import { exchangesRoutes } from './exchanges.routes.js';
export { exchangeReleases } from './exchange-release.js';
import { createExchangesService } from './exchanges.service.js';

export type ExchangesContext = Parameters<typeof createExchangesService>[0];

/** Exchanges: the replacement and the old item's pickup booked together (docs/returns.md). */
export function registerExchanges(host: Host, ctx: ExchangesContext) {
  const exchanges = createExchangesService(ctx);
  host.routes?.add('account', exchangesRoutes(exchanges));
  return { book: exchangeBooking(exchanges) };
}
