import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

export function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
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

