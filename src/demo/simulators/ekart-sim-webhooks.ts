import { createHmac } from 'node:crypto';

/**
 * Ekart's webhooks as its simulator keeps them: registered with POST /api/v2/webhook {url, secret,
 * topics}, and each post signed with the webhook's secret, the hex HMAC-SHA256 of the body in
 * `x-ekart-signature` (Ekart's description says only that the secret is used "to hash the webhook
 * post body with for calculating h-mac"; public client code reads that header).
 */
export function createEkartSimWebhooks() {
  const webhooks: { id: string; url: string; secret: string; topics: string[]; active: boolean }[] = [];
  /** What each webhook post was answered. */
  const pushes: { url: string; body: string; status: number }[] = [];

  return {
    webhooks,
    pushes,
    /** A registration as Ekart validates it, or undefined when it would answer 400. */
    register(hook: { url?: unknown; secret?: unknown; topics?: unknown }) {
      const secret = typeof hook.secret === 'string' ? hook.secret : '';
      if (typeof hook.url !== 'string' || secret.length < 6 || secret.length > 30) return undefined;
      if (!Array.isArray(hook.topics) || hook.topics.length === 0) return undefined;
      const registered = {
        id: `wh-${webhooks.length + 1}`,
        url: hook.url,
        secret,
        topics: hook.topics.map(String),
        active: true,
      };
      webhooks.push(registered);
      return registered;
    },
    /** Posts a body to every active webhook of a topic, one after another. */
    async post(topic: string, fields: Record<string, unknown>) {
      const body = JSON.stringify(fields);
      for (const hook of webhooks.filter((h) => h.active && h.topics.includes(topic))) {
        const signature = createHmac('sha256', hook.secret).update(body).digest('hex');
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-ekart-signature': signature },
          body,
        });
        await response.arrayBuffer();
        pushes.push({ url: hook.url, body, status: response.status });
      }
    },
  };
}
