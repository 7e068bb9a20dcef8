import { Redis } from 'ioredis';

/**
 * A connection for the limits' counters. While it is down a command fails at once instead of
 * waiting in ioredis's offline queue for a reconnection (which made every request wait its
 * time-out), and a command in flight when the connection drops fails rather than being resent.
 * Reconnection goes on in the background. `lazyConnect`: the caller awaits `connect()`.
 */
export function openRedis(url: string, connectTimeoutMs = 2_000): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: connectTimeoutMs,
    lazyConnect: true,
  });
  // Without a listener ioredis prints every failed reconnection; the breaker logs the outage once.
  redis.on('error', () => undefined);
  return redis;
}

export interface BreakerLog {
  warn(fields: object, message: string): void;
  info(message: string): void;
}

export interface RedisBreakerOptions {
  /** A command slower than this counts as a failure (and the caller counts in process). */
  timeoutMs: number;
  /** How often an open breaker pings Redis to see whether it is back. */
  probeIntervalMs: number;
  log: BreakerLog;
}

export const REDIS_DOWN_MESSAGE = 'Redis is not answering: rate limits now per process';
export const REDIS_BACK_MESSAGE = 'Redis answers again: rate limits shared across processes again';

/**
 * A circuit breaker in front of the limits' Redis. Closed, commands go to Redis with a time-out;
 * the first one that fails or times out opens it, and while open the callers count in process
 * without asking Redis at all (so no request waits on a dead server), while a ping every
 * `probeIntervalMs` (the half-open probe) closes it again once Redis answers. Each change is
 * logged once.
 */
export class RedisBreaker {
  private open = false;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    readonly redis: Redis,
    private readonly options: RedisBreakerOptions,
  ) {}

  /** Whether the counters are shared through Redis right now. */
  get shared(): boolean {
    return !this.open;
  }

  /** Runs one command; a failure or time-out opens the breaker and rejects. Rejects at once while open. */
  run<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.open) return Promise.reject(new Error('Redis breaker is open'));
    return this.withTimeout(command(this.redis)).catch((error: unknown) => {
      this.trip(error);
      throw error;
    });
  }

  /** Stops probing (the app is closing). */
  stop(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }

  private withTimeout<T>(pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The rejection waits for the I/O phase after the timer's: if the event loop was merely busy
      // (a long synchronous task), an answer already in the socket wins and the breaker stays closed.
      const late = () => reject(new Error(`Redis did not answer within ${this.options.timeoutMs} ms`));
      const timer = setTimeout(() => setImmediate(late), this.options.timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  private trip(error: unknown) {
    if (this.open) return;
    this.open = true;
    this.options.log.warn({ err: error }, REDIS_DOWN_MESSAGE);
    this.probe = setInterval(() => void this.tryClose(), this.options.probeIntervalMs);
    this.probe.unref();
  }

  private async tryClose() {
    if (this.probing || !this.open) return;
    this.probing = true;
    try {
      await this.withTimeout(this.redis.ping());
      if (!this.probe) return; // stopped meanwhile
      this.stop();
      this.open = false;
      this.options.log.info(REDIS_BACK_MESSAGE);
    } catch {
      // Still down: the next probe tries again.
    } finally {
      this.probing = false;
    }
  }
}
