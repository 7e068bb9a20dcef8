import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './base/config-error.js';
import { DEFAULT_SCENARIO_BY_DIGIT } from './couriers/couriers.settings.js';
import { defaultSettings, loadSettings, withOverrides } from './settings.js';

// The configuration as start-up assembles it from the modules' fragments (settings.ts): every
// setting's default, how each is read and refused, the checks across modules, the warnings.
const settingsOf = (env: Record<string, string | undefined> = process.env) => loadSettings(env).settings;
const warningsOf = (env: Record<string, string | undefined>) => loadSettings(env).warnings;

const DEFAULT_COURIERS = {
  catalogueFile: undefined,
  delhivery: { token: undefined, baseUrl: 'https://track.delhivery.com' },
  ekart: {
    clientId: undefined,
    username: undefined,
    password: undefined,
    baseUrl: 'https://app.elite.ekartlogistics.in',
    webhookSecret: undefined,
  },
  xpressbees: { email: undefined, password: undefined, baseUrl: 'https://shipment.xpressbees.com' },
  shadowfax: { token: undefined, baseUrl: 'https://dale.shadowfax.in', orderType: 'warehouse' },
  timeoutMs: 10_000,
  pollSeconds: 900,
  credentialsRefreshMs: 5000,
  sandbox: { stepSeconds: 60, scenarioByDigit: DEFAULT_SCENARIO_BY_DIGIT },
};

const DEFAULTS = {
  server: {
    port: 3000,
    host: '127.0.0.1',
    publicBaseUrl: 'http://127.0.0.1:3000',
    logLevel: 'info',
    trustProxy: false,
    adminToken: undefined,
  },
  database: { dataDir: path.resolve('./data'), databaseUrl: undefined },
  processes: { webConcurrency: 1, databasePoolSize: 10, deliver: true },
  limits: {
    ratePerMinute: 6000,
    redisUrl: undefined,
    redisKeyPrefix: 'dakiya:',
    redisTimeoutMs: 200,
    redisProbeIntervalMs: 2000,
  },
  accounts: {
    loginAttemptsPerMinute: 10,
    loginAddressAttemptsPerMinute: 100,
    loginUsernameAttemptsPer15Minutes: 30,
    passwordHashCost: 16384,
    membersPerAccount: undefined,
  },
  trackingPage: { ratePerMinute: 300 },
  labels: { urlTtlSeconds: 86400 },
  orders: { rtoChecks: true },
  charges: { disputeWindowDays: 7 },
  couriers: DEFAULT_COURIERS,
  tracking: { earlyScanSeconds: 900 },
  workers: { leaseMarginMs: 30_000, pollIntervalMs: 1000, batchWindowMs: 250 },
  outbound: { allowHttp: false, allowPrivate: false },
  webhooks: {
    retryDelaysSeconds: [5, 60, 300, 1800, 7200, 21600, 43200, 86400],
    concurrency: { total: 32, perAccount: 8, perEndpoint: 8 },
    timeoutMs: 10_000,
    laneWindowMs: 5000,
  },
  mail: { smtpUrl: undefined, mailFrom: undefined },
  notifications: { retryDelaysSeconds: [60, 300, 1800, 7200, 21600], timeoutMs: 30_000 },
  messaging: {
    whatsappBaseUrl: 'https://graph.facebook.com',
    smsBaseUrl: 'https://control.msg91.com',
    retryDelaysSeconds: [30, 120, 600, 1800],
    timeoutMs: 10_000,
  },
  channels: { shopifyBaseUrl: undefined, shopifyApiVersion: '2025-01', timeoutMs: 15_000 },
  channelWriteback: { retryDelaysSeconds: [10, 60, 300, 1800, 7200, 21600] },
  salesChannels: { pullSeconds: 900, pollMs: 5000 },
  retention: {
    webhookDeliveriesDays: 30,
    channelWebhookReceiptsDays: 30,
    emailsDays: 90,
    buyerMessagesDays: 90,
    keptScansDays: 180,
    auditLogDays: 365,
    trackingHistoryDays: 365,
    eventsDays: 90,
    channelWritebacksDays: 30,
    pruneBatchRows: 500,
  },
  privacy: { anonymiseAfterDays: 180, accountDeletionGraceDays: 30, accountExportKeepHours: 72 },
  secrets: { key: undefined },
};

