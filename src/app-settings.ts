import type { FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from './base/clock.js';
import { type CourierSettings, DEFAULT_LEASE_MARGIN_MS, DEFAULT_LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE, DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE, DEFAULT_LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES, DEFAULT_RATE_LIMIT_PER_MINUTE, DEFAULT_REDIS_PROBE_INTERVAL_MS, DEFAULT_REDIS_TIMEOUT_MS, DEFAULT_RETRY_DELAYS, DEFAULT_TRACKING_PAGE_RATE_PER_MINUTE, DEFAULT_WEBHOOK_CONCURRENCY, DEFAULT_WORKER_POLL_INTERVAL_MS, type TrustProxy, WEBHOOK_TIMEOUT_MS } from './base/config.js';
import type { Db } from './base/db/client.js';
import type { Signal } from './base/db/signal.js';
import type { MessagingSettings } from './consumers/messaging/messaging.register.js';
import type { NotificationSettings } from './consumers/notifications/notifications.register.js';
import type { WebhookSettings } from './consumers/webhooks/webhooks.register.js';
import type { RatesContext } from './domain/rates/context.js';

// What buildApp (app.ts) is given, and the defaults of what may be left out.

export interface AppDeps {
  db: Db;
  /** Tells the other processes on a PostgreSQL database of each event recorded here, and this one of theirs (base/db/signal.ts). */
  signal?: Signal;
  /**
   * The connections the event-log workers (webhooks, e-mails) use, apart from the requests' (`db`
   * when absent): under load, requests fill their pool, and a worker queued behind them sent
   * almost nothing until the load stopped.
   */
  workerDb?: Db;
  /** Base of absolute public URLs (logo links). */
  publicBaseUrl: string;
  /** Enables the operator API at /admin/v1 when set. */
  adminToken?: string | undefined;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** TRUST_PROXY: which proxies' X-Forwarded-For names the client; none by default. */
  trustProxy?: TrustProxy;
  /** Pincode directory, zones, couriers and holidays; the shipped data files by default. */
  rates?: RatesContext;
  /** How long a label link stays valid. */
  labelUrlTtlSeconds?: number;
  /** Request and login limits; DEFAULT_LIMITS for what is left out. */
  limits?: Partial<LimitSettings>;
  /** Couriers' credentials and the tracking poller's pace; the defaults serve a catalogue of push services. */
  couriers?: CourierSettings;
  /** Whether the tracking poller runs on its timer (default true); tests run rounds with app.courierPoller.runOnce(). */
  startWorkers?: boolean;
  /** Webhook targets, retries and the in-process delivery worker; DEFAULT_WEBHOOKS for what is left out. */
  webhooks?: Partial<WebhookSettings>;
  /** Customer e-mails (SMTP, sender, retries) and their in-process worker; DEFAULT_NOTIFICATIONS for what is left out. */
  notifications?: Partial<NotificationSettings>;
  /** Days a merchant has to accept or dispute a weight discrepancy (WEIGHT_DISPUTE_WINDOW_DAYS). */
  weightDisputeWindowDays?: number;
  /** Buyer messaging (providers' hosts, retries) and its in-process worker; DEFAULT_MESSAGING for what is left out, SMTP as notifications'. */
  messaging?: Partial<MessagingSettings>;
  /** SECRETS_KEY: seals channel credentials; without it, a key made on first use and kept in the database. */
  secretsKey?: string | undefined;
  /** RTO_CHECKS: address checks and RTO risk at booking (default true). */
  rtoChecks?: boolean;
}

export interface LimitSettings {
  /** Requests per minute per account on the credentialed routes; 0 turns the limit off. */
  ratePerMinute: number;
  /** Failed logins per minute of one username from one client address. */
  loginAttemptsPerMinute: number;
  /** Failed logins per minute from one client address, over all usernames. */
  loginAddressAttemptsPerMinute: number;
  /** Failed logins of one username per 15 minutes over all addresses, past which addresses that failed are refused. */
  loginUsernameAttemptsPer15Minutes: number;
  /** Requests per minute per client address on the public tracking pages (/t/…, /track/…); 0 turns the limit off. */
  trackingPagePerMinute: number;
  /**
   * Counters shared by every API process (REDIS_URL, opened with base/redis.ts's openRedis); in
   * process when absent, and while Redis fails. The caller owns the connection.
   */
  redis: Redis | undefined;
  /** Prefix of every Redis key this app writes. */
  redisKeyPrefix: string;
  /** A Redis command slower than this counts as Redis failing. */
  redisTimeoutMs: number;
  /** How often a failing Redis is pinged to see whether it is back. */
  redisProbeIntervalMs: number;
}

export const DEFAULT_LIMITS: LimitSettings = {
  ratePerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
  loginAttemptsPerMinute: DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE,
  loginAddressAttemptsPerMinute: DEFAULT_LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE,
  loginUsernameAttemptsPer15Minutes: DEFAULT_LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES,
  trackingPagePerMinute: DEFAULT_TRACKING_PAGE_RATE_PER_MINUTE,
  redis: undefined,
  redisKeyPrefix: 'dakiya:',
  redisTimeoutMs: DEFAULT_REDIS_TIMEOUT_MS,
  redisProbeIntervalMs: DEFAULT_REDIS_PROBE_INTERVAL_MS,
};

export const ADMIN_DISABLED =
  'The operator API (/admin/v1) is disabled: set ADMIN_TOKEN (at least 16 characters) in the environment and restart the server';

export const DEFAULT_WEBHOOKS: WebhookSettings = {
  worker: true,
  pollIntervalMs: DEFAULT_WORKER_POLL_INTERVAL_MS,
  retryDelaysSeconds: DEFAULT_RETRY_DELAYS,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  leaseMarginMs: DEFAULT_LEASE_MARGIN_MS,
  concurrency: DEFAULT_WEBHOOK_CONCURRENCY,
  allowHttp: false,
  allowPrivate: false,
};
