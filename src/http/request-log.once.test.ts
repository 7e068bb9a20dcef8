import net from 'node:net';
import os from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { post, RATES } from '../../test/kit/http.js';
import { forward } from '../../test/rates-quotes.js';
import { until } from '../../test/webhook-receiver.js';
import { lazyChildLogger } from './request-log.js';

const lines: string[] = [];
let ctx: TestContext;
let account: { id: string; apiKey: string };

beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
  account = await ctx.createAccount();
});
afterAll(async () => {
  await ctx.close();
});

/** The request lines logged while `run` ran. */
async function requestLines(run: () => Promise<unknown>): Promise<string[]> {
  lines.length = 0;
  await run();
  const logged = () => lines.filter((line) => JSON.parse(line).msg === 'request');
  // Over a socket the client can read the whole answer before the server's onResponse hook runs.
  await until(() => logged().length > 0, 'the request line');
  return logged();
}

/** One HTTP/1.1 GET written by hand, so the target reaches the server exactly as given. */
function rawGet(server: URL, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(server.port), server.hostname, () => {
      // Not end(): a half-closed client may be hung up on before its answer is written.
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${server.host}\r\nConnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** What `request.log.info(fields, 'request')` writes for the same request, time and duration. */
function pinoLine(entry: Record<string, unknown>): string {
  const written: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void written.push(line) });
  const { level: _level, time, pid: _pid, hostname: _hostname, reqId, msg: _msg, ...fields } = entry;
  const realNow = Date.now;
  Date.now = () => time as number;
  try {
    logger.child({ reqId }).info(fields, 'request');
  } finally {
    Date.now = realNow;
  }
  return written[0]!;
}

describe('the request line', () => {
  it('a quote: one line, byte for byte what pino writes, with the request id, account and status', async () => {
    const before = Date.now();
    let requestId = '';
    const [line, ...more] = await requestLines(async () => {
      const response = await post(ctx, account.apiKey, RATES, forward({ payment_method: 'prepaid' }));
      expect(response.statusCode).toBe(200);
      requestId = response.headers['x-request-id'] as string;
    });
    expect(more).toEqual([]);
    const entry = JSON.parse(line!);
    expect(Object.keys(entry)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'url',
      'statusCode',
      'ms',
      'account',
      'msg',
    ]);
    expect(entry).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: os.hostname(),
      reqId: requestId,
      method: 'POST',
      url: RATES,
      statusCode: 200,
      ms: expect.any(Number),
      account: account.id,
      msg: 'request',
    });
    expect(entry.time).toBeGreaterThanOrEqual(before);
    expect(entry.time).toBeLessThanOrEqual(Date.now());
    expect(entry.ms).toBeGreaterThanOrEqual(0);
    expect(line).toBe(pinoLine(entry));
  });

  it("keeps the caller's request id, and a refused credential's line has no account", async () => {
    const [line] = await requestLines(() =>
      post(ctx, 'dky_not-a-real-key', RATES, forward(), { 'x-request-id': 'checkout-42.a:b' }),
    );
    const entry = JSON.parse(line!);
    expect(entry).toMatchObject({ reqId: 'checkout-42.a:b', method: 'POST', url: RATES, statusCode: 401 });
    expect(entry).not.toHaveProperty('account');
    expect(line).toBe(pinoLine(entry));
  });

  it('escapes what the URL holds and redacts its capabilities, as pino did', async () => {
    // Over a socket: inject would percent-encode the quote before the server saw it.
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const [line] = await requestLines(async () => {
      expect(await rawGet(new URL(address), '/t/abc?signature=s3cret&lang=hi&q"t=1')).toMatch(/^HTTP\/1\.1 404 /);
    });
    const entry = JSON.parse(line!);
    expect(entry.url).toBe('/t/[redacted]?signature=[redacted]&lang=hi&q"t=[redacted]');
    expect(line).toContain('q\\"t=');
    expect(line).not.toContain('s3cret');
    expect(line).toBe(pinoLine(entry));
  });

  it('is not written when the log level is above info', async () => {
    const quiet: string[] = [];
    const warnOnly = await createTestApp({
      database: ctx.database,
      logger: { level: 'warn', stream: { write: (line: string) => void quiet.push(line) } },
    });
    try {
      const response = await warnOnly.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      expect(quiet.filter((line) => JSON.parse(line).msg === 'request')).toEqual([]);
    } finally {
      await warnOnly.app.close();
    }
  });
});

describe('the health probes', () => {
  it('/healthz and /readyz write no request line at info, asked as a load balancer asks them, while other routes do', async () => {
    lines.length = 0;
    for (let probe = 0; probe < 5; probe++) {
      for (const url of ['/healthz', '/readyz']) {
        const response = await ctx.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
      }
    }
    // Another route's line, written after the probes' would have been: it comes, and theirs never.
    await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    await until(() => lines.some((line) => JSON.parse(line).url === '/openapi.json'), 'the request line');
    const probed = lines.map((line) => JSON.parse(line)).filter((entry) => /^\/(healthz|readyz)/.test(entry.url ?? ''));
    expect(probed).toEqual([]);
  });
});

describe("a request's own logger, made on first use", () => {
  it('logs with the request id bound, at the inherited level, and makes children', () => {
    const written: string[] = [];
    const root = pino({ level: 'info' }, { write: (line: string) => void written.push(line) });
    const log = lazyChildLogger(root, { reqId: 'r-1' }, {});
    expect(log.level).toBe('info');
    log.debug('not written');
    log.error({ code: 'X1' }, 'failed');
    log.child({ step: 'two' }).warn('later');
    expect(written.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 50, reqId: 'r-1', code: 'X1', msg: 'failed' }),
      expect.objectContaining({ level: 40, reqId: 'r-1', step: 'two', msg: 'later' }),
    ]);
    const routeLevel = lazyChildLogger(root, { reqId: 'r-2' }, { level: 'debug' });
    expect(routeLevel.level).toBe('debug');
    routeLevel.debug('written');
    expect(JSON.parse(written.at(-1)!)).toMatchObject({ level: 20, reqId: 'r-2', msg: 'written' });
  });
});
