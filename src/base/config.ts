import path from 'node:path';
import { ConfigError } from './config-error.js';
import { type Env, nonEmpty, parseBoolean, parseCount, parseDelays, parsePort, parseSeconds, parseTrustProxy, parseUrl, textOfLength, type TrustProxy } from './config-parsers.js';

export { ConfigError };
export type { TrustProxy };

/** A webhook receiver's 2xx must come within this. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** One SMTP exchange (connect, greet, authenticate, send) must end within this. */
export const MAIL_TIMEOUT_MS = 30_000;
/** /readyz answers 503 when the database has not answered within this: a dropped network answers nothing at all. */
export const READY_TIMEOUT_MS = 2_000;
/** Days a merchant has to accept or dispute a weight discrepancy before it is accepted for them. */
export const DEFAULT_WEIGHT_DISPUTE_WINDOW_DAYS = 7;
/** How often an idle worker looks for new events and due jobs (a local change wakes it sooner). */
export const DEFAULT_WORKER_POLL_INTERVAL_MS = 1000;
/**
 * The customer e-mail, buyer messaging and NDR-rule workers take the events of this long together
 * rather than running a round per booking (events/worker.ts): nobody waits on them within a second,
 * and under a sale their rounds cost the API process more CPU than the bookings that woke them.
 */
export const EVENT_BATCH_WINDOW_MS = 250;
/** A courier API call's time-out (COURIER_TIMEOUT_MS). */
export const DEFAULT_COURIER_TIMEOUT_MS = 10_000;
/** How long a label link stays valid (LABEL_URL_TTL_SECONDS). */
export const DEFAULT_LABEL_URL_TTL_SECONDS = 24 * 60 * 60;
/** Requests per minute per account (RATE_LIMIT_PER_MINUTE). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
/** Failed logins per minute of one username from one address (LOGIN_ATTEMPTS_PER_MINUTE): the hard limit. */
export const DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE = 10;
/**
 * Failed logins per minute from one address over all usernames (LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE).
 * Ten times the pair's: one user's typos stop at the pair's limit, so it takes ten users failing
 * their limit within a minute to block an office behind one NAT.
 */
export const DEFAULT_LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE = 100;
/** Failed logins of one username per 15 minutes over all addresses before it counts as under attack (LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES). */
export const DEFAULT_LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES = 30;
/** A Redis command of the limits slower than this counts as Redis failing: the limits go per process. */
export const DEFAULT_REDIS_TIMEOUT_MS = 200;
/** While Redis is failing, how often it is pinged to see whether it is back. */
export const DEFAULT_REDIS_PROBE_INTERVAL_MS = 2_000;
/**
 * Requests per minute per client address on the customers' tracking page (/t/…;
 * TRACKING_PAGE_RATE_PER_MINUTE): far above a customer's reloads, even many behind one carrier NAT,
 * far below a scraper walking tokens.
 */
export const DEFAULT_TRACKING_PAGE_RATE_PER_MINUTE = 300;
/**
 * The deepest nesting of arrays and objects a JSON body may have. No route's input is deeper than
 * about 4; the bound keeps every walk of a body (the parser's, the validators', the text check's)
 * far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * PostgreSQL connections one `npm start` holds in all over its WEB_CONCURRENCY processes: of
 * PostgreSQL's default max_connections of 100, this leaves 20 for `npm run worker`, psql,
 * migrations and a second instance starting during a deploy.
 */
export const CLUSTER_CONNECTION_BUDGET = 80;
/** Each API process's connections for its in-process event-log workers, beside the requests' pool. */
export const WORKER_POOL_SIZE = 3;
/** The delivery thread's connections: its webhook and e-mail workers run side by side (decision 116). */
export const DELIVERY_POOL_SIZE = 4;
/**
 * Beside its requests' pool, each API process holds its in-process workers' pool and its LISTEN
 * connection, and (on PostgreSQL) its delivery thread's pool and LISTEN connection (decision 105).
 */
const CONNECTIONS_BESIDE_POOL = WORKER_POOL_SIZE + 1 + DELIVERY_POOL_SIZE + 1;

