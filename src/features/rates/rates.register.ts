import type { Clock } from '../../base/clock.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { ratesRoutes } from './rates.routes.js';
import { createRatesService } from './rates.service.js';

/** Rate quotes and the courier list. */
export function registerRates(host: Host, { rates, clock }: { rates: RatesContext; clock: Clock }) {
  host.routes?.add('account', ratesRoutes(createRatesService({ rates, clock })));
}
