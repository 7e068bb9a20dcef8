import type { ChannelAdapter, ChannelCredentials } from './channel-adapter.js';
import type { ChannelAnswer } from './channel-http.js';
import type { WooRequest } from './woocommerce-fulfilment.js';

// WooCommerce's webhooks for a connection (docs/channels-sources.md W10): POST /wc/v3/webhooks per
// topic with the channel's secret, which WooCommerce signs each delivery with; the site pings the
// URL as it creates one (answered 200 by the intake). Removed with DELETE ?force=true: webhooks
// cannot be trashed (a 501 without force).

export const WOOCOMMERCE_WEBHOOK_TOPICS = ['order.created', 'order.updated', 'order.deleted'] as const;

interface Deps {
  call(
    credentials: ChannelCredentials,
    request: WooRequest,
    what: string,
  ): Promise<{ answer: ChannelAnswer; site: URL }>;
  expect(answer: ChannelAnswer, site: URL, what: string, ok: readonly number[]): unknown;
}

export function createWooCommerceWebhooks({
  call,
  expect,
}: Deps): Pick<ChannelAdapter, 'registerWebhooks' | 'removeWebhooks'> {
  return {
    async registerWebhooks(credentials, callbackUrl) {
      const secret = credentials.channel === 'woocommerce' ? credentials.webhookSecret : '';
      const ids: string[] = [];
      for (const topic of WOOCOMMERCE_WEBHOOK_TOPICS) {
        const what = `the ${topic} webhook`;
        const json = { name: `Dakiya: ${topic}`, topic, delivery_url: callbackUrl, secret, status: 'active' };
        const { answer, site } = await call(credentials, { method: 'POST', route: '/wc/v3/webhooks', json }, what);
        const id = (expect(answer, site, what, [200, 201]) as { id?: unknown } | null)?.id;
        ids.push(String(id));
      }
      return { ids };
    },

    async removeWebhooks(credentials, ids) {
      for (const id of ids) {
        const what = `webhook ${id}`;
        const route = `/wc/v3/webhooks/${encodeURIComponent(id)}`;
        const { answer, site } = await call(credentials, { method: 'DELETE', route, query: { force: 'true' } }, what);
        // One the merchant already deleted is gone either way.
        if (answer.status !== 404) expect(answer, site, what, [200]);
      }
    },
  };
}