/** The default schedule between webhook delivery attempts, in seconds: about 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
export const DEFAULT_RETRY_DELAYS = [5, 60, 300, 1800, 7200, 21600, 43200, 86400] as const;

/** How many webhook sends one worker runs at once: in all, for one account and for one endpoint. */
export interface SendLimits {
  readonly total: number;
  readonly perAccount: number;
  readonly perEndpoint: number;
}

/**
 * WEBHOOK_CONCURRENCY…: an account's receivers hold at most a quarter of a worker's sends, however
 * slow; one endpoint as many as its account: at 10 ms an answer, 800 a second (decision 57).
 */
export const DEFAULT_WEBHOOK_CONCURRENCY: SendLimits = Object.freeze({ total: 32, perAccount: 8, perEndpoint: 8 });

/** The default schedule between e-mail attempts, in seconds: about 1 min, 5 min, 30 min, 2 h, 6 h. */
export const DEFAULT_MAIL_RETRY_DELAYS = [60, 300, 1800, 7200, 21600] as const;

/** The default schedule between buyer-message attempts, in seconds: a confirmation is worth little hours late. */
export const DEFAULT_MESSAGE_RETRY_DELAYS = [30, 120, 600, 1800] as const;
/** One call to a messaging provider (WhatsApp Cloud API, MSG91) must end within this. */
export const MESSAGE_TIMEOUT_MS = 10_000;
export const DEFAULT_WHATSAPP_BASE_URL = 'https://graph.facebook.com';
export const DEFAULT_SMS_BASE_URL = 'https://control.msg91.com';

/** Buyer messaging: where the providers are, how sends are retried, and the key credentials are sealed with. */
export interface MessagingSettings {
  /** WHATSAPP_BASE_URL: the Cloud API's host for every account that does not name its own. */
  readonly whatsappBaseUrl: string;
  /** SMS_BASE_URL: MSG91's host for every account that does not name its own. */
  readonly smsBaseUrl: string;
  /** MESSAGE_RETRY_DELAYS: seconds between attempts of one buyer message. */
  readonly retryDelays: readonly number[];
  /** SECRETS_KEY: seals channel credentials at rest; a key kept in the database when absent (decision in docs/decisions.md). */
  readonly secretsKey: string | undefined;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the embedded database and its lock file live; ignored for data when DATABASE_URL is set. */
  readonly dataDir: string;
  /** A PostgreSQL server; when absent the embedded PGlite database in dataDir is used. */
  readonly databaseUrl: string | undefined;
  /** Server processes `npm start` runs on one port (WEB_CONCURRENCY); above 1 only with databaseUrl. */
  readonly webConcurrency: number;
  /** Connections in each API process's PostgreSQL pool. */
  readonly databasePoolSize: number;
  /** Enables the operator API when set. */
  readonly adminToken: string | undefined;
  /** Base of the absolute public URLs the API hands out (logo URLs, label links). */
  readonly publicBaseUrl: string;
  readonly logLevel: LogLevel;
  /** How long a label link stays valid, in seconds. */
  readonly labelUrlTtlSeconds: number;
  /** Requests per minute per account on the credentialed routes; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Failed logins per minute of one username from one client address before backing off. */
  readonly loginAttemptsPerMinute: number;
  /** Failed logins per minute from one client address, over all usernames, before backing off. */
  readonly loginAddressAttemptsPerMinute: number;
  /** Failed logins of one username per 15 minutes, over all addresses, before addresses that failed are refused. */
  readonly loginUsernameAttemptsPer15Minutes: number;
  /** Requests per minute per client address on the public tracking page routes; 0 turns the limit off. */
  readonly trackingPageRatePerMinute: number;
  /** Where the limits' counters live, shared by every API process; in process when absent. */
  readonly redisUrl: string | undefined;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client (for the per-address limits and logs). */
  readonly trustProxy: TrustProxy;
  /** Settings that work but are probably not what the operator meant; logged at start-up. */
  readonly warnings: readonly string[];
  /** The courier catalogue; the shipped data/couriers.json when absent. */
  readonly couriersFile: string | undefined;
  /** Couriers' APIs: credentials, time-outs and the tracking poller's pace. */
  readonly couriers: CourierSettings;
  /** Seconds between webhook delivery attempts. */
  readonly webhookRetryDelays: readonly number[];
  /** Whether webhook URLs may be plain http. */
  readonly webhookAllowHttp: boolean;
  /** Whether webhook targets may resolve to loopback, private or link-local addresses. */
  readonly webhookAllowPrivate: boolean;
  /** Webhook sends one worker runs at once, in all, per account and per endpoint. */
  readonly webhookConcurrency: SendLimits;
  /** Whether the API process runs the event-log worker itself, webhooks and e-mails (else only `npm run worker` does). */
  readonly webhookWorker: boolean;
  /** Whether bookings run the address checks and score the RTO risk (docs/rto.md). */
  readonly rtoChecks: boolean;
  /** The relay customer e-mails go through (smtp:// or smtps://, credentials in the URL); none are sent when absent. */
  readonly smtpUrl: string | undefined;
  /** The address customer e-mails come from; the display name is the store's brand. Required with smtpUrl. */
  readonly mailFrom: string | undefined;
  /** Seconds between e-mail attempts. */
  readonly mailRetryDelays: readonly number[];
  /** How much longer than its send can take a worker holds a webhook delivery or an e-mail before another process may take it over. */
  readonly workerLeaseMarginMs: number;
  readonly weightDisputeWindowDays: number;
  readonly messaging: MessagingSettings;
}