describe('loadSettings', () => {
  it('defaults every setting when the environment is empty', () => {
    expect(loadSettings({})).toEqual({ settings: DEFAULTS, warnings: [] });
  });

  it('treats empty and blank values as unset', () => {
    expect(
      settingsOf({
        PORT: '',
        HOST: '  ',
        DATA_DIR: '',
        DATABASE_URL: ' ',
        ADMIN_TOKEN: '',
        PUBLIC_BASE_URL: '',
        LOG_LEVEL: '',
        REDIS_URL: ' ',
        RATE_LIMIT_PER_MINUTE: '',
      }),
    ).toEqual(settingsOf({}));
  });

  it('reads every setting, trimmed', () => {
    const config = settingsOf({
      PORT: ' 8080 ',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/dakiya',
      DATABASE_URL: 'postgresql://dakiya:secret@db.internal:5432/dakiya',
      ADMIN_TOKEN: '  0123456789abcdef  ',
      PUBLIC_BASE_URL: 'https://ship.example.com/',
      LOG_LEVEL: 'debug',
      LABEL_URL_TTL_SECONDS: ' 3600 ',
      RATE_LIMIT_PER_MINUTE: ' 0 ',
      LOGIN_ATTEMPTS_PER_MINUTE: '5',
      LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE: ' 500 ',
      LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES: '50',
      PASSWORD_HASH_COST: ' 32768 ',
      MEMBERS_PER_ACCOUNT: '25',
      TRACKING_PAGE_RATE_PER_MINUTE: ' 60 ',
      REDIS_URL: 'redis://:secret@cache.internal:6379/2',
      COURIERS_FILE: '/etc/dakiya/couriers.json',
      DELHIVERY_API_TOKEN: ' 9f2c4e1a7b ',
      DELHIVERY_BASE_URL: 'https://staging-express.delhivery.com/',
      EKART_CLIENT_ID: ' EKART_68a1 ',
      EKART_USERNAME: 'ops@example.in',
      EKART_PASSWORD: 'pa55',
      EKART_BASE_URL: 'https://ekart.example.in/',
      EKART_WEBHOOK_SECRET: 'hook-5ecret',
      XPRESSBEES_EMAIL: ' ops@example.in ',
      XPRESSBEES_PASSWORD: 'xb-pa55',
      XPRESSBEES_BASE_URL: 'https://xb.example.in/',
      SHADOWFAX_TOKEN: ' 5e1f0c9a2b ',
      SHADOWFAX_BASE_URL: 'https://dale.staging.shadowfax.in/',
      SHADOWFAX_ORDER_TYPE: 'marketplace',
      COURIER_TIMEOUT_MS: '5000',
      TRACKING_POLL_SECONDS: '60',
      SCAN_EARLY_TOLERANCE_SECONDS: ' 120 ',
      SANDBOX_STEP_SECONDS: '0.5',
      SANDBOX_SCENARIOS:
        'rto,lost,delivered,delivered,delivered,delivered,delivered,delivered,ndr_delivered,ndr_delivered',
      SMTP_URL: ' smtps://apikey:s3cret@smtp.example.in:465 ',
      MAIL_FROM: ' updates@ship.example.in ',
      MAIL_RETRY_DELAYS: '30, 600',
      CHANNEL_RETRY_DELAYS: ' 5, 90 ',
      CHANNEL_PULL_SECONDS: ' 300 ',
      SHOPIFY_BASE_URL: ' http://127.0.0.1:9100/ ',
      WORKER_LEASE_MARGIN_MS: ' 2000 ',
      WEIGHT_DISPUTE_WINDOW_DAYS: ' 14 ',
      WEBHOOK_CONCURRENCY: '32',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: ' 8 ',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '3',
      WEB_CONCURRENCY: ' 4 ',
      TRUST_PROXY: ' 10.0.0.0/8, loopback ',
      DATABASE_POOL_SIZE: '6',
      WEBHOOK_DELIVERIES_RETENTION_DAYS: ' 90 ',
      PRUNE_BATCH_ROWS: '2000',
    });
    expect(config).toEqual({
      ...DEFAULTS,
      server: {
        port: 8080,
        host: '0.0.0.0',
        publicBaseUrl: 'https://ship.example.com',
        logLevel: 'debug',
        trustProxy: ['10.0.0.0/8', 'loopback'],
        adminToken: '0123456789abcdef',
      },
      database: { dataDir: '/var/lib/dakiya', databaseUrl: 'postgresql://dakiya:secret@db.internal:5432/dakiya' },
      processes: { webConcurrency: 4, databasePoolSize: 6, deliver: true },
      limits: { ...DEFAULTS.limits, ratePerMinute: 0, redisUrl: 'redis://:secret@cache.internal:6379/2' },
      accounts: {
        loginAttemptsPerMinute: 5,
        loginAddressAttemptsPerMinute: 500,
        loginUsernameAttemptsPer15Minutes: 50,
        passwordHashCost: 32768,
        membersPerAccount: 25,
      },
      trackingPage: { ratePerMinute: 60 },
      labels: { urlTtlSeconds: 3600 },
      charges: { disputeWindowDays: 14 },
      couriers: {
        catalogueFile: '/etc/dakiya/couriers.json',
        credentialsRefreshMs: 5000,
        delhivery: { token: '9f2c4e1a7b', baseUrl: 'https://staging-express.delhivery.com' },
        ekart: {
          clientId: 'EKART_68a1',
          username: 'ops@example.in',
          password: 'pa55',
          baseUrl: 'https://ekart.example.in',
          webhookSecret: 'hook-5ecret',
        },
        xpressbees: { email: 'ops@example.in', password: 'xb-pa55', baseUrl: 'https://xb.example.in' },
        shadowfax: { token: '5e1f0c9a2b', baseUrl: 'https://dale.staging.shadowfax.in', orderType: 'marketplace' },
        timeoutMs: 5000,
        pollSeconds: 60,
        sandbox: {
          stepSeconds: 0.5,
          scenarioByDigit: [
            'rto',
            'lost',
            'delivered',
            'delivered',
            'delivered',
            'delivered',
            'delivered',
            'delivered',
            'ndr_delivered',
            'ndr_delivered',
          ],
        },
      },
      tracking: { earlyScanSeconds: 120 },
      webhooks: { ...DEFAULTS.webhooks, concurrency: { total: 32, perAccount: 8, perEndpoint: 3 } },
      mail: { smtpUrl: 'smtps://apikey:s3cret@smtp.example.in:465', mailFrom: 'updates@ship.example.in' },
      notifications: { ...DEFAULTS.notifications, retryDelaysSeconds: [30, 600] },
      channelWriteback: { retryDelaysSeconds: [5, 90] },
      salesChannels: { pullSeconds: 300, pollMs: 5000 },
      retention: { ...DEFAULTS.retention, webhookDeliveriesDays: 90, pruneBatchRows: 2000 },
      channels: { ...DEFAULTS.channels, shopifyBaseUrl: 'http://127.0.0.1:9100' },
      workers: { ...DEFAULTS.workers, leaseMarginMs: 2000 },
    });
  });

  it.each([
    [
      'DELHIVERY_BASE_URL',
      'ftp://track.delhivery.com',
      'DELHIVERY_BASE_URL must start with http:// or https://, got "ftp://track.delhivery.com"',
    ],
    [
      'EKART_BASE_URL',
      'ftp://ekart.example.in',
      'EKART_BASE_URL must start with http:// or https://, got "ftp://ekart.example.in"',
    ],
    ['EKART_WEBHOOK_SECRET', 'short', "EKART_WEBHOOK_SECRET must be 6 to 30 characters long (Ekart's limit), not 5"],
    [
      'EKART_WEBHOOK_SECRET',
      'x'.repeat(31),
      "EKART_WEBHOOK_SECRET must be 6 to 30 characters long (Ekart's limit), not 31",
    ],
    [
      'XPRESSBEES_BASE_URL',
      'ftp://xb.example.in',
      'XPRESSBEES_BASE_URL must start with http:// or https://, got "ftp://xb.example.in"',
    ],
    [
      'SHADOWFAX_BASE_URL',
      'ftp://dale.shadowfax.in',
      'SHADOWFAX_BASE_URL must start with http:// or https://, got "ftp://dale.shadowfax.in"',
    ],
    ['TRACKING_POLL_SECONDS', '0', 'TRACKING_POLL_SECONDS must be a number of seconds from 0.1 to 86400, got "0"'],
    ['CHANNEL_PULL_SECONDS', '0.5', 'CHANNEL_PULL_SECONDS must be a number of seconds from 1 to 86400, got "0.5"'],
    ['SHOPIFY_BASE_URL', 'shop.example', 'SHOPIFY_BASE_URL must be a URL, got "shop.example"'],
    [
      'SCAN_EARLY_TOLERANCE_SECONDS',
      '86401',
      'SCAN_EARLY_TOLERANCE_SECONDS must be a number of seconds from 0 to 86400, got "86401"',
    ],
    ['TRACKING_POLL_SECONDS', '1e3', 'TRACKING_POLL_SECONDS must be a number of seconds from 0.1 to 86400, got "1e3"'],
    ['COURIER_TIMEOUT_MS', '10s', 'COURIER_TIMEOUT_MS must be a whole number from 100 to 120000, got "10s"'],
    ['SANDBOX_STEP_SECONDS', '-5', 'SANDBOX_STEP_SECONDS must be a number of seconds from 0.1 to 86400, got "-5"'],
    ['SANDBOX_STEP_SECONDS', '0.05', 'SANDBOX_STEP_SECONDS must be a number of seconds from 0.1 to 86400, got "0.05"'],
    ['WORKER_LEASE_MARGIN_MS', '50', 'WORKER_LEASE_MARGIN_MS must be a whole number from 100 to 3600000, got "50"'],
    ['WEIGHT_DISPUTE_WINDOW_DAYS', '0', 'WEIGHT_DISPUTE_WINDOW_DAYS must be a whole number from 1 to 365, got "0"'],
    // CERT-In's 180 days of logs are the floor of the audit log's period.
    ['AUDIT_LOG_RETENTION_DAYS', '90', 'AUDIT_LOG_RETENTION_DAYS must be a whole number from 180 to 3650, got "90"'],
    ['BUYER_DATA_ANONYMISE_DAYS', '7', 'BUYER_DATA_ANONYMISE_DAYS must be a whole number from 30 to 3650, got "7"'],
    ['ACCOUNT_DELETION_GRACE_DAYS', '0', 'ACCOUNT_DELETION_GRACE_DAYS must be a whole number from 1 to 365, got "0"'],
    ['ACCOUNT_EXPORT_KEEP_HOURS', '721', 'ACCOUNT_EXPORT_KEEP_HOURS must be a whole number from 1 to 720, got "721"'],
    ['KEPT_SCANS_RETENTION_DAYS', '3', 'KEPT_SCANS_RETENTION_DAYS must be a whole number from 7 to 3650, got "3"'],
    ['EMAILS_RETENTION_DAYS', '0', 'EMAILS_RETENTION_DAYS must be a whole number from 1 to 3650, got "0"'],
    [
      'BUYER_MESSAGES_RETENTION_DAYS',
      '3651',
      'BUYER_MESSAGES_RETENTION_DAYS must be a whole number from 1 to 3650, got "3651"',
    ],
    ['WEBHOOK_CONCURRENCY', '0', 'WEBHOOK_CONCURRENCY must be a whole number from 1 to 1000, got "0"'],
    [
      'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
      '33',
      'WEBHOOK_CONCURRENCY_PER_ACCOUNT must be a whole number from 1 to 32, got "33"',
    ],
    [
      'WEBHOOK_CONCURRENCY_PER_ENDPOINT',
      '9',
      'WEBHOOK_CONCURRENCY_PER_ENDPOINT must be a whole number from 1 to 8, got "9"',
    ],
    [
      'WEBHOOK_CONCURRENCY_PER_ENDPOINT',
      'two',
      'WEBHOOK_CONCURRENCY_PER_ENDPOINT must be a whole number from 1 to 8, got "two"',
    ],
    [
      'SANDBOX_SCENARIOS',
      'delivered,rto',
      'SANDBOX_SCENARIOS must list 10 scenarios (for order ids ending in 0 to 9), each one of delivered, ndr_delivered, rto, lost, got "delivered,rto"',
    ],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => settingsOf({ [name]: value })).toThrow(new ConfigError(message));
  });

  it('keeps the default shares of a smaller WEBHOOK_CONCURRENCY within it', () => {
    expect(settingsOf({ WEBHOOK_CONCURRENCY: '3' }).webhooks.concurrency).toEqual({
      total: 3,
      perAccount: 3,
      perEndpoint: 3,
    });
    expect(settingsOf({ WEBHOOK_CONCURRENCY_PER_ACCOUNT: '1' }).webhooks.concurrency).toEqual({
      total: 32,
      perAccount: 1,
      perEndpoint: 1,
    });
  });

  it('reads the buyer-messaging settings, and refuses a short SECRETS_KEY and a base URL that is not http(s)', () => {
    const key = 'k'.repeat(32);
    const settings = settingsOf({
      SECRETS_KEY: key,
      WHATSAPP_BASE_URL: 'http://127.0.0.1:8080/',
      SMS_BASE_URL: 'https://sms-proxy.example.in',
      MESSAGE_RETRY_DELAYS: '5,10',
    });
    expect(settings.messaging).toEqual({
      whatsappBaseUrl: 'http://127.0.0.1:8080',
      smsBaseUrl: 'https://sms-proxy.example.in',
      retryDelaysSeconds: [5, 10],
      timeoutMs: 10_000,
    });
    expect(settings.secrets).toEqual({ key });
    expect(() => settingsOf({ SECRETS_KEY: 'short' })).toThrow(
      'SECRETS_KEY must be at least 32 characters long (e.g. openssl rand -base64 32)',
    );
    expect(() => settingsOf({ WHATSAPP_BASE_URL: 'ftp://x' })).toThrow(
      'WHATSAPP_BASE_URL must start with http:// or https://, got "ftp://x"',
    );
    expect(() => settingsOf({ MESSAGE_RETRY_DELAYS: '0' })).toThrow(/MESSAGE_RETRY_DELAYS must be 1 to 20/);
  });

  it('returns frozen settings, to their innermost values', () => {
    const config = settingsOf({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config.server as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(Object.isFrozen(config.couriers.ekart)).toBe(true);
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(settingsOf({ DATA_DIR: 'var/db' }).database.dataDir).toBe(path.resolve('var/db'));
  });

  it.each([
    [{}, 'http://127.0.0.1:3000'],
    [{ PORT: '0' }, 'http://127.0.0.1:0'],
    [{ HOST: '0.0.0.0', PORT: '4000' }, 'http://localhost:4000'],
    [{ HOST: '::' }, 'http://localhost:3000'],
    [{ HOST: '::1' }, 'http://[::1]:3000'],
    [{ HOST: 'api.internal' }, 'http://api.internal:3000'],
    [{ PUBLIC_BASE_URL: 'http://cdn.example.com/dakiya///' }, 'http://cdn.example.com/dakiya'],
    [{ PUBLIC_BASE_URL: 'https://x.example', HOST: '0.0.0.0' }, 'https://x.example'],
  ])('derives the public base URL from %j: %s', (env, expected) => {
    expect(settingsOf(env).server.publicBaseUrl).toBe(expected);
  });

  it.each([
    [{ HOST: '0.0.0.0' }, 'HOST is 0.0.0.0', 'http://localhost:3000'],
    [{ HOST: '::', PORT: '8080' }, 'HOST is ::', 'http://localhost:8080'],
  ])('warns that public links point to localhost when HOST is %j and PUBLIC_BASE_URL is unset', (env, host, base) => {
    expect(warningsOf(env)).toEqual([
      `${host} but PUBLIC_BASE_URL is not set: the public links the API hands out (store logos, labels) will point to ` +
        `${base}, which other machines cannot open. Set PUBLIC_BASE_URL to the address clients reach this server at ` +
        '(e.g. https://ship.example.in).',
    ]);
  });

  it.each([
    {},
    { HOST: '127.0.0.1' },
    { HOST: 'api.internal' },
    { HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://ship.example.in' },
  ])('has no warning for %j', (env) => {
    expect(warningsOf(env)).toEqual([]);
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL=%s', (level) => {
    expect(settingsOf({ LOG_LEVEL: level }).server.logLevel).toBe(level);
  });

  it.each([
    ['false', false],
    ['1', 1],
    ['10', 10],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8,fd00::/8, 192.168.1.10', ['10.0.0.0/8', 'fd00::/8', '192.168.1.10']],
    ['loopback,uniquelocal,linklocal', ['loopback', 'uniquelocal', 'linklocal']],
  ])('accepts TRUST_PROXY=%s', (raw, trusted) => {
    expect(settingsOf({ TRUST_PROXY: raw }).server.trustProxy).toEqual(trusted);
  });

  it.each(['postgres://localhost/dakiya', 'postgresql://u:p@h:5433/d?sslmode=require'])(
    'accepts DATABASE_URL=%s',
    (url) => {
      expect(settingsOf({ DATABASE_URL: url }).database.databaseUrl).toBe(url);
    },
  );

  // All of npm start's connections stay within 80: each process's pool (10 at most, 2 at least) and
  // the 9 beside it (the event-log workers' 3 and the LISTEN connection, the delivery thread's 4 and
  // its LISTEN connection).
  it.each([
    ['1', 10],
    ['2', 10],
    ['4', 10],
    ['5', 7],
    ['6', 4],
    ['7', 2],
    ['8', 2],
    ['9', 2],
    ['16', 2],
    ['64', 2],
  ])('sizes each pool by WEB_CONCURRENCY=%s: %i connections', (processes, pool) => {
    const env = {
      DATABASE_URL: 'postgres://localhost/dakiya',
      REDIS_URL: 'redis://localhost:6379',
      WEB_CONCURRENCY: processes,
    };
    expect(settingsOf(env).processes.databasePoolSize).toBe(pool);
    expect(warningsOf(env)).toEqual([]);
  });

  it('warns that without REDIS_URL each process of WEB_CONCURRENCY counts the limits on its own', () => {
    expect(warningsOf({ DATABASE_URL: 'postgres://localhost/dakiya', WEB_CONCURRENCY: '3' })).toEqual([
      'WEB_CONCURRENCY=3 without REDIS_URL: each process counts the request and login limits on its own, so a client may get up to 3 times each limit. Set REDIS_URL to share the counters.',
    ]);
  });

  it.each([
    [
      { WEB_CONCURRENCY: '2' },
      'WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded database (PGlite) is opened by one process only; set DATABASE_URL to a PostgreSQL server or WEB_CONCURRENCY to 1',
    ],
    [
      { WEB_CONCURRENCY: '0', DATABASE_URL: 'postgres://localhost/dakiya' },
      'WEB_CONCURRENCY must be a whole number from 1 to 64, got "0"',
    ],
    [
      { WEB_CONCURRENCY: '65', DATABASE_URL: 'postgres://localhost/dakiya' },
      'WEB_CONCURRENCY must be a whole number from 1 to 64, got "65"',
    ],
    [
      { WEB_CONCURRENCY: 'auto', DATABASE_URL: 'postgres://localhost/dakiya' },
      'WEB_CONCURRENCY must be a whole number from 1 to 64, got "auto"',
    ],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "0"'],
    [
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal), got "true" (not an address: "true")',
    ],
    [
      { TRUST_PROXY: '0' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal), got "0"',
    ],
    [
      { TRUST_PROXY: '11' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal), got "11"',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33,::1/129, 10.1.2.3/8/1' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal), got "10.0.0.0/33,::1/129, 10.1.2.3/8/1" (not an address: "10.0.0.0/33", "::1/129", "10.1.2.3/8/1")',
    ],
    [
      { TRUST_PROXY: 'proxy.internal' },
      'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal), got "proxy.internal" (not an address: "proxy.internal")',
    ],
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, got "eighty"'],
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535, got "-1"'],
    [{ PORT: '65536' }, 'PORT must be an integer from 0 to 65535, got "65536"'],
    [{ PORT: '80.5' }, 'PORT must be an integer from 0 to 65535, got "80.5"'],
    [{ PORT: '1e3' }, 'PORT must be an integer from 0 to 65535, got "1e3"'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL, got "not a url"'],
    [
      { DATABASE_URL: 'mysql://localhost/dakiya' },
      'DATABASE_URL must start with postgres:// or postgresql://, got "mysql://localhost/dakiya"',
    ],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters long'],
    [{ ADMIN_TOKEN: '  0123456789abcde  ' }, 'ADMIN_TOKEN must be at least 16 characters long'],
    [{ PUBLIC_BASE_URL: 'example.com' }, 'PUBLIC_BASE_URL must be a URL, got "example.com"'],
    [
      { PUBLIC_BASE_URL: 'ftp://example.com' },
      'PUBLIC_BASE_URL must start with http:// or https://, got "ftp://example.com"',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ],
    [{ LOG_LEVEL: 'INFO' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "INFO"'],
    [{ SHADOWFAX_ORDER_TYPE: 'both' }, 'SHADOWFAX_ORDER_TYPE must be one of warehouse, marketplace, got "both"'],
    [
      { LABEL_URL_TTL_SECONDS: '59' },
      'LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "59"',
    ],
    [
      { LABEL_URL_TTL_SECONDS: '2592001' },
      'LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "2592001"',
    ],
    [
      { LABEL_URL_TTL_SECONDS: '1.5' },
      'LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "1.5"',
    ],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, 'RATE_LIMIT_PER_MINUTE must be a whole number from 0 to 100000000, got "-1"'],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, 'RATE_LIMIT_PER_MINUTE must be a whole number from 0 to 100000000, got "lots"'],
    [{ LOGIN_ATTEMPTS_PER_MINUTE: '0' }, 'LOGIN_ATTEMPTS_PER_MINUTE must be a whole number from 1 to 10000, got "0"'],
    [
      { LOGIN_ATTEMPTS_PER_MINUTE: '2.5' },
      'LOGIN_ATTEMPTS_PER_MINUTE must be a whole number from 1 to 10000, got "2.5"',
    ],
    [
      { LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE: '0' },
      'LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE must be a whole number from 1 to 1000000, got "0"',
    ],
    [
      { LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES: 'many' },
      'LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES must be a whole number from 1 to 1000000, got "many"',
    ],
    [
      { TRACKING_PAGE_RATE_PER_MINUTE: '-1' },
      'TRACKING_PAGE_RATE_PER_MINUTE must be a whole number from 0 to 100000000, got "-1"',
    ],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must start with redis:// or rediss://, got "localhost:6379"'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must start with redis:// or rediss://, got "http://cache:6379"'],
    // The URL holds the relay's password: a refusal does not repeat it.
    [
      { SMTP_URL: 'https://u:s3cret@smtp.example.in', MAIL_FROM: 'a@b.in' },
      'SMTP_URL must start with smtp:// or smtps://',
    ],
    [
      { SMTP_URL: 'smtp://u:s3cret@smtp.example.in:587' },
      'SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address customer e-mails come from',
    ],
    [
      { MAIL_FROM: 'Chai Point <updates@ship.example.in>' },
      'MAIL_FROM must be a bare e-mail address (the name shown is the store\'s brand), got "Chai Point <updates@ship.example.in>"',
    ],
    [
      { MAIL_RETRY_DELAYS: '0' },
      'MAIL_RETRY_DELAYS must be 1 to 20 comma-separated numbers of seconds, each above 0 and at most 604800, got "0"',
    ],
    [
      { CHANNEL_RETRY_DELAYS: '10, soon' },
      'CHANNEL_RETRY_DELAYS must be 1 to 20 comma-separated numbers of seconds, each above 0 and at most 604800, got "10, soon"',
    ],
  ])('refuses %j with a ConfigError naming the variable', (env, message) => {
    let caught: unknown;
    try {
      settingsOf(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toBe(message);
  });

  it('reads process.env by default', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadSettings().settings.server.port).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });
});

describe('every bad value at once', () => {
  it('names each wrong setting, in every module, in one ConfigError', () => {
    let caught: unknown;
    try {
      loadSettings({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: 'two',
        SMTP_URL: 'smtp://u:p@mail.example.in',
        LABEL_URL_TTL_SECONDS: '1',
        WEB_CONCURRENCY: '2',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = [
      'PORT must be an integer from 0 to 65535, got "eighty"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "1"',
      'WEBHOOK_CONCURRENCY_PER_ENDPOINT must be a whole number from 1 to 8, got "two"',
      'SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address customer e-mails come from',
      'WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded database (PGlite) is opened by one process only; set DATABASE_URL to a PostgreSQL server or WEB_CONCURRENCY to 1',
    ];
    expect((caught as ConfigError).problems).toEqual(problems);
    expect((caught as ConfigError).message).toBe(
      `6 settings are wrong:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
  });

  it('takes defaults for what the environment leaves unset, and the environment over them', () => {
    const demo = { SANDBOX_STEP_SECONDS: '20', TRACKING_POLL_SECONDS: '5' };
    expect(loadSettings({}, demo).settings.couriers).toMatchObject({ pollSeconds: 5, sandbox: { stepSeconds: 20 } });
    expect(
      loadSettings({ SANDBOX_STEP_SECONDS: '2', TRACKING_POLL_SECONDS: ' ' }, demo).settings.couriers,
    ).toMatchObject({ pollSeconds: 5, sandbox: { stepSeconds: 2 } });
  });
});

describe('overrides, as tests and the demo make them', () => {
  it("lays each module's overrides over its settings, leaving the rest as they were, frozen", () => {
    const base = defaultSettings();
    const changed = withOverrides(base, {
      webhooks: { retryDelaysSeconds: [0.05] },
      workers: { leaseMarginMs: 200 },
      couriers: { ekart: { ...base.couriers.ekart, baseUrl: 'http://127.0.0.1:4000' } },
    });
    expect(changed.webhooks).toEqual({ ...base.webhooks, retryDelaysSeconds: [0.05] });
    expect(changed.workers).toEqual({ ...base.workers, leaseMarginMs: 200 });
    expect(changed.couriers.ekart.baseUrl).toBe('http://127.0.0.1:4000');
    expect(changed.couriers.delhivery).toBe(base.couriers.delhivery);
    expect(changed.server).toBe(base.server);
    expect(base.webhooks.retryDelaysSeconds).toEqual([5, 60, 300, 1800, 7200, 21600, 43200, 86400]);
    expect(Object.isFrozen(changed.workers)).toBe(true);
  });
});
