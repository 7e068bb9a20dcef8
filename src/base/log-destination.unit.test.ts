import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LOG_BATCH_BYTES, LOG_BATCH_MS, logDestination } from './log-destination.js';

// The log's batches (decision 118): lines wait up to LOG_BATCH_MS for others, or leave at once
// when LOG_BATCH_BYTES wait; flushSync writes everything. Only the batch timer is faked: the
// file's writes are real.

let dir: string;
let file: string;
let fd: number;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-log-'));
  file = path.join(dir, 'server.log');
  fd = fs.openSync(file, 'a');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  fs.closeSync(fd);
  fs.rmSync(dir, { recursive: true, force: true });
});

const written = () => fs.readFileSync(file, 'utf8');
/**
 * Lets the stream's asynchronous writes finish: real I/O in libuv's thread pool, polled for up to
 * 5 s of real time (a busy machine may run many turns of the loop before the pool's thread runs).
 */
async function settled(expected: string) {
  const deadline = Date.now() + 5_000;
  while (written() !== expected && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  return written();
}

it('holds lines until the batch time has passed, then writes them together, in order', async () => {
  const log = logDestination(fd);
  log.write('{"n":1}\n');
  log.write('{"n":2}\n');
  vi.advanceTimersByTime(LOG_BATCH_MS - 1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(written()).toBe('');
  vi.advanceTimersByTime(1);
  expect(await settled('{"n":1}\n{"n":2}\n')).toBe('{"n":1}\n{"n":2}\n');
  // The next line starts a batch of its own.
  log.write('{"n":3}\n');
  vi.advanceTimersByTime(LOG_BATCH_MS);
  expect(await settled('{"n":1}\n{"n":2}\n{"n":3}\n')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
});

it('writes at once, without waiting for the timer, once a batch holds its size', async () => {
  const log = logDestination(fd);
  const line = `{"pad":"${'x'.repeat(1000)}"}\n`;
  const lines = Math.ceil(LOG_BATCH_BYTES / line.length);
  for (let i = 0; i < lines; i++) log.write(line);
  expect(await settled(line.repeat(lines))).toBe(line.repeat(lines));
});

it('flushSync writes what is held before it returns', () => {
  const log = logDestination(fd);
  log.write('{"last":true}\n');
  log.flushSync();
  expect(written()).toBe('{"last":true}\n');
});
