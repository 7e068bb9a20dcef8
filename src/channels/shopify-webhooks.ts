import { type ChannelAdapter, ChannelCallError, type ChannelCredentials } from './channel-adapter.js';
import type { ShopifyGraphql } from './shopify-fulfilment.js';

// Shopify's webhook subscriptions for a connection (docs/channels-sources.md S7): one
// webhookSubscriptionCreate per topic, JSON to the channel's webhook URL. A custom app's
// subscriptions are signed with its API secret key, the channel's webhook_secret. A topic already
// sent to that address is answered "Address for this topic has already been taken": it is there.

type Json = Record<string, unknown>;
type ShopifyCredentials = Extract<ChannelCredentials, { channel: 'shopify' }>;

export const SHOPIFY_WEBHOOK_TOPICS = ['ORDERS_CREATE', 'ORDERS_UPDATED', 'ORDERS_CANCELLED'] as const;

const CREATE = `mutation($topic:WebhookSubscriptionTopic!,$w:WebhookSubscriptionInput!){
  webhookSubscriptionCreate(topic:$topic, webhookSubscription:$w){
  webhookSubscription{id topic} userErrors{field message}}}`;
const DELETE = `mutation($id:ID!){webhookSubscriptionDelete(id:$id){deletedWebhookSubscriptionId userErrors{field message}}}`;

const record = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const messages = (payload: Json | undefined) =>
  (Array.isArray(payload?.userErrors) ? payload.userErrors : []).map((e) => String(record(e)?.message ?? e));

export function createShopifyWebhooks(
  shopify: (c: ChannelCredentials) => ShopifyCredentials,
  graphql: ShopifyGraphql,
): Pick<ChannelAdapter, 'registerWebhooks' | 'removeWebhooks'> {
  return {
    async registerWebhooks(credentials, callbackUrl) {
      const creds = shopify(credentials);
      const ids: string[] = [];
      for (const topic of SHOPIFY_WEBHOOK_TOPICS) {
        const data = await graphql(creds, CREATE, { topic, w: { callbackUrl, format: 'JSON' } });
        const payload = record(data.webhookSubscriptionCreate);
        const refused = messages(payload);
        if (refused.some((message) => /already been taken/i.test(message))) continue;
        if (refused.length > 0)
          throw new ChannelCallError('rejected', `Shopify refused the ${topic} webhook: ${refused.join('; ')}`);
        const id = record(payload?.webhookSubscription)?.id;
        if (typeof id !== 'string') throw new ChannelCallError('malformed', 'Shopify answered no webhook subscription');
        ids.push(id);
      }
      return { ids };
    },

    async removeWebhooks(credentials, ids) {
      const creds = shopify(credentials);
      for (const id of ids) {
        const data = await graphql(creds, DELETE, { id });
        const refused = messages(record(data.webhookSubscriptionDelete));
        // One the merchant already removed is gone either way.
        if (refused.length > 0 && !refused.some((message) => /not exist|not found/i.test(message)))
          throw new ChannelCallError('rejected', `Shopify refused to remove webhook ${id}: ${refused.join('; ')}`);
      }
    },
  };
}
