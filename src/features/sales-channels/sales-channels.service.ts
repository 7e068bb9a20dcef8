import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Db } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import type { SecretBox } from '../../base/secret-box.js';
import { ChannelCallError, type ChannelCredentials, type ChannelName } from '../../channels/channel-adapter.js';
import { openCredentials, sealCredentials } from '../../channels/channel-credentials.js';
import type { ChannelAdapters } from '../../channels/channel-registry.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import type { StoresService } from '../../tenancy/stores/stores.service.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { outboundUrlRefused } from '../../domain/outbound.errors.js';
import { CHANNEL_ERRORS, channelDisconnected } from './sales-channels.errors.js';
import * as repo from './sales-channels.repository.js';
import { REQUIRED_CREDENTIALS } from './sales-channels.schemas.js';
import { type ChannelSettingsInput, channelView, type ConnectInput, ledgerView } from './sales-channels.views.js';

// Connecting a store to its Shopify shop or WooCommerce site, and what the merchant reads and
// changes of the connection: its health, its import problems, its settings.

interface Deps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  adapters: ChannelAdapters;
  stores: Pick<StoresService, 'find' | 'setChannel'>;
  warehouses: Pick<WarehousesService, 'list' | 'requireForOrder'>;
  /** Where the stores post their webhooks: PUBLIC_BASE_URL. */
  publicBaseUrl: string;
  /** Wakes the intake so that a pull or a re-import asked for now runs now, not at the next timer. */
  wake: () => void;
  /** Told of what failed beside a request that still succeeded (a webhook subscription). */
  warn: (message: string, error: unknown) => void;
}

export type SalesChannelsService = ReturnType<typeof createSalesChannelsService>;

const REQUIRED: Record<ChannelName, readonly (keyof ConnectInput)[]> = REQUIRED_CREDENTIALS;
/** The default parcel a channel's orders ship in, in centimetres: a small box, changed per channel. */
const DEFAULT_BOX_CM = 10;
const LEDGER_PAGE = 200;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
/** A secret is taken as given: the store signs with its exact bytes. */
const secret = (value: unknown) => (typeof value === 'string' ? value : '');

function credentialsOf(input: ConnectInput): ChannelCredentials {
  return input.channel === 'shopify'
    ? {
        channel: 'shopify',
        shopDomain: text(input.shop_domain).toLowerCase(),
        accessToken: text(input.access_token),
        webhookSecret: secret(input.webhook_secret),
      }
    : {
        channel: 'woocommerce',
        siteUrl: text(input.site_url).replace(/\/+$/, ''),
        consumerKey: text(input.consumer_key),
        consumerSecret: text(input.consumer_secret),
        webhookSecret: secret(input.webhook_secret),
      };
}

/** The credentials the store judged: refused ones are a 422 naming each field, an unreachable store a 502. */
function refusal(error: unknown, input: ConnectInput): never {
  if (!(error instanceof ChannelCallError)) throw error;
  const addressField = input.channel === 'shopify' ? 'shop_domain' : 'site_url';
  if (error.kind === 'refused_credentials') {
    const fields =
      error.fields.length > 0 ? error.fields : REQUIRED[input.channel].filter((f) => f !== 'webhook_secret');
    const details = fields.map((field) => ({ field, message: `${field} was refused by the store: ${error.message}` }));
    throw CHANNEL_ERRORS.channel_credentials_refused.error(
      details.map((d) => d.message),
      details,
    );
  }
  if (error.kind === 'rejected') throw outboundUrlRefused(addressField, `${addressField}: ${error.message}`);
  throw CHANNEL_ERRORS.channel_store_unreachable.error(`The store did not answer as expected: ${error.message}`);
}

