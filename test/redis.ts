import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis server the tests share (REDIS_URL in production); TEST_REDIS_URL overrides it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestRedis {
  /** A prefix no other test run uses, so runs sharing the server never see each other's counters. */
  prefix: string;
  /** A new connection, as another API process would open. */
  connect(): Redis;
  /** Deletes every key under the prefix and closes every connection. */
  close(): Promise<void>;
}

export function testRedis(): TestRedis {
  const prefix = `dakiya-test:${randomUUID()}:`;
  const connections: Redis[] = [];
  return {
    prefix,
    connect() {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
      connections.push(redis);
      return redis;
    },
    async close() {
      // A connection of its own: a test may have cut the others.
      const redis = new Redis(TEST_REDIS_URL);
      connections.push(redis);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await Promise.all(connections.map((c) => (c.status === 'end' ? undefined : c.quit())));
    },
  };
}
