import { type CourierCatalogue, issuesTestAwbs } from '../domain/rates/catalogue.js';
import type { ConnectorHealthRow, HealthRecorder } from './connector-health.js';
import type { CourierConnectionView } from './courier-connections.schemas.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

function healthView(row: ConnectorHealthRow | undefined): NonNullable<CourierConnectionView['health']> {
  return {
    last_success_at: iso(row?.lastSuccessAt ?? null),
    last_error_at: iso(row?.lastErrorAt ?? null),
    last_error: row?.lastError ?? null,
    token_expires_at: iso(row?.tokenExpiresAt ?? null),
  };
}

/** Connectors that call a courier's API with credentials the server holds. */
const CALLS_A_COURIER = new Set(['delhivery', 'ekart', 'xpressbees', 'shadowfax']);

/**
 * The courier services an account can book with, how each is connected and how its connector's
 * calls went lately. The catalogue and the credentials are the server's, shared by every account.
 */

export function createCourierConnections({ catalogue, health }: { catalogue: CourierCatalogue; health: HealthRecorder }) {
  return {
    async list(): Promise<CourierConnectionView[]> {
      const records = await health.read();
      return catalogue.services.map((service) => ({
        carrier_id: service.id,
        name: service.name,
        code: service.code,
        service_level: service.serviceLevel,
        connector: service.connector,
        // Start-up refuses a courier API service without its credentials, so one that runs has them.
        credentials: CALLS_A_COURIER.has(service.connector) ? 'configured' : 'not_needed',
        test_bookings: issuesTestAwbs(service),
        health: service.connector === 'push' ? null : healthView(records.get(service.connector)),
      }));
    },
  };
}

export type CourierConnections = ReturnType<typeof createCourierConnections>;
