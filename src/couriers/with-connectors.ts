import type { ConnectorName, CourierService } from '../domain/rates/catalogue.js';
import type { RatesContext } from '../domain/rates/context.js';

/**
 * The same data with each service's connector as `pick` says: the demo puts every service on the
 * sandbox. An allotted AWB series stays with a service that stays on push.
 */
export function withConnectors(rates: RatesContext, pick: (service: CourierService) => ConnectorName): RatesContext {
  const services = rates.catalogue.services.map((service) => {
    const connector = pick(service);
    return { ...service, connector, awbSeries: connector === 'push' ? service.awbSeries : null };
  });
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}
