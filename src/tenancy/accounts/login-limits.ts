import type { Redis } from 'ioredis';
import type { RedisBreaker } from '../../base/redis.js';

/** The window of the per-pair and per-address counts, and the first block's length. */
export const LOGIN_WINDOW_MS = 60_000;
/** The per-username count's window: long, so a slow spread-out attack still adds up. */
export const LOGIN_USERNAME_WINDOW_MS = 15 * 60_000;
/** The longest a key is made to wait, however long the guessing goes on. */
export const LOGIN_MAX_BLOCK_MS = 15 * 60_000;
/**
 * How long an address that failed for a username under attack is remembered: refused for that
 * username whenever it is under attack within this time, so each address of a botnet gets one
 * guess a day rather than one per block.
 */
export const LOGIN_ATTACK_MEMORY_MS = 24 * 3600_000;

export interface LoginAllowances {
  /** Failures of one username from one address per minute: the hard limit on guessing. */
  pair: number;
  /** Failures from one address per minute, over every username: one address spraying usernames. */
  address: number;
  /** Failures of one username per 15 minutes, over every address: past it the username is under attack. */
  username: number;
}

/** Who is logging in: the username's canonical key and the client address. */
export interface LoginAttempt {
  username: string;
  address: string;
}

/**
 * Failed-login counters with exponential backoff, on three keys:
 *
 * - the (username, address) pair: `pair` failures block that address for that username;
 * - the address: `address` failures (over all usernames) block the address;
 * - the username: past `username` failures (over all addresses) it is under attack, and then an
 *   address that has failed for it (within the minute, or during the attack: remembered for
 *   LOGIN_ATTACK_MEMORY_MS) is refused, while one that has not still gets its password checked. A correct password from an address that has not failed is never refused:
 *   a username cannot be locked by someone else.
 *
 * The failure that reaches a key's allowance blocks it for a minute and each further failure
 * doubles the block (at most LOGIN_MAX_BLOCK_MS). A refused attempt does not count and checks no
 * password, so hammering a block neither lengthens it nor tries a password. Every attempt is
 * counted before its password is checked (and given back when it succeeds), so a burst of
 * concurrent guesses cannot all slip past before the first failure lands.
 */
export interface LoginLimiter {
  /** Counts an attempt; answers 0, or how long to wait (ms) when it is refused. */
  attempt(login: LoginAttempt, now: number): Promise<number>;
  /** A successful login: forgets the pair's failures and gives back the attempt of the others. */
  succeeded(login: LoginAttempt, now: number): Promise<void>;
}

/** pair, address, username: the order of every list below and of the Redis script's KEYS. */
const keysOf = ({ username, address }: LoginAttempt) =>
  [`p:${address}/${username}`, `a:${address}`, `u:${username}`] as const;
const windowsOf = [LOGIN_WINDOW_MS, LOGIN_WINDOW_MS, LOGIN_USERNAME_WINDOW_MS] as const;
const allowancesOf = (a: LoginAllowances) => [a.pair, a.address, a.username] as const;

interface State {
  failures: number;
  blockedUntil: number;
  expiresAt: number;
}

const blockFor = (failures: number, allowance: number) =>
  Math.min(LOGIN_WINDOW_MS * 2 ** (failures - allowance), LOGIN_MAX_BLOCK_MS);

/** Counters in this process: one API process, no Redis, or Redis down. */
export function memoryLoginLimiter(allowances: LoginAllowances, maxKeys = 100_000): LoginLimiter {
  const allow = allowancesOf(allowances);
  const states = new Map<string, State>();
  const live = (key: string, now: number) => {
    const state = states.get(key);
    return state && state.expiresAt > now ? state : undefined;
  };
  const prune = (now: number) => {
    for (const [key, state] of states) if (state.expiresAt <= now) states.delete(key);
    // Still full of live keys (a spray of usernames): drop the oldest rather than grow without bound.
    for (const key of states.keys()) {
      if (states.size < maxKeys) break;
      states.delete(key);
    }
  };
  return {
    async attempt(login, now) {
      const keys = keysOf(login);
      const [pair, address, username] = keys.map((key) => live(key, now));
      const left = (state: State | undefined) => (state?.blockedUntil ?? 0) - now;
      const wait = Math.max(left(pair), left(address), pair ? left(username) : 0);
      if (wait > 0) return wait;
      // The username first: a pair that fails while it is under attack is remembered for long.
      let attackEnds = 0;
      for (const i of [2, 1, 0] as const) {
        const key = keys[i];
        const state = live(key, now) ?? { failures: 0, blockedUntil: 0, expiresAt: now + windowsOf[i] };
        state.failures += 1;
        if (state.failures >= allow[i]) {
          state.blockedUntil = now + blockFor(state.failures, allow[i]);
          state.expiresAt = Math.max(state.expiresAt, state.blockedUntil + LOGIN_WINDOW_MS);
        }
        if (i === 2) attackEnds = state.blockedUntil;
        if (i === 0 && attackEnds > now) state.expiresAt = Math.max(state.expiresAt, now + LOGIN_ATTACK_MEMORY_MS);
        if (!states.has(key) && states.size >= maxKeys) prune(now);
        states.set(key, state);
      }
      return 0;
    },
    async succeeded(login, now) {
      const keys = keysOf(login);
      states.delete(keys[0]);
      for (const i of [1, 2] as const) {
        const state = live(keys[i], now);
        if (!state) continue;
        state.failures = Math.max(0, state.failures - 1);
        if (state.failures < allow[i]) state.blockedUntil = 0;
      }
    },
  };
}

