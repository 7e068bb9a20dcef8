import { createHash } from 'node:crypto';
import type { Actor } from '../domain/access/permissions.js';
import { auditRecorder } from '../tenancy/audit/audit.js';
import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { type SecretBox, SecretBoxError } from '../base/secret-box.js';
import type { ConnectorName, CourierService } from '../domain/rates/catalogue.js';
import { COURIER_ERRORS } from './couriers.errors.js';
import type { Connector } from './connector.js';
import type { HealthRecorder } from './connector-health.js';
import * as repo from './courier-credentials.repository.js';
import { type CourierSettings, SHADOWFAX_ORDER_TYPES } from './couriers.settings.js';

/** The courier APIs an account can connect with credentials of its own, and what each takes. */
export const ACCOUNT_CREDENTIAL_FIELDS = {
  delhivery: ['api_token'],
  ekart: ['client_id', 'username', 'password'],
  xpressbees: ['email', 'password'],
  shadowfax: ['api_token'],
} as const satisfies Partial<Record<ConnectorName, readonly string[]>>;
export type ApiConnectorName = keyof typeof ACCOUNT_CREDENTIAL_FIELDS;
export type AccountCredentials = Record<string, string>;

/**
 * Fields an account may add to a connector's credentials, each with the words it takes; absent,
 * the server's setting stands. Shadowfax's `order_type` belongs to the client account the token
 * opens (SHADOWFAX_ORDER_TYPE for the server's).
 */
export const ACCOUNT_OPTIONAL_FIELDS: Readonly<Partial<Record<ApiConnectorName, Record<string, readonly string[]>>>> = {
  shadowfax: { order_type: SHADOWFAX_ORDER_TYPES },
};

const isApiConnector = (name: string): name is ApiConnectorName => Object.hasOwn(ACCOUNT_CREDENTIAL_FIELDS, name);
const MAX_LENGTH = 500;

