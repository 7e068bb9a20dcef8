import { createHash } from 'node:crypto';
import type { Clock } from '../base/clock.js';
import type { CourierSettings } from '../base/config.js';
import type { Db } from '../base/db/client.js';
import { type SecretBox, SecretBoxError } from '../base/secret-box.js';
import type { ConnectorName, CourierService } from '../domain/rates/catalogue.js';
import { AppError, notFound } from '../http/errors.js';
import type { Connector } from './connector.js';
import type { HealthRecorder } from './connector-health.js';
import * as repo from './courier-credentials.repository.js';

/** The courier APIs an account can connect with credentials of its own, and what each takes. */
export const ACCOUNT_CREDENTIAL_FIELDS = {
  delhivery: ['api_token'],
  ekart: ['client_id', 'username', 'password'],
  xpressbees: ['email', 'password'],
  shadowfax: ['api_token'],
} as const satisfies Partial<Record<ConnectorName, readonly string[]>>;
export type ApiConnectorName = keyof typeof ACCOUNT_CREDENTIAL_FIELDS;
export type AccountCredentials = Record<string, string>;

const isApiConnector = (name: string): name is ApiConnectorName => Object.hasOwn(ACCOUNT_CREDENTIAL_FIELDS, name);
/** How long a process keeps an account's credentials (or their absence) before reading them again. */
const CACHE_MS = 5_000;
const MAX_LENGTH = 500;

/** The server's courier settings with one connector's credentials replaced by an account's. */
export function settingsWith(settings: CourierSettings, connector: ApiConnectorName, c: AccountCredentials): CourierSettings {
  switch (connector) {
    case 'delhivery':
      return { ...settings, delhivery: { ...settings.delhivery, token: c.api_token } };
    case 'ekart':
      return { ...settings, ekart: { ...settings.ekart, clientId: c.client_id, username: c.username, password: c.password } };
    case 'xpressbees':
      return { ...settings, xpressbees: { ...settings.xpressbees, email: c.email, password: c.password } };
    case 'shadowfax':
      return { ...settings, shadowfax: { ...settings.shadowfax, token: c.api_token } };
  }
}

export interface CredentialsDeps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  settings: CourierSettings;
  health: HealthRecorder;
  /** Builds a connector of the catalogue's kind from settings (couriers.service's buildApiConnector). */
  build: (name: ApiConnectorName, settings: CourierSettings, health: HealthRecorder, healthKey: string) => Connector;
}

/**
 * An account's own credentials for courier APIs, sealed at rest, and the connectors made with
 * them: one per account and connector in each process, kept while the credentials stay the same,
 * so its access token (Ekart's, Xpressbees') is fetched once and reused like the server's.
 */
export function createCourierCredentials({ db, clock, box, settings, health, build }: CredentialsDeps) {
  const cache = new Map<string, { credentials: AccountCredentials | null; readAt: number }>();
  const connectors = new Map<string, { fingerprint: string; connector: Connector }>();

  function requireConnector(connector: string): ApiConnectorName {
    if (!isApiConnector(connector)) {
      throw notFound(`No courier API named '${connector}' takes credentials: one of ${Object.keys(ACCOUNT_CREDENTIAL_FIELDS).join(', ')}`);
    }
    return connector;
  }

  async function read(accountId: string, connector: ApiConnectorName): Promise<AccountCredentials | null> {
    const key = `${accountId}:${connector}`;
    const cached = cache.get(key);
    if (cached && Date.now() - cached.readAt < CACHE_MS) return cached.credentials;
    const row = await repo.findCredentials(db, accountId, connector);
    let credentials: AccountCredentials | null = null;
    if (row) {
      try {
        credentials = JSON.parse(box.open(row.sealed)) as AccountCredentials;
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        throw new AppError(502, [`Your ${connector} credentials cannot be read (${error.message}): set them again`]);
      }
    }
    cache.set(key, { credentials, readAt: Date.now() });
    return credentials;
  }

  return {
    /** Seals and stores an account's credentials for a courier API, each field required and none shown again. */
    async set(accountId: string, connectorName: string, body: Record<string, unknown>) {
      const connector = requireConnector(connectorName);
      const fields = ACCOUNT_CREDENTIAL_FIELDS[connector];
      const problems: { field: string; message: string }[] = fields.flatMap((field) => {
        const value = body[field];
        if (typeof value !== 'string' || value.trim() === '') return [{ field, message: `${field} is required for ${connector}` }];
        if (value.length > MAX_LENGTH) return [{ field, message: `${field} must be at most ${MAX_LENGTH} characters` }];
        return [];
      });
      const others = Object.keys(body).filter((field) => !(fields as readonly string[]).includes(field));
      for (const field of others) problems.push({ field, message: `${field} is not one of ${connector}'s credentials (${fields.join(', ')})` });
      if (problems.length > 0) throw new AppError(422, problems.map((p) => p.message), problems);
      const credentials = Object.fromEntries(fields.map((field) => [field, (body[field] as string).trim()]));
      const updatedAt = clock.now();
      await repo.saveCredentials(db, accountId, { connector, sealed: box.seal(JSON.stringify(credentials)), fields: [...fields], updatedAt });
      cache.delete(`${accountId}:${connector}`);
      return { connector, credentials: 'account' as const, fields: [...fields], updated_at: updatedAt.toISOString() };
    },

    /** Forgets them: the account books on the server's credentials again. */
    async remove(accountId: string, connectorName: string) {
      const connector = requireConnector(connectorName);
      if (!(await repo.deleteCredentials(db, accountId, connector))) throw notFound(`No ${connector} credentials of yours are stored`);
      cache.delete(`${accountId}:${connector}`);
      return { connector, credentials: 'configured' as const };
    },

    /** Which connectors the account has credentials of its own for, with when they were set. */
    async connected(accountId: string): Promise<Map<string, Date>> {
      return new Map((await repo.listCredentials(db, accountId)).map((row) => [row.connector, row.updatedAt]));
    },

    /** The health record of the account's own connector for a courier API. */
    healthKey: (accountId: string, connector: string) => `${connector}@${accountId}`,

    /**
     * The connector for a service's calls on an account's behalf: one made with the account's own
     * credentials when it has set them, else undefined (the server's).
     */
    async connectorFor(accountId: string, service: CourierService): Promise<Connector | undefined> {
      if (!isApiConnector(service.connector)) return undefined;
      const credentials = await read(accountId, service.connector);
      if (!credentials) return undefined;
      const key = `${accountId}:${service.connector}`;
      const fingerprint = createHash('sha256').update(JSON.stringify(credentials)).digest('hex');
      const known = connectors.get(key);
      if (known?.fingerprint === fingerprint) return known.connector;
      const connector = build(service.connector, settingsWith(settings, service.connector, credentials), health, `${service.connector}@${accountId}`);
      connectors.set(key, { fingerprint, connector });
      return connector;
    },
  };
}

export type CourierCredentials = ReturnType<typeof createCourierCredentials>;

