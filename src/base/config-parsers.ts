import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

export function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** An optional text setting whose length a consumer limits (a secret another system stores). */
export function textOfLength(env: Env, name: string, min: number, max: number, whose: string): string | undefined {
  const value = nonEmpty(env, name);
  if (value !== undefined && (value.length < min || value.length > max)) {
    throw new ConfigError(`${name} must be ${min} to ${max} characters long (${whose} limit), not ${value.length}`);
  }
  return value;
}

export function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

export function parseCount(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Seconds, decimals allowed: a demo or a test runs the sandbox courier and the poller at a fraction of a second. */
export function parseSeconds(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number of seconds from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** `secret`: the value may hold a password, so a refusal does not repeat it. */
export function parseUrl(name: string, raw: string | undefined, protocols: readonly string[], secret = false): string | undefined {
  if (raw === undefined) return undefined;
  const got = secret ? '' : `, got "${raw}"`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL${got}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}${got}`);
  }
  return raw;
}

export function parseBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

/** Seconds, comma-separated: decimals allowed (tests wait 0.05 s), each up to 7 days, at most 20 of them. */
export function parseDelays(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const parts = raw.split(',').map((part) => part.trim());
  const delays = parts.map(Number);
  if (parts.length > 20 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part)) || delays.some((d) => d <= 0 || d > 7 * 86400)) {
    throw new ConfigError(`${name} must be 1 to 20 comma-separated numbers of seconds, each above 0 and at most 604800, got "${raw}"`);
  }
  return Object.freeze(delays);
}


/** Which proxies' X-Forwarded-For names the client: none, the nearest N hops, or these addresses. */
export type TrustProxy = false | number | readonly string[];

/** proxy-addr's names for the address ranges a proxy in front of the server usually has. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrBlock(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY. "true" (trust every hop) is refused: any client could then name itself in
 * X-Forwarded-For and escape the per-address login and tracking-page limits.
 */
export function parseTrustProxy(env: Env): TrustProxy {
  const raw = nonEmpty(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  const explain =
    'TRUST_PROXY must be the number of proxies in front of the server (1 to 10), or their addresses and CIDR blocks comma-separated (or loopback, linklocal, uniquelocal)';
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
    throw new ConfigError(`${explain}, got "${raw}"`);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrBlock(entry));
  if (bad.length > 0) throw new ConfigError(`${explain}, got "${raw}" (not an address: ${bad.map((b) => `"${b}"`).join(', ')})`);
  return Object.freeze(entries);
}
