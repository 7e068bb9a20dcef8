import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../audit/audit.js';
import type { Db, Executor } from '../../base/db/client.js';
import { isUniqueViolation } from '../../base/db/errors.js';
import { invalid } from '../../domain/errors.js';
import { STORE_ERRORS } from './stores.errors.js';
import { type Logo, logoPath, readLogo } from './logo.js';
import { storeTrackPath } from '../../domain/shipment/track-links.js';
import * as repo from './stores.repository.js';
import type { Static } from 'typebox';
import type { Store, StoreInput } from './stores.schemas.js';
import { isNotifyEvent, NOTIFY_EVENTS } from '../../domain/shipment/notify-events.js';

export const STORE_CHANNEL = 'manual_order';
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DUPLICATE_NAME = 'Store name has already been taken';

export type StoreView = Static<typeof Store>;

export type StoresService = ReturnType<typeof createStoresService>;

/** JSON sends a list, a form comma-separated text; stored in the lifecycle's order, each once. */
function notifyEventsOf(value: string[] | string): string[] {
  const named = new Set(
    (Array.isArray(value) ? value : value.split(',')).map((event) => event.trim()).filter(isNotifyEvent),
  );
  return NOTIFY_EVENTS.filter((event) => named.has(event));
}

/** The contact fields and the buyers' language as stored: trimmed, null clears. The schema checked their form; a phone also needs 8 to 15 digits. */
function contactColumns(input: StoreInput) {
  const phone = input.support_phone?.trim();
  if (phone) {
    const digits = phone.replace(/\D/g, '').length;
    if (digits < 8 || digits > 15) throw invalid('support_phone must have 8 to 15 digits', 'support_phone');
  }
  return {
    ...(input.support_email !== undefined && { supportEmail: input.support_email?.trim() ?? null }),
    ...(input.support_phone !== undefined && { supportPhone: phone ?? null }),
    ...(input.notify_events !== undefined && { notifyEvents: notifyEventsOf(input.notify_events) }),
    ...(input.language !== undefined && { language: input.language }),
  };
}

/**
 * Records a store's change in the caller's transaction. The event log sits above the tenancy
 * layer, so the composition root hands its `record` in.
 */
export type RecordStoreEvent = (
  tx: Executor,
  accountId: string,
  event: { type: 'store.updated'; subjectType: 'store'; subjectId: string; data: object },
  at: Date,
) => Promise<void>;

