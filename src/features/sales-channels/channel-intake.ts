import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import {
  ChannelCallError,
  type ChannelCredentials,
  type ChannelOrder,
  type ChannelWebhook,
  lacksCategories,
  type UnreadableOrder,
} from '../../channels/channel-adapter.js';
import { openCredentials } from '../../channels/channel-credentials.js';
import type { ChannelAdapters } from '../../channels/channel-registry.js';
import type { CancelShipment, ImportChannelOrder } from '../contracts.js';
import { payloadOf } from './channel-order-body.js';
import { createChannelOrderImport, type RowContext } from './channel-order-import.js';
import { CHANNEL_ERRORS, channelDisconnected } from './sales-channels.errors.js';
import * as repo from './sales-channels.repository.js';

// Orders in from the stores: every store order a webhook or a pull shows is written to the ledger
// first (one row per store order: what makes the import exactly-once whatever arrives, in whatever
// order), and the ledger's pending rows are then made into Dakiya orders, one transaction each.
// A webhook is answered as soon as its order is in the ledger, well inside Shopify's 5 seconds.

interface Deps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  adapters: ChannelAdapters;
  importOrder: ImportChannelOrder;
  cancelShipment: CancelShipment;
  /** How often a connected channel is pulled to catch what webhooks missed. */
  pullEveryMs: number;
  /** Told of what failed in the background (a store down, an order that broke a rule we did not foresee). */
  warn: (message: string, error: unknown) => void;
}

export type ChannelIntake = ReturnType<typeof createChannelIntake>;

/** Rows imported per claim: each its own transaction, so one slow booking holds no other row. */
const IMPORT_BATCH = 25;
/** A pull of a large shop pages for a while; another process leaves it alone this long. */
const PULL_LEASE_MS = 10 * 60 * 1000;

const seenOf = (order: ChannelOrder): repo.SeenOrder => ({
  channelOrderId: order.channelOrderId,
  channelOrderName: order.channelOrderName,
  payload: payloadOf(order),
  cancelled: order.cancelled,
  awaitingShipment: order.awaitingShipment,
});

const unreadableError = (reasons: string[]) =>
  `${reasons.length} store order(s) without a readable id could not be kept: ${reasons.join('; ')}`.slice(0, 1000);