export interface CourierSettings {
  /** Delhivery's API token and base URL; needed only when a service's connector is delhivery. */
  readonly delhivery: { readonly token: string | undefined; readonly baseUrl: string };
  /** Shadowfax's API token (sent as `Authorization: Token <key>`) and base URL; needed only when a service's connector is shadowfax. */
  readonly shadowfax: { readonly token: string | undefined; readonly baseUrl: string };
  /** Ekart's client id, user and password (for a bearer token) and base URL, needed only when a service's connector is ekart; the secret signing its webhook's posts. */
  readonly ekart: { readonly clientId: string | undefined; readonly username: string | undefined; readonly password: string | undefined; readonly baseUrl: string; readonly webhookSecret?: string };
  /** How often each process re-reads accounts' own courier credentials (5 s; tests shorten it). */
  readonly credentialsRefreshMs?: number;
  /** Xpressbees' login (e-mail and password, traded for a bearer token) and base URL; needed only when a service's connector is xpressbees. */
  readonly xpressbees: { readonly email: string | undefined; readonly password: string | undefined; readonly baseUrl: string };
  /** How long one call to a courier may take before it counts as a time-out. */
  readonly timeoutMs: number;
  /** The shortest interval between two tracking pulls of one shipment (near delivery). */
  readonly pollSeconds: number;
  /** The sandbox courier: seconds between the scans of a scenario, and the scenario per last digit of the order id. */
  readonly sandbox: { readonly stepSeconds: number; readonly scenarioByDigit: readonly SandboxScenario[] };
}

export const SANDBOX_SCENARIOS = ['delivered', 'ndr_delivered', 'rto', 'lost'] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];
export const DEFAULT_SCENARIO_BY_DIGIT: readonly SandboxScenario[] = [...Array<SandboxScenario>(6).fill('delivered'), 'ndr_delivered', 'ndr_delivered', 'rto', 'lost'];
/**
 * Seconds between two scans of a sandbox scenario: a fresh install books on the sandbox, so its
 * first shipment is picked up a minute after booking and delivered in about four, while the user watches.
 */
export const DEFAULT_SANDBOX_STEP_SECONDS = 60;
export const DEFAULT_DELHIVERY_BASE_URL = 'https://track.delhivery.com';
export const DEFAULT_EKART_BASE_URL = 'https://app.elite.ekartlogistics.in';
export const DEFAULT_XPRESSBEES_BASE_URL = 'https://shipment.xpressbees.com';
export const DEFAULT_SHADOWFAX_BASE_URL = 'https://dale.shadowfax.in';

/**
 * Added to the longest a send can take to make a worker's lease on a delivery or an e-mail: room to
 * record the outcome, so a live worker never loses its job to another. Also how long past that a
 * job a dead process held waits before another process sends it.
 */