/** The server's courier settings with one connector's credentials replaced by an account's. */
export function settingsWith(
  settings: CourierSettings,
  connector: ApiConnectorName,
  c: AccountCredentials,
): CourierSettings {
  switch (connector) {
    case 'delhivery':
      return { ...settings, delhivery: { ...settings.delhivery, token: c.api_token } };
    case 'ekart':
      return {
        ...settings,
        ekart: { ...settings.ekart, clientId: c.client_id, username: c.username, password: c.password },
      };
    case 'xpressbees':
      return { ...settings, xpressbees: { ...settings.xpressbees, email: c.email, password: c.password } };
    case 'shadowfax': {
      const own = SHADOWFAX_ORDER_TYPES.find((type) => type === c.order_type);
      return {
        ...settings,
        shadowfax: { ...settings.shadowfax, token: c.api_token, orderType: own ?? settings.shadowfax.orderType },
      };
    }
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

/** An account's credentials for one connector as this process holds them: opened, or why they cannot be. */
type Held = { updatedAt: number; credentials: AccountCredentials } | { updatedAt: number; unreadable: string };

/**
 * An account's own credentials for courier APIs, sealed at rest, and the connectors made with
 * them: one per account and connector in each process, kept while the credentials stay the same,
 * so its access token (Ekart's, Xpressbees') is fetched once and reused like the server's.
 *
 * The process holds every account's credentials in memory (`load` before serving, then a refresh
 * every 5 s of what changed), so finding a call's connector reads nothing: a call inside a request's
 * transaction never waits on another connection, which on the embedded database (one connection)
 * would wait for that transaction to end.
 */
export function createCourierCredentials({ db, clock, box, settings, health, build }: CredentialsDeps) {
  const record = auditRecorder(clock);
  const held = new Map<string, Held>();
  const connectors = new Map<string, { fingerprint: string; connector: Connector }>();
  let timer: NodeJS.Timeout | undefined;
  /** Where the calls made with an account's own credentials report their health. */
  const healthKey = (accountId: string, connector: string) => `${connector}@${accountId}`;

  const open = (row: repo.StoredCredentials): Held => {
    try {
      return {
        updatedAt: row.updatedAt.getTime(),
        credentials: JSON.parse(box.open(row.sealed)) as AccountCredentials,
      };
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      return { updatedAt: row.updatedAt.getTime(), unreadable: error.message };
    }
  };

  /** Brings the held credentials up to date: every row's time, and the sealed value of those that changed. */
  async function refresh(): Promise<void> {
    const rows = await repo.listAllVersions(db);
    const current = new Set<string>();
    for (const row of rows) {
      const key = `${row.accountId}:${row.connector}`;
      current.add(key);
      if (held.get(key)?.updatedAt === row.updatedAt.getTime()) continue;
      const stored = await repo.findCredentials(db, row.accountId, row.connector);
      if (stored) held.set(key, open(stored));
    }
    for (const key of held.keys()) if (!current.has(key)) held.delete(key);
  }

  function requireConnector(connector: string): ApiConnectorName {
    if (!isApiConnector(connector)) {
      throw COURIER_ERRORS.courier_api_unknown.error(
        `No courier API named '${connector}' takes credentials: one of ${Object.keys(ACCOUNT_CREDENTIAL_FIELDS).join(', ')}`,
      );
    }
    return connector;
  }

  function read(accountId: string, connector: ApiConnectorName): AccountCredentials | null {
    const found = held.get(`${accountId}:${connector}`);
    if (!found) return null;
    if ('unreadable' in found)
      throw COURIER_ERRORS.courier_credentials_unreadable.error(
        `Your ${connector} credentials cannot be read (${found.unreadable}): set them again`,
      );
    return found.credentials;
  }

  return {
    /** Reads every account's credentials, then keeps them current every 5 s until `stop`. */
    async load(log?: { warn(object: object, message: string): void }) {
      await refresh();
      timer = setInterval(() => {
        refresh().catch((error: unknown) =>
          log?.warn({ reason: (error as Error).message }, 'courier credentials not refreshed'),
        );
      }, settings.credentialsRefreshMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),

    /** Seals and stores an account's credentials for a courier API, each field required and none shown again. */
    async set(actor: Actor, connectorName: string, body: Record<string, unknown>) {
      const { accountId } = actor;
      const connector = requireConnector(connectorName);
      const fields = ACCOUNT_CREDENTIAL_FIELDS[connector];
      const problems: { field: string; message: string }[] = fields.flatMap((field) => {
        const value = body[field];
        if (typeof value !== 'string' || value.trim() === '')
          return [{ field, message: `${field} is required for ${connector}` }];
        if (value.length > MAX_LENGTH) return [{ field, message: `${field} must be at most ${MAX_LENGTH} characters` }];
        return [];
      });
      const optional = ACCOUNT_OPTIONAL_FIELDS[connector] ?? {};
      const given = Object.keys(optional).filter((field) => body[field] !== undefined);
      for (const field of given) {
        const words = optional[field]!;
        if (typeof body[field] !== 'string' || !words.includes(body[field]))
          problems.push({ field, message: `${field} must be one of ${words.join(', ')}` });
      }
      const known = [...fields, ...Object.keys(optional)];
      const others = Object.keys(body).filter((field) => !known.includes(field));
      for (const field of others)
        problems.push({ field, message: `${field} is not one of ${connector}'s credentials (${known.join(', ')})` });
      if (problems.length > 0)
        throw COURIER_ERRORS.courier_credentials_invalid.error(
          problems.map((p) => p.message),
          problems,
        );
      const stored = [...fields, ...given];
      const credentials = Object.fromEntries(stored.map((field) => [field, (body[field] as string).trim()]));
      const updatedAt = clock.now();
      await db.transaction(async (tx) => {
        await repo.saveCredentials(tx, accountId, {
          connector,
          sealed: box.seal(JSON.stringify(credentials)),
          fields: stored,
          updatedAt,
        });
        // Which fields were set, never their values.
        await record(tx, actor, {
          action: 'courier_credentials.set',
          objectType: 'courier_connection',
          objectId: connector,
          changes: { fields: stored },
        });
      });
      held.set(`${accountId}:${connector}`, { updatedAt: updatedAt.getTime(), credentials });
      return { connector, credentials: 'account' as const, fields: stored, updated_at: updatedAt.toISOString() };
    },

    /** Forgets them: the account books on the server's credentials again. */
    async remove(actor: Actor, connectorName: string) {
      const { accountId } = actor;
      const connector = requireConnector(connectorName);
      await db.transaction(async (tx) => {
        if (!(await repo.deleteCredentials(tx, accountId, connector)))
          throw COURIER_ERRORS.courier_credentials_not_found.error(`No ${connector} credentials of yours are stored`);
        await record(tx, actor, {
          action: 'courier_credentials.removed',
          objectType: 'courier_connection',
          objectId: connector,
        });
      });
      held.delete(`${accountId}:${connector}`);
      return { connector, credentials: 'configured' as const };
    },

    /** Which connectors the account has credentials of its own for, with when they were set. */
    async connected(accountId: string): Promise<Map<string, Date>> {
      return new Map((await repo.listCredentials(db, accountId)).map((row) => [row.connector, row.updatedAt]));
    },

    healthKey,

    /**
     * The connector for a service's calls on an account's behalf: one made with the account's own
     * credentials when it has set them, else undefined (the server's).
     */
    async connectorFor(accountId: string, service: CourierService): Promise<Connector | undefined> {
      if (!isApiConnector(service.connector)) return undefined;
      const credentials = read(accountId, service.connector);
      if (!credentials) return undefined;
      const key = `${accountId}:${service.connector}`;
      const fingerprint = createHash('sha256').update(JSON.stringify(credentials)).digest('hex');
      const known = connectors.get(key);
      if (known?.fingerprint === fingerprint) return known.connector;
      const connector = build(
        service.connector,
        settingsWith(settings, service.connector, credentials),
        health,
        healthKey(accountId, service.connector),
      );
      connectors.set(key, { fingerprint, connector });
      return connector;
    },
  };
}

export type CourierCredentials = ReturnType<typeof createCourierCredentials>;
