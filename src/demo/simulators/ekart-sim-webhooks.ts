import { createHmac } from 'node:crypto';

/**
 * How the simulator signs a post: Ekart's description says only that the webhook secret is used
 * "to hash the webhook post body with for calculating h-mac", naming no header and no encoding. By
 * default the hex HMAC-SHA256 in `x-ekart-signature` (the header public client code reads); tests
 * change it to any header and encoding a real Ekart might use (the candidates are in
 * couriers/fixtures/ekart.fixtures.ts).
 */
export interface EkartSimSigning {
  header: string;
  encoding: 'hex' | 'base64';
  /** Written before the value, as `sha256=` on GitHub-style signatures. */
  prefix: string;
}

const DEFAULT_SIGNING: EkartSimSigning = { header: 'x-ekart-signature', encoding: 'hex', prefix: '' };

/**
 * Ekart's webhooks as its simulator keeps them: registered with POST /api/v2/webhook {url, secret,
 * topics}, and each post signed with the webhook's secret as `signWith` last said.
 */
export function createEkartSimWebhooks() {
  const webhooks: { id: string; url: string; secret: string; topics: string[]; active: boolean }[] = [];
  /** What each webhook post was answered. */
  const pushes: { url: string; body: string; status: number }[] = [];
  let signing = DEFAULT_SIGNING;

  return {
    webhooks,
    pushes,
    /** Signs the posts from now on this way (the default for what is not given). */
    signWith(how: Partial<EkartSimSigning> = {}) {
      signing = { ...DEFAULT_SIGNING, ...how };
    },
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
        const signature = signing.prefix + createHmac('sha256', hook.secret).update(body).digest(signing.encoding);
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [signing.header]: signature },
          body,
        });
        await response.arrayBuffer();
        pushes.push({ url: hook.url, body, status: response.status });
      }
    },
  };
}
