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

/**
 * The same data with `ids`' services marked as talking to local simulators of their couriers' APIs
 * (`npm run demo`): their bookings are test bookings everywhere a sandbox booking is (test_mode,
 * the label's TEST band, the notices, Settings), while they still go through the real connectors.
 */
export function withSimulatedCouriers(rates: RatesContext, ids: Iterable<string>): RatesContext {
  const simulated = new Set(ids);
  const services = rates.catalogue.services.map((service) =>
    simulated.has(service.id) ? { ...service, simulated: true as const } : service,
  );
  return { ...rates, catalogue: { ...rates.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) } };
}
