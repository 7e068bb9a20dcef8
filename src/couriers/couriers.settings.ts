import path from 'node:path';
import { ConfigError } from '../base/config-error.js';
import { baseUrl, count, custom, fixed, oneOf, seconds, text, textOfLength } from '../base/setting-kinds.js';
import { defineSettings } from '../base/settings.js';
import type { CourierCatalogue } from '../domain/rates/catalogue.js';
import { SANDBOX_SCENARIOS, type SandboxScenario } from './sandbox-scenarios.js';

/**
 * Shadowfax's two models (its Unified API): `warehouse`, parcels handed over at the client's own
 * warehouse, returned as RTO (`rto_details`); `marketplace`, collected from a seller's address,
 * returned as RTS (`rts_details`). A client account is set up for one or both.
 */
export const SHADOWFAX_ORDER_TYPES = ['warehouse', 'marketplace'] as const;
export type ShadowfaxOrderType = (typeof SHADOWFAX_ORDER_TYPES)[number];

export const DEFAULT_SCENARIO_BY_DIGIT: readonly SandboxScenario[] = [
  ...Array<SandboxScenario>(6).fill('delivered'),
  'ndr_delivered',
  'ndr_delivered',
  'rto',
  'lost',
];

/** The couriers' APIs as the connectors take them. */
export interface CourierSettings {
  /** COURIERS_FILE resolved: the courier catalogue; the shipped data/couriers.json when absent. */
  readonly catalogueFile: string | undefined;
  /** Delhivery's API token and base URL; needed only when a service's connector is delhivery. */
  readonly delhivery: { readonly token: string | undefined; readonly baseUrl: string };
  /** Ekart's client id, user and password (for a bearer token) and base URL, needed only when a service's connector is ekart; the secret signing its webhook's posts. */
  readonly ekart: {
    readonly clientId: string | undefined;
    readonly username: string | undefined;
    readonly password: string | undefined;
    readonly baseUrl: string;
    readonly webhookSecret?: string;
  };
  /** Xpressbees' login (e-mail and password, traded for a bearer token) and base URL; needed only when a service's connector is xpressbees. */
  readonly xpressbees: {
    readonly email: string | undefined;
    readonly password: string | undefined;
    readonly baseUrl: string;
  };
  /**
   * Shadowfax's API token (sent as `Authorization: Token <key>`) and base URL, needed only when a
   * service's connector is shadowfax; the order type its client account is set up for.
   */
  readonly shadowfax: {
    readonly token: string | undefined;
    readonly baseUrl: string;
    readonly orderType: ShadowfaxOrderType;
  };
  /** How long one call to a courier may take before it counts as a time-out. */
  readonly timeoutMs: number;
  /** The shortest interval between two tracking pulls of one shipment (near delivery). */
  readonly pollSeconds: number;
  /** How often each process re-reads accounts' own courier credentials. */
  readonly credentialsRefreshMs: number;
  /** The sandbox courier: seconds between the scans of a scenario, and the scenario per last digit of the order id. */
  readonly sandbox: { readonly stepSeconds: number; readonly scenarioByDigit: readonly SandboxScenario[] };
}

