import type { Redis } from 'ioredis';

export const LOGIN_WINDOW_MS = 60_000;
/** The longest a username or address is made to wait, however long the guessing goes on. */
export const LOGIN_MAX_BLOCK_MS = 15 * 60_000;

/**
 * Failed-login counters with exponential backoff. Each key (a username, a client address) may fail
 * `allowance` times within a window; the failure that reaches it blocks the key for one window,
 * and each further failure soon after a block doubles the next one (1, 2, 4 … minutes, at most
 * LOGIN_MAX_BLOCK_MS). A blocked attempt is refused before the password is checked and is not
 * counted, so hammering a block neither lengthens it nor tries a password.
 *
 * Every attempt is counted before its password is checked (and given back when it succeeds), so
 * a burst of concurrent guesses cannot all slip past the check before the first failure lands.
 */
export interface LoginLimiter {
  /** Counts an attempt against every key; answers 0, or how long to wait (ms) when a key is blocked. */
  attempt(keys: readonly string[], now: number): Promise<number>;
  /** A successful login: forgets `cleared` (the username) and gives back the attempts of `refunded`. */
  succeeded(cleared: string, refunded: string, now: number): Promise<void>;
}

interface State {
  failures: number;
  blockedUntil: number;
  expiresAt: number;
}

const blockFor = (failures: number, allowance: number) =>
  Math.min(LOGIN_WINDOW_MS * 2 ** (failures - allowance), LOGIN_MAX_BLOCK_MS);

/** Counters in this process: one API process, or no Redis. */
export function memoryLoginLimiter(allowance: number, maxKeys = 100_000): LoginLimiter {
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
    async attempt(keys, now) {
      let wait = 0;
      for (const key of keys) wait = Math.max(wait, (live(key, now)?.blockedUntil ?? 0) - now);
      if (wait > 0) return wait;
      for (const key of keys) {
        const state = live(key, now) ?? { failures: 0, blockedUntil: 0, expiresAt: now + LOGIN_WINDOW_MS };
        state.failures += 1;
        if (state.failures >= allowance) {
          state.blockedUntil = now + blockFor(state.failures, allowance);
          state.expiresAt = state.blockedUntil + LOGIN_WINDOW_MS;
        }
        if (!states.has(key) && states.size >= maxKeys) prune(now);
        states.set(key, state);
      }
      return 0;
    },
    async succeeded(cleared, refunded, now) {
      states.delete(cleared);
      const state = live(refunded, now);
      if (!state) return;
      state.failures = Math.max(0, state.failures - 1);
      if (state.failures < allowance) state.blockedUntil = 0;
    },
  };
}

// Times come from the caller's clock (ARGV) rather than Redis's, so every process judges a window
// the same way its own clock does; the key's TTL only lets Redis forget it.
const ATTEMPT = `
local now, window, allowance, maxBlock = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local wait, states = 0, {}
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'f', 'b', 'e')
  local f, b, e = tonumber(v[1]) or 0, tonumber(v[2]) or 0, tonumber(v[3]) or 0
  if e <= now then f, b, e = 0, 0, now + window end
  if b - now > wait then wait = b - now end
  states[i] = { f, b, e }
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  local f, b, e = states[i][1] + 1, states[i][2], states[i][3]
  if f >= allowance then
    b = now + math.min(window * 2 ^ (f - allowance), maxBlock)
    e = b + window
  end
  redis.call('HSET', key, 'f', f, 'b', string.format('%d', b), 'e', string.format('%d', e))
  redis.call('PEXPIRE', key, string.format('%d', e - now))
end
return 0
`;

const SUCCEEDED = `
local now, allowance = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('DEL', KEYS[1])
local v = redis.call('HMGET', KEYS[2], 'f', 'e')
local f, e = tonumber(v[1]) or 0, tonumber(v[2]) or 0
if e <= now or f == 0 then return 0 end
f = f - 1
redis.call('HSET', KEYS[2], 'f', f)
if f < allowance then redis.call('HSET', KEYS[2], 'b', 0) end
return 0
`;

type LoginRedis = Redis & {
  dakiyaLoginAttempt(...args: (string | number)[]): Promise<number>;
  dakiyaLoginSucceeded(...args: (string | number)[]): Promise<number>;
};

/** Counters in Redis, shared by every API process; the same rules as memoryLoginLimiter, in one script each. */
export function redisLoginLimiter(redis: Redis, allowance: number, keyPrefix: string): LoginLimiter {
  if (!('dakiyaLoginAttempt' in redis)) {
    redis.defineCommand('dakiyaLoginAttempt', { lua: ATTEMPT });
    redis.defineCommand('dakiyaLoginSucceeded', { numberOfKeys: 2, lua: SUCCEEDED });
  }
  const client = redis as LoginRedis;
  const prefixed = (key: string) => `${keyPrefix}login:${key}`;
  return {
    async attempt(keys, now) {
      const wait = await client.dakiyaLoginAttempt(keys.length, ...keys.map(prefixed), now, LOGIN_WINDOW_MS, allowance, LOGIN_MAX_BLOCK_MS);
      return Number(wait);
    },
    async succeeded(cleared, refunded, now) {
      await client.dakiyaLoginSucceeded(prefixed(cleared), prefixed(refunded), now, allowance);
    },
  };
}