// Times come from the caller's clock (ARGV) rather than Redis's, so every process judges a window
// the same way its own clock does; a key's TTL only lets Redis forget it. The same rules as
// memoryLoginLimiter: KEYS are pair, address, username; ARGV now, first block, longest block,
// then each key's window and allowance, then how long a pair failing during an attack is kept.
const ATTEMPT = `
local now, first, maxBlock = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local s = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'f', 'b', 'e')
  local f, b, e = tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0
  if e <= now then f, b, e = 0, 0, now + tonumber(ARGV[2 + 2 * i]) end
  s[i] = { f, b, e }
end
local wait = math.max(s[1][2] - now, s[2][2] - now)
if s[1][1] > 0 and s[3][2] - now > wait then wait = s[3][2] - now end
if wait > 0 then return wait end
for i = 3, 1, -1 do
  local allowance = tonumber(ARGV[3 + 2 * i])
  local f, b, e = s[i][1] + 1, s[i][2], s[i][3]
  if f >= allowance then
    b = now + math.min(first * 2 ^ (f - allowance), maxBlock)
    e = math.max(e, b + first)
  end
  if i == 1 and s[3][2] > now then e = math.max(e, now + tonumber(ARGV[10])) end
  s[i][2] = b
  redis.call('HSET', KEYS[i], 'f', f, 'b', string.format('%d', b), 'e', string.format('%d', e))
  redis.call('PEXPIRE', KEYS[i], string.format('%d', e - now))
end
return 0
`;

// KEYS pair, address, username; ARGV now, the address's and the username's allowance.
const SUCCEEDED = `
local now = tonumber(ARGV[1])
redis.call('DEL', KEYS[1])
for i = 2, 3 do
  local v = redis.call('HMGET', KEYS[i], 'f', 'e')
  local f, e = tonumber(v[1]) or 0, tonumber(v[2]) or 0
  if e > now and f > 0 then
    f = f - 1
    redis.call('HSET', KEYS[i], 'f', f)
    if f < tonumber(ARGV[i]) then redis.call('HSET', KEYS[i], 'b', 0) end
  end
end
return 0
`;

type LoginRedis = Redis & {
  dakiyaLoginAttempt(...args: (string | number)[]): Promise<number>;
  dakiyaLoginSucceeded(...args: (string | number)[]): Promise<number>;
};

/** Counters in Redis, shared by every API process; one script per call. */
export function redisLoginLimiter(redis: Redis, allowances: LoginAllowances, keyPrefix: string): LoginLimiter {
  if (!('dakiyaLoginAttempt' in redis)) {
    redis.defineCommand('dakiyaLoginAttempt', { numberOfKeys: 3, lua: ATTEMPT });
    redis.defineCommand('dakiyaLoginSucceeded', { numberOfKeys: 3, lua: SUCCEEDED });
  }
  const client = redis as LoginRedis;
  const allow = allowancesOf(allowances);
  const prefixed = (login: LoginAttempt) => keysOf(login).map((key) => `${keyPrefix}login:${key}`);
  return {
    async attempt(login, now) {
      const [pair, address, username] = allow;
      const [pairWindow, addressWindow, usernameWindow] = windowsOf;
      const perKey = [pairWindow, pair, addressWindow, address, usernameWindow, username];
      return Number(
        await client.dakiyaLoginAttempt(
          ...prefixed(login),
          now,
          LOGIN_WINDOW_MS,
          LOGIN_MAX_BLOCK_MS,
          ...perKey,
          LOGIN_ATTACK_MEMORY_MS,
        ),
      );
    },
    async succeeded(login, now) {
      await client.dakiyaLoginSucceeded(...prefixed(login), now, allow[1], allow[2]);
    },
  };
}

/**
 * Redis while it answers, this process's counters while it does not (the breaker is open): a
 * login never waits on a dead Redis, and guessing stays limited, per process, during an outage.
 */
export function breakerLoginLimiter(
  breaker: RedisBreaker,
  allowances: LoginAllowances,
  keyPrefix: string,
): LoginLimiter {
  const shared = redisLoginLimiter(breaker.redis, allowances, keyPrefix);
  const local = memoryLoginLimiter(allowances);
  return {
    attempt: (login, now) =>
      breaker.shared
        ? breaker.run(() => shared.attempt(login, now)).catch(() => local.attempt(login, now))
        : local.attempt(login, now),
    succeeded: (login, now) =>
      breaker.shared
        ? breaker.run(() => shared.succeeded(login, now)).catch(() => local.succeeded(login, now))
        : local.succeeded(login, now),
  };
}