export const DEFAULT_LEASE_MARGIN_MS = 30_000;

/** What loadConfig gives with none of the courier variables set. */
export const DEFAULT_COURIER_SETTINGS: CourierSettings = {
  delhivery: { token: undefined, baseUrl: DEFAULT_DELHIVERY_BASE_URL },
  ekart: { clientId: undefined, username: undefined, password: undefined, baseUrl: DEFAULT_EKART_BASE_URL },
  xpressbees: { email: undefined, password: undefined, baseUrl: DEFAULT_XPRESSBEES_BASE_URL },
  shadowfax: { token: undefined, baseUrl: DEFAULT_SHADOWFAX_BASE_URL },
  timeoutMs: DEFAULT_COURIER_TIMEOUT_MS,
  pollSeconds: 900,
  sandbox: { stepSeconds: DEFAULT_SANDBOX_STEP_SECONDS, scenarioByDigit: DEFAULT_SCENARIO_BY_DIGIT },
};

function parseScenarios(raw: string | undefined): readonly SandboxScenario[] {
  if (raw === undefined) return DEFAULT_SCENARIO_BY_DIGIT;
  const names = raw.split(',').map((name) => name.trim());
  if (names.length !== 10 || names.some((name) => !(SANDBOX_SCENARIOS as readonly string[]).includes(name))) {
    throw new ConfigError(
      `SANDBOX_SCENARIOS must list 10 scenarios (for order ids ending in 0 to 9), each one of ${SANDBOX_SCENARIOS.join(', ')}, got "${raw}"`,
    );
  }
  return names as SandboxScenario[];
}

/** Each limit within the one above it: an account's share is at most the worker's, an endpoint's at most its account's. */
function parseSendLimits(env: Env): SendLimits {
  const total = parseCount(env, 'WEBHOOK_CONCURRENCY', DEFAULT_WEBHOOK_CONCURRENCY.total, 1, 1000);
  const perAccount = parseCount(env, 'WEBHOOK_CONCURRENCY_PER_ACCOUNT', Math.min(DEFAULT_WEBHOOK_CONCURRENCY.perAccount, total), 1, total);
  const perEndpoint = parseCount(env, 'WEBHOOK_CONCURRENCY_PER_ENDPOINT', Math.min(DEFAULT_WEBHOOK_CONCURRENCY.perEndpoint, perAccount), 1, perAccount);
  return Object.freeze({ total, perAccount, perEndpoint });
}

const MAIL_ADDRESS = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+$/;

/**
 * Reads and checks the environment once. Every other module receives the frozen result, so a bad
 * value stops start-up with one clear message instead of failing later in a request.
 */
