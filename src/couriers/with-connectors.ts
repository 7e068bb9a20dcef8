import type { ConnectorName, CourierService } from '../domain/rates/catalogue.js';
import type { RatesContext } from '../domain/rates/context.js';

/** The same data with each service's connector as `pick` says: the demo puts every service on the sandbox. */
export function withConnectors(rates: RatesContext, pick: (service: CourierService) => ConnectorName): RatesContext {
  const services = rates.catalogue.services.map((service) => ({ ...service, connector: pick(service) }));
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}
