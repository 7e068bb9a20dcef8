import path from 'node:path';
import { DEFAULT_RETRY_DELAYS } from './modules/webhooks/retry.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the embedded database and its lock file live; ignored for data when DATABASE_URL is set. */
  readonly dataDir: string;
  /** A PostgreSQL server; when absent the embedded PGlite database in dataDir is used. */
  readonly databaseUrl: string | undefined;
  /** Enables the operator API when set. */
  readonly adminToken: string | undefined;
  /** Base of the absolute public URLs the API hands out (logo URLs, label links). */
  readonly publicBaseUrl: string;
  readonly logLevel: LogLevel;
  /** How long a label link stays valid, in seconds. */
  readonly labelUrlTtlSeconds: number;
  /** Requests per minute per account on the credentialed routes; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Failed logins per minute per username and per client address before backing off. */
  readonly loginAttemptsPerMinute: number;
  /** Where the limits' counters live, shared by every API process; in process when absent. */
  readonly redisUrl: string | undefined;
  /** Seconds between webhook delivery attempts. */
  readonly webhookRetryDelays: readonly number[];
  /** Whether webhook URLs may be plain http. */
  readonly webhookAllowHttp: boolean;
  /** Whether webhook targets may resolve to loopback, private or link-local addresses. */
  readonly webhookAllowPrivate: boolean;
  /** Whether the API process delivers webhooks itself (else only `npm run worker` does). */
  readonly webhookWorker: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parseCount(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function parseUrl(name: string, raw: string | undefined, protocols: readonly string[]): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${raw}"`);
  }
  return raw;
}

function parseBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

/** Seconds, comma-separated: decimals allowed (tests wait 0.05 s), each up to 7 days, at most 20 of them. */
function parseDelays(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  const delays = parts.map(Number);
  if (parts.length > 20 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part)) || delays.some((d) => d <= 0 || d > 7 * 86400)) {
    throw new ConfigError(`${name} must be 1 to 20 comma-separated numbers of seconds, each above 0 and at most 604800, got "${raw}"`);
  }
  return Object.freeze(delays);
}

/**
 * Reads and checks the environment once. Every other module receives the frozen result, so a bad
 * value stops start-up with one clear message instead of failing later in a request.
 */
export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(nonEmpty(env, 'PORT'));
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? './data');
  const databaseUrl = parseUrl('DATABASE_URL', nonEmpty(env, 'DATABASE_URL'), ['postgres:', 'postgresql:']);

  const adminToken = nonEmpty(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
  }

  const rawLevel = nonEmpty(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(rawLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${rawLevel}"`);
  }

  const rawTtl = nonEmpty(env, 'LABEL_URL_TTL_SECONDS') ?? '86400';
  const labelUrlTtlSeconds = Number(rawTtl);
  if (!/^\d+$/.test(rawTtl) || labelUrlTtlSeconds < 60 || labelUrlTtlSeconds > 30 * 86400) {
    throw new ConfigError(`LABEL_URL_TTL_SECONDS must be a whole number of seconds from 60 to 2592000, got "${rawTtl}"`);
  }

  const rateLimitPerMinute = parseCount(env, 'RATE_LIMIT_PER_MINUTE', 6000, 0, 100_000_000);
  const loginAttemptsPerMinute = parseCount(env, 'LOGIN_ATTEMPTS_PER_MINUTE', 10, 1, 10_000);
  const redisUrl = parseUrl('REDIS_URL', nonEmpty(env, 'REDIS_URL'), ['redis:', 'rediss:']);
  const webhookRetryDelays = parseDelays(env, 'WEBHOOK_RETRY_DELAYS', DEFAULT_RETRY_DELAYS);
  const webhookAllowHttp = parseBoolean(env, 'WEBHOOK_ALLOW_HTTP', false);
  const webhookAllowPrivate = parseBoolean(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  const webhookWorker = parseBoolean(env, 'WEBHOOK_WORKER', true);

  const listenHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const publicBaseUrl = (
    parseUrl('PUBLIC_BASE_URL', nonEmpty(env, 'PUBLIC_BASE_URL'), ['http:', 'https:']) ??
    `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`
  ).replace(/\/+$/, '');

  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    adminToken,
    publicBaseUrl,
    logLevel: rawLevel as LogLevel,
    labelUrlTtlSeconds,
    rateLimitPerMinute,
    loginAttemptsPerMinute,
    redisUrl,
    webhookRetryDelays,
    webhookAllowHttp,
    webhookAllowPrivate,
    webhookWorker,
  });
}