export function createStoresService({
  db,
  clock,
  publicBaseUrl,
  recordEvent,
}: {
  db: Db;
  clock: Clock;
  publicBaseUrl: string;
  recordEvent: RecordStoreEvent;
}) {
  const toView = (row: repo.StoreRow): StoreView => ({
    id: row.id,
    store_name: row.storeName,
    brand_name: row.brandName,
    channel: row.channel as StoreView['channel'],
    status: row.status as StoreView['status'],
    logo_url: row.logoSha256 ? `${publicBaseUrl}${logoPath(row.id, row.logoSha256)}` : null,
    tracking_page_url: `${publicBaseUrl}${storeTrackPath(row.id)}`,
    support_email: row.supportEmail,
    support_phone: row.supportPhone,
    notify_events: row.notifyEvents,
    language: row.language as StoreView['language'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  /**
   * Runs a write that may hit the per-account name index, reporting a clash as SPEC 4.3 says; a name
   * a disconnected store keeps (docs/decisions.md) says so, and how to get it back.
   */
  async function withNameCheck<T>(
    accountId: string,
    storeName: string | undefined,
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error, 'stores_account_name_key')) throw error;
      const holder = storeName === undefined ? undefined : await repo.findStoreByName(db, accountId, storeName);
      if (holder && holder.status !== 'connected') {
        // Velocity's clients compare errors[0] with the seed's words, so the explanation follows it.
        const why =
          `A deleted store (${holder.id}) used this name, and names stay reserved so its shipments keep their brand: ` +
          `restore it with PUT /custom/api/v1/client-stores/${holder.id} {"status": "connected"}, or choose another name`;
        throw STORE_ERRORS.store_name_reserved.error(
          [DUPLICATE_NAME, why],
          [
            { field: 'store_name', message: DUPLICATE_NAME },
            { field: 'store_name', message: why },
          ],
        );
      }
      throw STORE_ERRORS.store_name_taken.error(DUPLICATE_NAME, 'store_name');
    }
  }

  /** store.updated: the store as answered after the change, and which of its fields the request changed. */
  const recordUpdate = (tx: Executor, accountId: string, row: repo.StoreRow, changed: string[], at: Date) =>
    recordEvent(
      tx,
      accountId,
      { type: 'store.updated', subjectType: 'store', subjectId: row.id, data: { store: toView(row), changed } },
      at,
    );

  const record = auditRecorder(clock);
  return {
    async list(accountId: string): Promise<StoreView[]> {
      return (await repo.listActiveStores(db, accountId)).map(toView);
    },

    async get(accountId: string, storeId: string): Promise<StoreView> {
      const row = await repo.findStore(db, accountId, storeId);
      if (!row) throw STORE_ERRORS.store_not_found.error('Store not found');
      return toView(row);
    },

    async create(actor: Actor, input: StoreInput): Promise<StoreView> {
      const { accountId } = actor;
      // Decode and check the logo before anything is written: a bad logo leaves no store behind.
      // An empty logo is a bad logo (422), not an absent one.
      const logo = typeof input.logo === 'string' ? await readLogo(input.logo) : undefined;
      const contact = contactColumns(input);
      const now = clock.now();
      const row = await withNameCheck(accountId, input.store_name, () =>
        db.transaction(async (tx) => {
          const store = await repo.insertStore(tx, accountId, {
            storeName: input.store_name!,
            brandName: input.brand_name?.trim() ?? null,
            channel: STORE_CHANNEL,
            status: 'connected',
            logoSha256: logo?.sha256 ?? null,
            ...contact,
            createdAt: now,
            updatedAt: now,
          });
          if (logo) await repo.saveLogo(tx, accountId, store.id, logo);
          await record(tx, actor, {
            action: 'store.created',
            objectType: 'store',
            objectId: store.id,
            changes: { store_name: store.storeName, brand_name: store.brandName },
          });
          return store;
        }),
      );
      return toView(row);
    },

    async update(actor: Actor, storeId: string, input: StoreInput): Promise<StoreView> {
      const { accountId } = actor;
      if (Object.values(input).every((value) => value === undefined)) {
        throw invalid(
          'Send at least one of store_name, brand_name, logo, support_email, support_phone, notify_events, language or status',
        );
      }
      const logo: Logo | null | undefined = typeof input.logo === 'string' ? await readLogo(input.logo) : input.logo;
      const contact = contactColumns(input);
      const now = clock.now();
      const row = await withNameCheck(accountId, input.store_name, () =>
        db.transaction(async (tx) => {
          const updated = await repo.updateStore(tx, accountId, storeId, {
            ...(input.store_name !== undefined && { storeName: input.store_name }),
            ...(input.status !== undefined && { status: input.status }),
            ...(input.brand_name !== undefined && { brandName: input.brand_name?.trim() ?? null }),
            ...(logo !== undefined && { logoSha256: logo?.sha256 ?? null }),
            ...contact,
            updatedAt: now,
          });
          if (!updated) throw STORE_ERRORS.store_not_found.error('Store not found');
          if (logo) await repo.saveLogo(tx, accountId, storeId, logo);
          if (logo === null) await repo.deleteLogo(tx, accountId, storeId);
          const changed = (['store_name', 'brand_name', 'logo', 'language', 'status'] as const).filter(
            (field) => input[field] !== undefined,
          );
          await recordUpdate(tx, accountId, updated, changed, now);
          await record(tx, actor, {
            action: 'store.changed',
            objectType: 'store',
            objectId: storeId,
            changes: {
              fields: Object.keys(input)
                .filter((field) => input[field as keyof StoreInput] !== undefined)
                .sort(),
            },
          });
          return updated;
        }),
      );
      return toView(row);
    },

    /** Disconnects: off the list and refused on new orders, but readable by id, its name still reserved. */
    async deactivate(actor: Actor, storeId: string): Promise<StoreView> {
      const { accountId } = actor;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateStore(tx, accountId, storeId, { status: 'disconnected', updatedAt: now });
        if (updated) {
          await recordUpdate(tx, accountId, updated, ['status'], now);
          await record(tx, actor, { action: 'store.disconnected', objectType: 'store', objectId: storeId });
        }
        return updated;
      });
      if (!row) throw STORE_ERRORS.store_not_found.error('Store not found');
      return toView(row);
    },

    /**
     * A sales channel connected (shopify, woocommerce) or let go (manual_order): the store's
     * `channel`, in the caller's transaction, told as store.updated.
     */
    async setChannel(tx: Executor, accountId: string, storeId: string, channel: string): Promise<void> {
      const now = clock.now();
      const updated = await repo.updateStore(tx, accountId, storeId, { channel, updatedAt: now });
      if (updated) await recordUpdate(tx, accountId, updated, ['channel'], now);
    },

    /** A store by its id or its name (any case), or undefined: for modules that link to one. */
    async find(accountId: string, by: { id?: string; name?: string }, ex: Executor = db) {
      if (by.id !== undefined) return UUID_TEXT.test(by.id) ? repo.findStore(ex, accountId, by.id) : undefined;
      return by.name === undefined ? undefined : repo.findStoreByName(ex, accountId, by.name);
    },

    /**
     * SPEC 4.5: an order names its store by store_name (any case). Unknown or another account's
     * name, or a disconnected store, is refused so that no order goes out under the wrong brand.
     * `ex`: the caller's transaction, if any.
     */
    async requireActiveForOrder(accountId: string, storeName: string, ex: Executor = db): Promise<repo.StoreRow> {
      const row = await repo.findStoreByName(ex, accountId, storeName);
      if (!row)
        throw STORE_ERRORS.order_store_unknown.error(`Store '${storeName}' not found: create it first`, 'store_name');
      if (row.status !== 'connected')
        throw STORE_ERRORS.order_store_inactive.error(`Store '${row.storeName}' is not active`, 'store_name');
      return row;
    },

    async getPublicLogo(storeId: string) {
      const logo = await repo.findPublicLogo(db, storeId);
      if (!logo) throw STORE_ERRORS.store_logo_not_found.error('Logo not found');
      return logo;
    },
  };
}
