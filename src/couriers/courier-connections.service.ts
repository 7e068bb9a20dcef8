import type { Db } from '../base/db/client.js';
import { type CourierCatalogue, issuesTestAwbs } from '../domain/rates/catalogue.js';
import type { ConnectorHealthRow, HealthRecorder } from './connector-health.js';
import type { CourierConnectionView } from './courier-connections.schemas.js';
import { ACCOUNT_CREDENTIAL_FIELDS, type CourierCredentials } from './courier-credentials.service.js';
import { countOpenKeptScans } from './kept-scans.repository.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

function healthView(row: ConnectorHealthRow | undefined): NonNullable<CourierConnectionView['health']> {
  return {
    last_success_at: iso(row?.lastSuccessAt ?? null),
    last_error_at: iso(row?.lastErrorAt ?? null),
    last_error: row?.lastError ?? null,
    token_expires_at: iso(row?.tokenExpiresAt ?? null),
  };
}

/**
 * The courier services an account can book with, how each is connected (the server's credentials
 * or the account's own) and how the calls made with those credentials went lately.
 */
export function createCourierConnections({
  db,
  catalogue,
  health,
  credentials,
}: {
  db: Db;
  catalogue: CourierCatalogue;
  health: HealthRecorder;
  credentials: CourierCredentials;
}) {
  return {
    async list(accountId: string): Promise<CourierConnectionView[]> {
      const [records, own, kept] = await Promise.all([
        health.read(),
        credentials.connected(accountId),
        countOpenKeptScans(db, accountId),
      ]);
      return catalogue.services.map((service) => {
        const callsACourier = Object.hasOwn(ACCOUNT_CREDENTIAL_FIELDS, service.connector);
        const setAt = own.get(service.connector);
        const record = setAt
          ? records.get(credentials.healthKey(accountId, service.connector))
          : records.get(service.connector);
        return {
          carrier_id: service.id,
          name: service.name,
          code: service.code,
          service_level: service.serviceLevel,
          connector: service.connector,
          // Start-up refuses a courier API service without the server's credentials, so one that runs has them.
          credentials: !callsACourier ? 'not_needed' : setAt ? 'account' : 'configured',
          credentials_updated_at: setAt ? setAt.toISOString() : null,
          test_bookings: issuesTestAwbs(service),
          health: service.connector === 'push' ? null : healthView(record),
          kept_scans: kept.get(service.id) ?? 0,
        };
      });
    },
  };
}

export type CourierConnections = ReturnType<typeof createCourierConnections>;