/** The couriers' APIs: the catalogue, credentials, time-outs, the tracking poller's pace and the sandbox's. */
export const courierSettings = defineSettings(
  {
    catalogueFile: text('COURIERS_FILE', {
      doc: 'the courier catalogue, for an operator who keeps an edited one outside the checkout (docs/couriers.md)',
      shownDefault: '`data/couriers.json`',
    }),
    delhiveryToken: text('DELHIVERY_API_TOKEN', {
      doc: "Delhivery's API token; required (start-up stops otherwise) when a service's `connector` is `delhivery`. Never logged or answered",
    }),
    delhiveryBaseUrl: baseUrl('DELHIVERY_BASE_URL', {
      doc: "Delhivery's API; `https://staging-express.delhivery.com` for its staging environment",
      default: 'https://track.delhivery.com',
    }),
    ekartClientId: text('EKART_CLIENT_ID', {
      doc: "Ekart's client id; with `EKART_USERNAME` and `EKART_PASSWORD` (Ekart's API user) required (start-up stops otherwise) when a service's `connector` is `ekart`. A bearer token is fetched with them; none is logged or answered",
    }),
    ekartUsername: text('EKART_USERNAME', { doc: "Ekart's API user (see `EKART_CLIENT_ID`)" }),
    ekartPassword: text('EKART_PASSWORD', { doc: "Ekart's API user's password (see `EKART_CLIENT_ID`)" }),
    ekartBaseUrl: baseUrl('EKART_BASE_URL', {
      doc: "Ekart's API",
      default: 'https://app.elite.ekartlogistics.in',
    }),
    ekartWebhookSecret: textOfLength('EKART_WEBHOOK_SECRET', {
      doc: 'the secret registered with Ekart\'s `track_updated` webhook, which signs its posts to `POST /carrier/v1/ekart/webhook`; unset, that route answers 404 (docs/couriers.md, "Ekart")',
      min: 6,
      max: 30,
      whose: "Ekart's",
    }),
    xpressbeesEmail: text('XPRESSBEES_EMAIL', {
      doc: "the login of your Xpressbees shipping account, with `XPRESSBEES_PASSWORD`; both required (start-up stops otherwise) when a service's `connector` is `xpressbees`. Traded for a bearer token; neither is logged or answered",
    }),
    xpressbeesPassword: text('XPRESSBEES_PASSWORD', { doc: 'the password of that login (see `XPRESSBEES_EMAIL`)' }),
    xpressbeesBaseUrl: baseUrl('XPRESSBEES_BASE_URL', {
      doc: "Xpressbees' API",
      default: 'https://shipment.xpressbees.com',
    }),
    shadowfaxToken: text('SHADOWFAX_TOKEN', {
      doc: "Shadowfax's client API token (sent as `Authorization: Token <key>`); required (start-up stops otherwise) when a service's `connector` is `shadowfax`. Never logged or answered",
    }),
    shadowfaxBaseUrl: baseUrl('SHADOWFAX_BASE_URL', {
      doc: "Shadowfax's client API (paths start `/api/`); `https://dale.staging.shadowfax.in` for its staging environment",
      default: 'https://dale.shadowfax.in',
    }),
    shadowfaxOrderType: oneOf('SHADOWFAX_ORDER_TYPE', SHADOWFAX_ORDER_TYPES, {
      doc: 'the order type Shadowfax set your client account up for, sent as `order_type` on each forward booking: `warehouse` (parcels handed over at your warehouses; the way back is an RTO to `rto_details`) or `marketplace` (collected from a seller\'s address; the way back is an RTS to `rts_details`). An account\'s own Shadowfax credentials may name another (`order_type`). Ask Shadowfax which one your account has: a type it is not set up for refuses every booking (docs/couriers.md, "Shadowfax")',
      default: 'warehouse',
    }),
    timeoutMs: count('COURIER_TIMEOUT_MS', {
      doc: "how long one call to a courier's API may take before it counts as a time-out, in milliseconds",
      default: 10_000,
      min: 100,
      max: 120_000,
    }),
    pollSeconds: seconds('TRACKING_POLL_SECONDS', {
      doc: 'the shortest interval between two tracking pulls of one shipment (near delivery); other stages and older shipments are asked less often',
      default: 900,
      min: 0.1,
      max: 86_400,
    }),
    // A fresh install books on the sandbox, so its first shipment is picked up a minute after
    // booking and delivered in about four, while the user watches.
    sandboxStepSeconds: seconds('SANDBOX_STEP_SECONDS', {
      doc: 'seconds between two scans of a sandbox scenario; sandbox parcels are asked for at this beat',
      default: 60,
      shownDefault: '`60` (`20` under `npm run demo`)',
      min: 0.1,
      max: 86_400,
    }),
    sandboxScenarios: custom('SANDBOX_SCENARIOS', {
      doc: 'ten comma-separated scenarios, for merchant order ids ending in 0 to 9; a `sandbox_scenario:<name>` tag on the order wins',
      type: 'scenarios, comma-separated',
      range: SANDBOX_SCENARIOS.map((name) => `\`${name}\``).join(', '),
      default: DEFAULT_SCENARIO_BY_DIGIT,
      shownDefault: '`delivered` ×6, `ndr_delivered` ×2, `rto`, `lost`',
      parse: parseScenarios,
    }),
    credentialsRefreshMs: fixed(5_000, "How often each process re-reads accounts' own courier credentials."),
  },
  (values): CourierSettings => ({
    catalogueFile: values.catalogueFile === undefined ? undefined : path.resolve(values.catalogueFile),
    delhivery: { token: values.delhiveryToken, baseUrl: values.delhiveryBaseUrl },
    ekart: {
      clientId: values.ekartClientId,
      username: values.ekartUsername,
      password: values.ekartPassword,
      baseUrl: values.ekartBaseUrl,
      webhookSecret: values.ekartWebhookSecret,
    },
    xpressbees: {
      email: values.xpressbeesEmail,
      password: values.xpressbeesPassword,
      baseUrl: values.xpressbeesBaseUrl,
    },
    shadowfax: {
      token: values.shadowfaxToken,
      baseUrl: values.shadowfaxBaseUrl,
      orderType: values.shadowfaxOrderType as ShadowfaxOrderType,
    },
    timeoutMs: values.timeoutMs,
    pollSeconds: values.pollSeconds,
    credentialsRefreshMs: values.credentialsRefreshMs,
    sandbox: { stepSeconds: values.sandboxStepSeconds, scenarioByDigit: values.sandboxScenarios },
  }),
);