const callErrorText = (error: unknown) =>
  error instanceof ChannelCallError
    ? `${error.kind}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);

export function createChannelIntake({
  db,
  clock,
  box,
  adapters,
  importOrder,
  cancelShipment,
  pullEveryMs,
  warn,
}: Deps) {
  const settle = createChannelOrderImport({ importOrder, cancelShipment, warn });
  /** Pulls every page of the orders waiting to ship into the ledger; records the sync or the failure on the channel. */
  async function pull(channel: repo.SalesChannelRow): Promise<number> {
    const adapter = adapters[channel.channel as keyof ChannelAdapters];
    let seen = 0;
    try {
      const credentials = openCredentials(box, channel.sealed);
      let cursor: string | null = null;
      const nameless: string[] = [];
      do {
        const page = await adapter.pullOrders(credentials, cursor);
        const orders = await completed(channel, credentials, page.orders);
        // The store answered after a wait: a channel disconnected or deleted meanwhile (its
        // account's deletion) takes none of it, not even a row its foreign key would refuse, whose
        // bytes (the buyers') would stay in the table's file.
        const kept = await db.transaction(async (tx) => {
          if (!(await repo.holdConnected(tx, channel.accountId, channel.id))) return false;
          await repo.recordSeen(tx, channel.accountId, channel.id, orders.map(seenOf), clock.now());
          nameless.push(...(await keepUnreadable(tx, channel, page.unreadable)));
          return true;
        });
        if (!kept) {
          warn(
            `sales channel ${channel.id}: disconnected or deleted while the store answered; ${page.orders.length} orders of its page not taken`,
            undefined,
          );
          return seen;
        }
        seen += page.orders.length;
        cursor = page.next;
      } while (cursor !== null);
      // A store that answered every page is healthy again: its last failure (a pull's, a
      // write-back's) is cleared, and a write-back still failing sets it anew. Orders it sent
      // without even an id to keep them by are what is left to say.
      const at = clock.now();
      await repo.updateChannel(db, channel.accountId, channel.id, {
        lastSyncedAt: at,
        pullLockedUntil: null,
        lastError: nameless.length > 0 ? unreadableError(nameless) : null,
        lastErrorAt: nameless.length > 0 ? at : null,
      });
    } catch (error) {
      const at = clock.now();
      await repo.updateChannel(db, channel.accountId, channel.id, {
        lastError: `pull: ${callErrorText(error)}`.slice(0, 1000),
        lastErrorAt: at,
        pullLockedUntil: null,
      });
      warn(`sales channel ${channel.id}: pull failed`, error);
    }
    return seen;
  }

  /**
   * The orders with what the store's API adds to them (the lines' categories, for the return
   * policy); as they came, and said in the log, when the store cannot be asked: an order is never
   * held back for a category.
   */
  async function completed(channel: repo.SalesChannelRow, credentials: ChannelCredentials, orders: ChannelOrder[]) {
    if (!orders.some(lacksCategories)) return orders;
    try {
      return await adapters[channel.channel as keyof ChannelAdapters].completeOrders(credentials, orders);
    } catch (error) {
      warn(`sales channel ${channel.id}: the products' categories could not be read (${callErrorText(error)})`, error);
      return orders;
    }
  }

  /**
   * Keeps the store orders that could not be read: in the ledger as refused with why, or, without
   * an id to keep one by, logged; answers the reasons of those, for the channel's health.
   */
  async function keepUnreadable(ex: Executor, channel: repo.SalesChannelRow, unreadable: UnreadableOrder[]) {
    const named = unreadable.flatMap(({ channelOrderId, channelOrderName, reason }) =>
      channelOrderId === null
        ? []
        : [
            {
              channelOrderId,
              channelOrderName: channelOrderName ?? channelOrderId,
              reason: `The store's order could not be read: ${reason}`,
            },
          ],
    );
    await repo.recordUnreadable(ex, channel.accountId, channel.id, named, clock.now());
    const nameless = unreadable.filter((order) => order.channelOrderId === null).map((order) => order.reason);
    for (const order of unreadable) warn(`sales channel ${channel.id}: a store order could not be read`, order);
    return nameless;
  }

  /** Imports up to a batch of pending rows; answers how many it settled. */
  async function importPending(): Promise<number> {
    let settled = 0;
    const channels = new Map<string, RowContext | undefined>();
    while (settled < IMPORT_BATCH) {
      const done = await db.transaction(async (tx) => {
        const now = clock.now();
        const [row] = await repo.claimPending(tx, now, 1);
        if (!row) return false;
        if (!channels.has(row.salesChannelId)) {
          const channel = await repo.channelById(tx, row.accountId, row.salesChannelId);
          const names = channel ? await repo.storeNames(tx, row.accountId, [channel.storeId]) : new Map();
          channels.set(row.salesChannelId, channel && { channel, storeName: names.get(channel.storeId) ?? 'store' });
        }
        const found = channels.get(row.salesChannelId)!;
        await settle(tx, row, found, now);
        return true;
      });
      if (!done) break;
      settled++;
    }
    return settled;
  }

  return {
    pull,

    /**
     * A webhook to the channel's URL: verified with the channel's secret, its order put in the
     * ledger, a redelivery (the same delivery id) taken once. Answers whether it changed anything.
     */
    async receiveWebhook(channelId: string, webhook: ChannelWebhook): Promise<'taken' | 'repeated' | 'ignored'> {
      const channel = /^[0-9a-f-]{36}$/i.test(channelId) ? await repo.channelForWebhook(db, channelId) : undefined;
      if (!channel) throw CHANNEL_ERRORS.channel_not_found.error(`No sales channel '${channelId}'`);
      if (channel.status !== 'connected') throw channelDisconnected();
      const credentials = openCredentials(box, channel.sealed);
      const read = adapters[channel.channel as keyof ChannelAdapters].readWebhook(credentials, webhook);
      if (read === null)
        throw CHANNEL_ERRORS.channel_webhook_unsigned.error(
          "The webhook's signature is missing or is not the channel's secret's: nothing was changed",
        );
      if (read?.kind === 'ping' || read?.kind === 'ignored') return 'ignored';
      // Asked of the store before the transaction, which holds no connection while it waits.
      const meaning =
        read.kind === 'order' ? { ...read, order: (await completed(channel, credentials, [read.order]))[0]! } : read;
      const now = clock.now();
      return db.transaction(async (tx) => {
        // As a pull's page: the channel may have gone while the store was asked (see pull).
        if (!(await repo.holdConnected(tx, channel.accountId, channel.id))) throw channelDisconnected();
        if (
          meaning.deliveryId &&
          !(await repo.takeDelivery(tx, channel.accountId, channel.id, meaning.deliveryId, now))
        )
          return 'repeated';
        if (meaning.kind === 'order') {
          await repo.recordSeen(tx, channel.accountId, channel.id, [seenOf(meaning.order)], now);
        } else if (meaning.kind === 'unreadable') {
          // Signed, so the store's own: kept with why (answered 200, since sending it again changes nothing).
          const nameless = await keepUnreadable(tx, channel, [meaning.order]);
          if (nameless.length > 0)
            await repo.updateChannel(tx, channel.accountId, channel.id, {
              lastError: unreadableError(nameless),
              lastErrorAt: now,
            });
        } else {
          // WooCommerce's order.deleted carries the id alone: a row never seen has nothing to cancel.
          const known = await repo.ledgerRow(tx, channel.accountId, channel.id, meaning.channelOrderId);
          if (known)
            await repo.recordSeen(
              tx,
              channel.accountId,
              channel.id,
              [
                {
                  channelOrderId: known.channelOrderId,
                  channelOrderName: known.channelOrderName,
                  payload: known.payload,
                  cancelled: true,
                  awaitingShipment: false,
                },
              ],
              now,
            );
        }
        return 'taken';
      });
    },

    importPending,

    /** One round of the intake: the pulls that are due, then the ledger's pending rows until none are left. */
    async round(): Promise<{ pulled: number; imported: number }> {
      let pulled = 0;
      for (const channel of await repo.claimDuePulls(db, clock.now(), pullEveryMs, PULL_LEASE_MS)) {
        pulled += await pull(channel);
      }
      let imported = 0;
      for (let batch = await importPending(); batch > 0; batch = await importPending()) imported += batch;
      return { pulled, imported };
    },
  };
}
