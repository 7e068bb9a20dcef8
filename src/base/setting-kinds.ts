import { ConfigError } from './config-error.js';
import type { Setting } from './settings.js';

// The kinds of setting the fragments declare, each with its one wording of a refusal: the message
// names the variable, what it takes and what it got (never a secret's value).

interface About<T> {
  readonly doc: string;
  readonly default: T;
  readonly shownDefault?: string;
}

/** A whole number within a range. A default left undefined is derived by the fragment's `finish`. */
export function count<D extends number | undefined>(
  env: string,
  { min, max, ...about }: About<D> & { min: number; max: number },
): Setting<number | D> {
  return {
    env,
    type: 'whole number',
    range: `${min} to ${max}`,
    ...about,
    parse(raw) {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < min || value > max) {
        throw new ConfigError(`${env} must be a whole number from ${min} to ${max}, got "${raw}"`);
      }
      return value;
    },
  };
}

/** Seconds, decimals allowed: a demo or a test runs the sandbox courier and the poller at a fraction of a second. */
export function seconds(
  env: string,
  { min, max, ...about }: About<number> & { min: number; max: number },
): Setting<number> {
  return {
    env,
    type: 'seconds',
    range: `${min} to ${max}, decimals allowed`,
    ...about,
    parse(raw) {
      const value = Number(raw);
      if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
        throw new ConfigError(`${env} must be a number of seconds from ${min} to ${max}, got "${raw}"`);
      }
      return value;
    },
  };
}

export function flag(env: string, about: About<boolean>): Setting<boolean> {
  return {
    env,
    type: 'true or false',
    ...about,
    parse(raw) {
      if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${env} must be true or false, got "${raw}"`);
      return raw === 'true';
    },
  };
}

/** Reads a URL of one of `protocols`. `secret`: the value may hold a password, so a refusal does not repeat it. */
export function readUrl(env: string, raw: string, protocols: readonly string[], secret = false): string {
  const got = secret ? '' : `, got "${raw}"`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${env} must be a URL${got}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${env} must start with ${protocols.map((p) => `${p}//`).join(' or ')}${got}`);
  }
  return raw;
}

/** A URL of one of `protocols`, unset by default. */
export function url<D extends string | undefined = undefined>(
  env: string,
  {
    protocols,
    secret = false,
    ...about
  }: Omit<About<D>, 'default'> & { default?: D; protocols: readonly string[]; secret?: boolean },
): Setting<string | D> {
  return {
    env,
    type: 'URL',
    range: protocols.map((p) => `${p}//…`).join(' or '),
    default: undefined as D,
    ...about,
    parse: (raw) => readUrl(env, raw, protocols, secret),
  };
}

/** An http(s) service's address, without the trailing slashes a path is joined to. */
export function baseUrl<D extends string | undefined = string>(env: string, about: About<D>): Setting<string | D> {
  const protocols = ['http:', 'https:'];
  return {
    env,
    type: 'URL',
    range: 'http://… or https://…',
    ...about,
    parse: (raw) => readUrl(env, raw, protocols).replace(/\/+$/, ''),
  };
}

/** Free text (a name, a credential), unset by default. `check` refuses a value with its message. */
export function text<D extends string | undefined = undefined>(
  env: string,
  {
    check,
    range,
    ...about
  }: Omit<About<D>, 'default'> & { default?: D; range?: string; check?: (value: string) => string | undefined },
): Setting<string | D> {
  return {
    env,
    type: 'text',
    default: undefined as D,
    ...(range !== undefined && { range }),
    ...about,
    parse(raw) {
      const refusal = check?.(raw);
      if (refusal !== undefined) throw new ConfigError(refusal);
      return raw;
    },
  };
}

/** Text whose length another system limits (a secret it stores): `whose` names whose limit. */
export function textOfLength(
  env: string,
  { min, max, whose, ...about }: Omit<About<undefined>, 'default'> & { min: number; max: number; whose: string },
): Setting<string | undefined> {
  return text(env, {
    ...about,
    range: `${min} to ${max} characters`,
    check: (value) =>
      value.length < min || value.length > max
        ? `${env} must be ${min} to ${max} characters long (${whose} limit), not ${value.length}`
        : undefined,
  });
}

/** Seconds between a job's attempts, comma-separated: decimals allowed (tests wait 0.05 s), each up to 7 days, at most 20. */
export function delays(env: string, about: About<readonly number[]>): Setting<readonly number[]> {
  return {
    env,
    type: 'seconds, comma-separated',
    range: '1 to 20 numbers, each above 0 and at most 604800',
    ...about,
    parse(raw) {
      const parts = raw.split(',').map((part) => part.trim());
      const values = parts.map(Number);
      if (
        parts.length > 20 ||
        parts.some((part) => !/^\d+(\.\d+)?$/.test(part)) ||
        values.some((d) => d <= 0 || d > 7 * 86400)
      ) {
        throw new ConfigError(
          `${env} must be 1 to 20 comma-separated numbers of seconds, each above 0 and at most 604800, got "${raw}"`,
        );
      }
      return Object.freeze(values);
    },
  };
}

/** One of a list of words. */
export function oneOf<T extends string>(env: string, values: readonly T[], about: About<T>): Setting<T> {
  return {
    env,
    type: 'one of a list',
    range: values.map((value) => `\`${value}\``).join(', '),
    ...about,
    parse(raw) {
      if (!values.includes(raw as T)) throw new ConfigError(`${env} must be one of ${values.join(', ')}, got "${raw}"`);
      return raw as T;
    },
  };
}

/** A value no environment variable sets: fixed in production, shortened by tests and the demo. */
export function fixed<T>(value: T, doc: string): Setting<T> {
  return { doc, type: 'fixed', default: value };
}

/** A setting read its own way (a list of proxies, a port): `parse` throws a ConfigError naming `env`. */
export function custom<T>(env: string, spec: Omit<Setting<T>, 'env'> & { parse: (raw: string) => T }): Setting<T> {
  return { env, ...spec };
}
