import { flag } from '../setting-kinds.js';
import { defineSettings, type SettingsOf } from '../settings.js';

/**
 * The operator's rules for every URL an account controls (webhook endpoints, messaging base_url,
 * sales channels' store URLs, the e-way bill GSP's base_url): the one outbound guard judges them by these. The names say
 * "webhook" because webhooks had them first.
 */
export const outboundSettings = defineSettings({
  allowHttp: flag('WEBHOOK_ALLOW_HTTP', {
    doc: "`true` accepts plain `http://` in every URL an account controls: webhook endpoints, a messaging channel's `base_url`, a sales channel's store, the e-way bill GSP's `base_url`",
    default: false,
  }),
  allowPrivate: flag('WEBHOOK_ALLOW_PRIVATE', {
    doc: "`true` lets every URL an account controls (webhook endpoints, a messaging channel's `base_url`, a sales channel's store, the e-way bill GSP's `base_url`) name or resolve to loopback, private, link-local and the other refused addresses (receivers on your own network). A receiver on your own machine (`http://127.0.0.1:…`) needs both settings. Without it these URLs go through one outbound guard when saved and before every request ([docs/webhooks.md](docs/webhooks.md#safe-targets)). An endpoint registered while one of them was on and refused now is logged at start-up and answers `refused_reason`",
    default: false,
  }),
});

export type OutboundSettings = SettingsOf<typeof outboundSettings>;