export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(nonEmpty(env, 'PORT'));
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? './data');
  const databaseUrl = parseUrl('DATABASE_URL', nonEmpty(env, 'DATABASE_URL'), ['postgres:', 'postgresql:']);
  const webConcurrency = parseCount(env, 'WEB_CONCURRENCY', 1, 1, 64);
  if (webConcurrency > 1 && databaseUrl === undefined) {
    throw new ConfigError(
      `WEB_CONCURRENCY=${webConcurrency} needs DATABASE_URL: the embedded database (PGlite) is opened by one process only; set DATABASE_URL to a PostgreSQL server or WEB_CONCURRENCY to 1`,
    );
  }
  // All the processes' connections together stay within the budget; each request pool has at most
  // 10 and at least 2 (a booking's transaction and another request at once).
  const pooled = Math.max(2, Math.min(10, Math.floor(CLUSTER_CONNECTION_BUDGET / webConcurrency) - CONNECTIONS_BESIDE_POOL));
  const databasePoolSize = parseCount(env, 'DATABASE_POOL_SIZE', pooled, 1, 1000);

  const adminToken = nonEmpty(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
  }

  const rawLevel = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(rawLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${rawLevel}"`);
  }

  const rawTtl = nonEmpty(env, 'LABEL_URL_TTL_SECONDS') ?? String(DEFAULT_LABEL_URL_TTL_SECONDS);
  const labelUrlTtlSeconds = Number(rawTtl);
  if (!/^\d+$/.test(rawTtl) || labelUrlTtlSeconds < 60 || labelUrlTtlSeconds > 30 * 86400) {
    throw new ConfigError(`LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "${rawTtl}"`);
  }

  const rateLimitPerMinute = parseCount(env, 'RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT_PER_MINUTE, 0, 100_000_000);
  const loginAttemptsPerMinute = parseCount(env, 'LOGIN_ATTEMPTS_PER_MINUTE', DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE, 1, 10_000);
  const loginAddressAttemptsPerMinute = parseCount(env, 'LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE', DEFAULT_LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE, 1, 1_000_000);
  const loginUsernameAttemptsPer15Minutes = parseCount(env, 'LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES', DEFAULT_LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES, 1, 1_000_000);
  const trackingPageRatePerMinute = parseCount(env, 'TRACKING_PAGE_RATE_PER_MINUTE', DEFAULT_TRACKING_PAGE_RATE_PER_MINUTE, 0, 100_000_000);
  const redisUrl = parseUrl('REDIS_URL', nonEmpty(env, 'REDIS_URL'), ['redis:', 'rediss:']);
  const webhookRetryDelays = parseDelays(env, 'WEBHOOK_RETRY_DELAYS', DEFAULT_RETRY_DELAYS);
  const webhookAllowHttp = parseBoolean(env, 'WEBHOOK_ALLOW_HTTP', false);
  const webhookAllowPrivate = parseBoolean(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  const webhookWorker = parseBoolean(env, 'WEBHOOK_WORKER', true);
  const webhookConcurrency = parseSendLimits(env);
  const smtpUrl = parseUrl('SMTP_URL', nonEmpty(env, 'SMTP_URL'), ['smtp:', 'smtps:'], true);
  const mailFrom = nonEmpty(env, 'MAIL_FROM');
  if (mailFrom !== undefined && !MAIL_ADDRESS.test(mailFrom)) {
    throw new ConfigError(`MAIL_FROM must be a bare e-mail address (the name shown is the store's brand), got "${mailFrom}"`);
  }
  if (smtpUrl !== undefined && mailFrom === undefined) {
    throw new ConfigError('SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address customer e-mails come from');
  }
  const mailRetryDelays = parseDelays(env, 'MAIL_RETRY_DELAYS', DEFAULT_MAIL_RETRY_DELAYS);
  const workerLeaseMarginMs = parseCount(env, 'WORKER_LEASE_MARGIN_MS', DEFAULT_LEASE_MARGIN_MS, 100, 3_600_000);

  const secretsKey = nonEmpty(env, 'SECRETS_KEY');
  if (secretsKey !== undefined && secretsKey.length < 32) throw new ConfigError('SECRETS_KEY must be at least 32 characters long (e.g. openssl rand -base64 32)');
  const hostOf = (name: string, fallback: string) => (parseUrl(name, nonEmpty(env, name), ['http:', 'https:']) ?? fallback).replace(/\/+$/, '');
  const messaging: MessagingSettings = Object.freeze({
    whatsappBaseUrl: hostOf('WHATSAPP_BASE_URL', DEFAULT_WHATSAPP_BASE_URL),
    smsBaseUrl: hostOf('SMS_BASE_URL', DEFAULT_SMS_BASE_URL),
    retryDelays: parseDelays(env, 'MESSAGE_RETRY_DELAYS', DEFAULT_MESSAGE_RETRY_DELAYS),
    secretsKey,
  });

  const couriersFile = nonEmpty(env, 'COURIERS_FILE');
  const couriers: CourierSettings = {
    delhivery: {
      token: nonEmpty(env, 'DELHIVERY_API_TOKEN'),
      baseUrl: (parseUrl('DELHIVERY_BASE_URL', nonEmpty(env, 'DELHIVERY_BASE_URL'), ['http:', 'https:']) ?? DEFAULT_DELHIVERY_BASE_URL).replace(/\/+$/, ''),
    },
    ekart: {
      clientId: nonEmpty(env, 'EKART_CLIENT_ID'),
      username: nonEmpty(env, 'EKART_USERNAME'),
      password: nonEmpty(env, 'EKART_PASSWORD'),
      baseUrl: (parseUrl('EKART_BASE_URL', nonEmpty(env, 'EKART_BASE_URL'), ['http:', 'https:']) ?? DEFAULT_EKART_BASE_URL).replace(/\/+$/, ''),
      webhookSecret: textOfLength(env, 'EKART_WEBHOOK_SECRET', 6, 30, "Ekart's"),
    },
    xpressbees: {
      email: nonEmpty(env, 'XPRESSBEES_EMAIL'),
      password: nonEmpty(env, 'XPRESSBEES_PASSWORD'),
      baseUrl: (parseUrl('XPRESSBEES_BASE_URL', nonEmpty(env, 'XPRESSBEES_BASE_URL'), ['http:', 'https:']) ?? DEFAULT_XPRESSBEES_BASE_URL).replace(/\/+$/, ''),
    },
    shadowfax: {
      token: nonEmpty(env, 'SHADOWFAX_TOKEN'),
      baseUrl: (parseUrl('SHADOWFAX_BASE_URL', nonEmpty(env, 'SHADOWFAX_BASE_URL'), ['http:', 'https:']) ?? DEFAULT_SHADOWFAX_BASE_URL).replace(/\/+$/, ''),
    },
    timeoutMs: parseCount(env, 'COURIER_TIMEOUT_MS', DEFAULT_COURIER_TIMEOUT_MS, 100, 120_000),
    pollSeconds: parseSeconds(env, 'TRACKING_POLL_SECONDS', 900, 0.1, 86_400),
    sandbox: {
      stepSeconds: parseSeconds(env, 'SANDBOX_STEP_SECONDS', DEFAULT_SANDBOX_STEP_SECONDS, 0.1, 86_400),
      scenarioByDigit: parseScenarios(nonEmpty(env, 'SANDBOX_SCENARIOS')),
    },
  };

  const listenHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const publicBaseUrl = (
    parseUrl('PUBLIC_BASE_URL', nonEmpty(env, 'PUBLIC_BASE_URL'), ['http:', 'https:']) ??
    `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`
  ).replace(/\/+$/, '');

  const warnings: string[] = [];
  if (webConcurrency > 1 && redisUrl === undefined) {
    warnings.push(
      `WEB_CONCURRENCY=${webConcurrency} without REDIS_URL: each process counts the request and login limits on its own, ` +
        `so a client may get up to ${webConcurrency} times each limit. Set REDIS_URL to share the counters.`,
    );
  }
  if (listenHost !== host && nonEmpty(env, 'PUBLIC_BASE_URL') === undefined) {
    warnings.push(
      `HOST is ${host} but PUBLIC_BASE_URL is not set: the public links the API hands out (store logos, labels) ` +
        `will point to ${publicBaseUrl}, which other machines cannot open. Set PUBLIC_BASE_URL to the address ` +
        'clients reach this server at (e.g. https://ship.example.in).',
    );
  }

  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    webConcurrency,
    databasePoolSize,
    adminToken,
    publicBaseUrl,
    logLevel: rawLevel as LogLevel,
    labelUrlTtlSeconds,
    rateLimitPerMinute,
    loginAttemptsPerMinute,
    loginAddressAttemptsPerMinute,
    loginUsernameAttemptsPer15Minutes,
    trackingPageRatePerMinute,
    redisUrl,
    trustProxy: parseTrustProxy(env),
    warnings: Object.freeze(warnings),
    couriersFile: couriersFile === undefined ? undefined : path.resolve(couriersFile),
    couriers,
    webhookRetryDelays,
    webhookAllowHttp,
    webhookAllowPrivate,
    webhookWorker,
    rtoChecks: parseBoolean(env, 'RTO_CHECKS', true),
    webhookConcurrency,
    smtpUrl,
    mailFrom,
    mailRetryDelays,
    workerLeaseMarginMs,
    weightDisputeWindowDays: parseCount(env, 'WEIGHT_DISPUTE_WINDOW_DAYS', DEFAULT_WEIGHT_DISPUTE_WINDOW_DAYS, 1, 365),
    messaging,
  });
}
