import type { ChannelSettings } from '../channels/channels.settings.js';
import { SIM_SHOPIFY_TOKEN, startShopifySimulator } from './simulators/shopify-simulator.js';
import { startWooCommerceSimulator } from './simulators/woocommerce-simulator.js';
import { shopifyDemoOrder, wooCommerceDemoOrder } from './store-orders.js';

/** The orders each demo store already holds, waiting to ship, when the demo starts: its first pull imports them. */
const WAITING = 4;
const SHOPIFY_WEBHOOK_SECRET = 'demo-shopify-app-secret';
const WOO_WEBHOOK_SECRET = 'demo-woocommerce-webhook-secret';

/** The demo's one way of calling its own API (through app.inject), answering the JSON or throwing. */
type Call = (method: 'POST', url: string, payload: object, authorization: string) => Promise<unknown>;
type ChannelAnswer = { data: { id: string; webhook_url: string; shop_domain: string | null; site_url: string | null } };

export interface ConnectedStore {
  platform: 'shopify' | 'woocommerce';
  storeName: string;
  channelId: string;
  webhookUrl: string;
  /** Where the store lives: the shop's domain, or the site's URL. */
  address: string;
}

/**
 * A Shopify shop and a WooCommerce site for `npm run demo`, each a local simulator of the platform's
 * API (the ones the adapters' tests use), seeded with orders waiting to ship. `connect` makes a
 * store for each and connects it through the API, as a merchant would; `newOrder` places an order
 * in one of them and posts its signed webhook to the channel's webhook_url, as the platform does.
 */
export async function startStoreSimulators() {
  const [shopify, woo] = await Promise.all([
    startShopifySimulator({ shopName: 'Chai Point Online', domain: 'chai-point-online.myshopify.com' }),
    startWooCommerceSimulator({ siteName: 'Chai Point Tea House' }),
  ]);
  let shopifyOrders = 0;
  let wooOrders = 0;
  const addShopify = () => {
    const order = shopifyDemoOrder(++shopifyOrders);
    shopify.addOrder(order.node);
    return order.webhook;
  };
  const addWoo = () => {
    const order = wooCommerceDemoOrder(++wooOrders);
    woo.addOrder(order);
    return order;
  };
  for (let i = 0; i < WAITING; i++) {
    addShopify();
    addWoo();
  }
  const connected: ConnectedStore[] = [];

  /** The raw body goes as it was signed: the signature is over these bytes. */
  async function post(url: string, raw: string, headers: Record<string, string>) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  }

  return {
    /** Shopify's Admin API asked at the simulator instead of https://{shop_domain}. */
    channelSettings: (channels: ChannelSettings): ChannelSettings => ({ ...channels, shopifyBaseUrl: shopify.baseUrl }),

    /** A store for each platform, connected with the simulators' credentials: Shopify books on import, WooCommerce queues. */
    async connect(call: Call, apiKey: string, warehouseId: string): Promise<ConnectedStore[]> {
      const stores = [
        {
          platform: 'shopify' as const,
          storeName: 'chai-point-shopify',
          brandName: 'Chai Point Online',
          body: {
            channel: 'shopify',
            shop_domain: shopify.shop.myshopifyDomain,
            access_token: SIM_SHOPIFY_TOKEN,
            webhook_secret: SHOPIFY_WEBHOOK_SECRET,
            on_import: 'book',
          },
        },
        {
          platform: 'woocommerce' as const,
          storeName: 'chai-point-woo',
          brandName: 'Chai Point Tea House',
          body: {
            channel: 'woocommerce',
            site_url: woo.baseUrl,
            consumer_key: woo.keys.consumerKey,
            consumer_secret: woo.keys.consumerSecret,
            webhook_secret: WOO_WEBHOOK_SECRET,
            // WooCommerce orders carry no weights: each ships at the channel's default.
            default_weight: 0.5,
            on_import: 'queue',
          },
        },
      ];
      for (const store of stores) {
        await call(
          'POST',
          '/custom/api/v1/client-stores',
          { store_name: store.storeName, brand_name: store.brandName },
          apiKey,
        );
        const channel = (
          (await call(
            'POST',
            '/custom/api/v1/channels',
            { ...store.body, store_name: store.storeName, warehouse_id: warehouseId },
            apiKey,
          )) as ChannelAnswer
        ).data;
        connected.push({
          platform: store.platform,
          storeName: store.storeName,
          channelId: channel.id,
          webhookUrl: channel.webhook_url,
          address: channel.shop_domain ?? channel.site_url ?? '',
        });
      }
      return connected;
    },

    /** An order placed in the next store in turn, and its creation webhook posted, signed, to Dakiya. */
    async newOrder(): Promise<string> {
      const store = connected[(shopifyOrders + wooOrders) % connected.length];
      if (!store) throw new Error('no store connected yet');
      if (store.platform === 'shopify') {
        const order = addShopify();
        const raw = JSON.stringify(order);
        await post(store.webhookUrl, raw, {
          'x-shopify-topic': 'orders/create',
          'x-shopify-shop-domain': shopify.shop.myshopifyDomain,
          'x-shopify-webhook-id': crypto.randomUUID(),
          'x-shopify-hmac-sha256': shopify.signWebhook(raw, SHOPIFY_WEBHOOK_SECRET),
        });
        return `${store.storeName} ${String(order.name)}`;
      }
      const order = addWoo();
      const raw = JSON.stringify(order);
      await post(store.webhookUrl, raw, {
        'x-wc-webhook-source': `${woo.baseUrl}/`,
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-resource': 'order',
        'x-wc-webhook-event': 'created',
        'x-wc-webhook-delivery-id': String(1000 + wooOrders),
        'x-wc-webhook-signature': woo.signWebhook(raw, WOO_WEBHOOK_SECRET),
      });
      return `${store.storeName} ${String(order.number)}`;
    },

    close: () => Promise.all([shopify.close(), woo.close()]).then(() => undefined),
  };
}