function parseScenarios(raw: string): readonly SandboxScenario[] {
  const names = raw.split(',').map((name) => name.trim());
  if (names.length !== 10 || names.some((name) => !(SANDBOX_SCENARIOS as readonly string[]).includes(name))) {
    throw new ConfigError(
      `SANDBOX_SCENARIOS must list 10 scenarios (for order ids ending in 0 to 9), each one of ${SANDBOX_SCENARIOS.join(', ')}, got "${raw}"`,
    );
  }
  return names as SandboxScenario[];
}

/**
 * A service on delhivery without DELHIVERY_API_TOKEN, on ekart without Ekart's credentials, on
 * xpressbees without its login or on shadowfax without SHADOWFAX_TOKEN stops start-up: it could
 * book nothing. Every such courier is named at once.
 */
export function checkConnectorSettings(catalogue: CourierCatalogue, settings: CourierSettings): void {
  const on = (connector: string) => catalogue.services.filter((s) => s.connector === connector).map((s) => s.id);
  const problems: string[] = [];
  const missing = (ok: boolean, variables: string, connector: string) => {
    const services = on(connector);
    if (services.length > 0 && !ok) {
      problems.push(`${variables} must be set: courier services ${services.join(', ')} use the ${connector} connector`);
    }
  };
  const { delhivery, ekart, xpressbees, shadowfax } = settings;
  missing(Boolean(delhivery.token), 'DELHIVERY_API_TOKEN', 'delhivery');
  missing(
    Boolean(ekart.clientId && ekart.username && ekart.password),
    'EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD',
    'ekart',
  );
  missing(Boolean(xpressbees.email && xpressbees.password), 'XPRESSBEES_EMAIL and XPRESSBEES_PASSWORD', 'xpressbees');
  missing(Boolean(shadowfax.token), 'SHADOWFAX_TOKEN', 'shadowfax');
  if (problems.length > 0) throw new ConfigError(problems);
}
