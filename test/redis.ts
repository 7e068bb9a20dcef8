import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { openRedis } from '../src/base/redis.js';

/** The Redis server the tests share (REDIS_URL in production); TEST_REDIS_URL overrides it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestRedis {
  /** A prefix no other test run uses, so runs sharing the server never see each other's counters. */
  prefix: string;
  /** A new connection, opened as main.ts opens one (base/redis.ts), as another API process would. */
  connect(): Promise<Redis>;
  /** Deletes every key under the prefix and closes every connection. */
  close(): Promise<void>;
}

export function testRedis(url = TEST_REDIS_URL): TestRedis {
  const prefix = `dakiya-test:${randomUUID()}:`;
  const connections: Redis[] = [];
  return {
    prefix,
    async connect() {
      const redis = openRedis(url);
      connections.push(redis);
      await redis.connect();
      return redis;
    },
    async close() {
      // A connection of its own: a test may have cut the others (or stopped the server).
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      redis.on('error', () => undefined);
      connections.push(redis);
      try {
        await redis.connect();
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } catch {
        // The server is gone: nothing left to delete.
      }
      for (const c of connections) c.disconnect();
    },
  };
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis server this test started, with nothing saved to disk; stopped only by its own pid. */
export interface OwnRedisServer {
  url: string;
  port: number;
  pid: number;
  /** SIGKILL to this server's pid, as a crash; resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT to its pid: a server that hangs without closing its connections. */
  pause(): void;
  resume(): void;
}

/** Starts /usr/bin/redis-server on `port` (a free one when absent); resolves once it accepts connections. */
export async function startRedisServer(port?: number): Promise<OwnRedisServer> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const pid = child.pid!;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => {
    exited = true;
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const until = Date.now() + 10_000;
  while (!output.includes('Ready to accept connections')) {
    if (exited) throw new Error(`redis-server exited before it was ready:\n${output}`);
    if (Date.now() > until) {
      process.kill(pid, 'SIGKILL');
      throw new Error(`redis-server was not ready within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pid,
    async kill() {
      if (!exited) process.kill(pid, 'SIGKILL');
      await exit;
    },
    pause() {
      if (!exited) process.kill(pid, 'SIGSTOP');
    },
    resume() {
      if (!exited) process.kill(pid, 'SIGCONT');
    },
  };
}