export function createSalesChannelsService({
  db,
  clock,
  box,
  adapters,
  stores,
  warehouses,
  publicBaseUrl,
  wake,
  warn,
}: Deps) {
  const webhookUrl = (id: string) => `${publicBaseUrl}/public/v1/channels/${id}/webhook`;

  async function views(accountId: string, rows: repo.SalesChannelRow[]) {
    const ids = rows.map((row) => row.id);
    const [names, counts] = await Promise.all([
      repo.storeNames(db, accountId, [...new Set(rows.map((row) => row.storeId))]),
      repo.countsOf(db, accountId, ids),
    ]);
    return rows.map((row) =>
      channelView(row, names.get(row.storeId) ?? null, counts.get(row.id) ?? {}, webhookUrl(row.id)),
    );
  }

  /** Removes the subscriptions Dakiya made; a store that cannot be asked now keeps them, and our webhook route answers them 410. */
  async function unsubscribe(row: repo.SalesChannelRow): Promise<boolean> {
    if (!row.webhookIds?.length) return false;
    try {
      await adapters[row.channel as ChannelName].removeWebhooks(openCredentials(box, row.sealed), row.webhookIds);
      return true;
    } catch (error) {
      // Disconnecting never fails on the store's account: what is left answers 410.
      if (!(error instanceof ChannelCallError)) warn(`sales channel ${row.id}: webhook removal failed`, error);
      return false;
    }
  }

  async function owned(accountId: string, id: string): Promise<repo.SalesChannelRow> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.channelById(db, accountId, id) : undefined;
    if (!row) throw CHANNEL_ERRORS.channel_not_found.error(`Sales channel '${id}' not found`);
    return row;
  }

  async function warehouseFor(accountId: string, warehouseId: string | undefined): Promise<string> {
    if (warehouseId !== undefined) return (await warehouses.requireForOrder(accountId, warehouseId)).id;
    const all = await warehouses.list(accountId);
    if (all.length === 1) return all[0]!.id;
    throw CHANNEL_ERRORS.channel_warehouse_needed.error(
      all.length === 0
        ? 'warehouse_id is required: the account has no warehouse yet (POST /warehouse)'
        : `warehouse_id is required: the account has ${all.length} warehouses`,
      'warehouse_id',
    );
  }

  /**
   * Asks the store to send its order webhooks to the channel's URL, signed with its secret. A store
   * that will not (Shopify takes https only; a key without write access) leaves the channel
   * connected, its webhook_error saying why: the merchant adds them, and the periodic pull catches up.
   */
  async function subscribe(row: repo.SalesChannelRow, credentials: ChannelCredentials) {
    const adapter = adapters[row.channel as ChannelName];
    // The channel is saved by now: whatever goes wrong here is told on it, never answered as a
    // failed connection the merchant would retry into a 409.
    const change = await adapter.registerWebhooks(credentials, webhookUrl(row.id)).then(
      ({ ids }) => ({ webhookIds: ids, webhookError: null }),
      (error: unknown) => {
        if (!(error instanceof ChannelCallError)) warn(`sales channel ${row.id}: webhook subscription failed`, error);
        const message = error instanceof Error ? error.message : String(error);
        return { webhookIds: null, webhookError: message.slice(0, 1000) };
      },
    );
    return (await repo.updateChannel(db, row.accountId, row.id, change)) ?? row;
  }

  const record = auditRecorder(clock);
  return {
    async connect(actor: Actor, input: ConnectInput) {
      const { accountId } = actor;
      const problems: FieldError[] = REQUIRED[input.channel]
        .filter((field) => (field === 'webhook_secret' ? secret : text)(input[field]) === '')
        .map((field) => ({ field, message: `${field} is required when channel is ${input.channel}` }));
      if (input.store_name === undefined && input.store_id === undefined)
        problems.push({ field: 'store_name', message: 'store_name is required unless store_id is given' });
      if (problems.length > 0)
        throw new DomainError(
          'invalid',
          problems.map((p) => p.message),
          problems,
        );
      const store = await stores.find(accountId, { id: input.store_id, name: input.store_name });
      if (store?.status !== 'connected') {
        const field = input.store_id !== undefined ? 'store_id' : 'store_name';
        throw CHANNEL_ERRORS.channel_store_unknown.error(
          `${field}: no active store of this account is '${input.store_id ?? input.store_name}': create it first`,
          field,
        );
      }
      const warehouseId = await warehouseFor(accountId, input.warehouse_id);
      const credentials = credentialsOf(input);
      const adapter = adapters[input.channel];
      const { shopName } = await adapter.checkCredentials(credentials).catch((error: unknown) => refusal(error, input));
      const now = clock.now();
      const address = credentials.channel === 'shopify' ? credentials.shopDomain : credentials.siteUrl;
      try {
        const row = await db.transaction(async (tx) => {
          const made = await repo.insertChannel(tx, accountId, {
            storeId: store.id,
            channel: input.channel,
            address,
            shopName,
            warehouseId,
            sealed: sealCredentials(box, credentials),
            onImport: input.on_import ?? 'queue',
            notifyCustomer: input.notify_customer ?? false,
            defaultWeightGrams: input.default_weight === undefined ? null : Math.round(input.default_weight * 1000),
            lengthCm: input.length ?? DEFAULT_BOX_CM,
            breadthCm: input.breadth ?? DEFAULT_BOX_CM,
            heightCm: input.height ?? DEFAULT_BOX_CM,
            status: 'connected',
            pullDue: true,
            createdAt: now,
            updatedAt: now,
          });
          await stores.setChannel(tx, accountId, store.id, input.channel);
          await record(tx, actor, {
            action: 'channel.connected',
            objectType: 'channel',
            objectId: made.id,
            changes: { channel: input.channel, address, store_id: store.id, on_import: made.onImport },
          });
          return made;
        });
        wake();
        const registered = input.register_webhooks === false ? row : await subscribe(row, credentials);
        return (await views(accountId, [registered]))[0]!;
      } catch (error) {
        if (
          isUniqueViolation(error, 'sales_channels_store_key') ||
          isUniqueViolation(error, 'sales_channels_address_key')
        )
          throw CHANNEL_ERRORS.channel_store_connected.error(
            `Store '${store.storeName}' or shop '${address}' is already connected: disconnect that channel first`,
          );
        throw error;
      }
    },

    async list(accountId: string) {
      return views(accountId, await repo.channelsOf(db, accountId));
    },

    async get(accountId: string, id: string) {
      return (await views(accountId, [await owned(accountId, id)]))[0]!;
    },

    /** Changes how the channel imports; refused orders get another try with the new settings. */
    async update(actor: Actor, id: string, input: ChannelSettingsInput) {
      const { accountId } = actor;
      const current = await owned(accountId, id);
      const warehouseId =
        input.warehouse_id === undefined
          ? undefined
          : (await warehouses.requireForOrder(accountId, input.warehouse_id)).id;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const changed = await repo.updateChannel(tx, accountId, id, {
          ...(warehouseId !== undefined && { warehouseId }),
          ...(input.on_import !== undefined && { onImport: input.on_import }),
          ...(input.notify_customer !== undefined && { notifyCustomer: input.notify_customer }),
          ...(input.default_weight !== undefined && {
            defaultWeightGrams: input.default_weight === null ? null : Math.round(input.default_weight * 1000),
          }),
          ...(input.length !== undefined && { lengthCm: input.length }),
          ...(input.breadth !== undefined && { breadthCm: input.breadth }),
          ...(input.height !== undefined && { heightCm: input.height }),
          updatedAt: now,
        });
        if (current.status === 'connected') await repo.requeueRefused(tx, accountId, id, now);
        await record(tx, actor, {
          action: 'channel.changed',
          objectType: 'channel',
          objectId: id,
          changes: { ...input },
        });
        return changed!;
      });
      wake();
      return (await views(accountId, [row]))[0]!;
    },

    /** Stops intake; the orders already imported stay, and the store's channel is manual again. */
    async disconnect(actor: Actor, id: string) {
      const { accountId } = actor;
      const current = await owned(accountId, id);
      const removed = current.status === 'connected' && (await unsubscribe(current));
      const now = clock.now();
      const row =
        current.status === 'connected'
          ? await db.transaction(async (tx) => {
              const changed = await repo.updateChannel(tx, accountId, id, {
                status: 'disconnected',
                disconnectedAt: now,
                updatedAt: now,
                ...(removed && { webhookIds: null }),
              });
              await stores.setChannel(tx, accountId, current.storeId, 'manual_order');
              await record(tx, actor, { action: 'channel.disconnected', objectType: 'channel', objectId: id });
              return changed!;
            })
          : current;
      return (await views(accountId, [row]))[0]!;
    },

    /** Asks for a pull now (what the store holds that webhooks did not bring). */
    async sync(actor: Actor, id: string) {
      const { accountId } = actor;
      const current = await owned(accountId, id);
      if (current.status !== 'connected') throw channelDisconnected();
      const row = await db.transaction(async (tx) => {
        await record(tx, actor, { action: 'channel.sync_requested', objectType: 'channel', objectId: id });
        return repo.updateChannel(tx, accountId, id, { pullDue: true, updatedAt: clock.now() });
      });
      wake();
      return (await views(accountId, [row!]))[0]!;
    },

    /** The store orders the channel has seen, newest change first: all, or those in `states` (refused: the import problems). */
    async orders(accountId: string, id: string, states: readonly string[] | undefined) {
      await owned(accountId, id);
      return (await repo.ledgerOf(db, accountId, id, states, LEDGER_PAGE)).map(ledgerView);
    },

    /** A refused order imported again, now. */
    async retry(actor: Actor, id: string, channelOrderId: string) {
      const { accountId } = actor;
      await owned(accountId, id);
      const row = await repo.ledgerRow(db, accountId, id, channelOrderId);
      if (!row)
        throw CHANNEL_ERRORS.channel_order_not_found.error(`The channel has seen no store order '${channelOrderId}'`);
      await db.transaction(async (tx) => {
        if (!(await repo.requeue(tx, accountId, id, channelOrderId, clock.now())))
          throw CHANNEL_ERRORS.channel_order_not_refused.error(
            `Store order '${row.channelOrderName}' is ${row.state}, not refused: only a refused order is imported again`,
          );
        await record(tx, actor, {
          action: 'channel.order_retried',
          objectType: 'channel',
          objectId: id,
          changes: { channel_order_id: channelOrderId },
        });
      });
      wake();
      return ledgerView({ ...row, state: 'pending' });
    },
  };
}
