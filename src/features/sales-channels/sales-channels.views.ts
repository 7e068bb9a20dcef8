import type { ChannelViewBody, LedgerViewBody } from './sales-channels.schemas.js';
import type { ChannelOrderRow, SalesChannelRow } from './sales-channels.repository.js';

export type { ChannelSettingsInput, ConnectInput } from './sales-channels.schemas.js';

/** The topics each platform's webhooks are added for: what the merchant ticks in the store. */
const TOPICS: Record<string, string[]> = {
  shopify: ['orders/create', 'orders/updated', 'orders/cancelled'],
  woocommerce: ['order.created', 'order.updated', 'order.deleted'],
};

const iso = (at: Date | null) => at?.toISOString() ?? null;

export function channelView(
  row: SalesChannelRow,
  storeName: string | null,
  counts: Record<string, number>,
  webhookUrl: string,
): ChannelViewBody {
  const count = (state: string) => counts[state] ?? 0;
  return {
    id: row.id,
    channel: row.channel,
    store_id: row.storeId,
    store_name: storeName,
    shop_name: row.shopName,
    shop_domain: row.channel === 'shopify' ? row.address : null,
    site_url: row.channel === 'woocommerce' ? row.address : null,
    warehouse_id: row.warehouseId,
    status: row.status,
    on_import: row.onImport as ChannelViewBody['on_import'],
    notify_customer: row.notifyCustomer,
    default_weight: row.defaultWeightGrams === null ? null : row.defaultWeightGrams / 1000,
    length: row.lengthCm,
    breadth: row.breadthCm,
    height: row.heightCm,
    webhook_url: webhookUrl,
    webhook_topics: TOPICS[row.channel] ?? [],
    webhooks_registered: row.webhookIds !== null,
    webhook_error: row.webhookError,
    last_synced_at: iso(row.lastSyncedAt),
    last_error: row.lastError,
    last_error_at: iso(row.lastErrorAt),
    counts: {
      imported: count('imported'),
      refused: count('refused'),
      pending: count('pending'),
      skipped: count('skipped'),
      cancelled: count('cancelled'),
      cancel_flagged: count('cancel_flagged'),
    },
    created_at: row.createdAt.toISOString(),
    disconnected_at: iso(row.disconnectedAt),
  };
}

export function ledgerView(row: ChannelOrderRow): LedgerViewBody {
  return {
    channel_order_id: row.channelOrderId,
    channel_order_name: row.channelOrderName,
    state: row.state,
    reason: row.reason,
    fields: row.fields,
    order_id: row.orderId,
    shipment_id: row.shipmentId,
    cancelled_in_store: row.cancelled,
    first_seen_at: row.firstSeenAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
