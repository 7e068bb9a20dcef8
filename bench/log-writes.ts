/**
 * What the server's log destination (src/base/log-destination.ts) costs in CPU per line, written
 * the way a server answering a few hundred requests a second writes them: one request line per turn
 * of the event loop. The baseline is the same loop with the line dropped, in the same run. The
 * process's CPU from process.cpuUsage() counts libuv's thread pool, which does the writes.
 *
 *   npm run bench:log-writes            (BENCH_RATE lines a second, default 1000; BENCH_ROUNDS, default 3)
 *
 * Not a server figure: bench:listing-load and bench:rates measure the server as `npm start` runs it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LogDestination, logDestination } from '../src/base/log-destination.js';
import { describeMachine } from './lib/machine.js';
import { median } from './lib/stats.js';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = 5;
// A request line as src/http/request-log.ts writes it.
const LINE =
  '{"level":30,"time":1795561321051,"pid":4242,"hostname":"vm","reqId":"0b5c1e2e-7d1c-4b7e-9f5e-2a7b1c9d8e7f","method":"POST",' +
  '"url":"/custom/api/v1/shipments","statusCode":200,"ms":68.2,"account":"6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","msg":"request"}\n';

/** CPU µs per line while `destination` takes one line per timer turn for SECONDS. */
async function cpuPerLine(destination: LogDestination): Promise<number> {
  const start = process.cpuUsage();
  const until = Date.now() + SECONDS * 1000;
  let lines = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      for (let i = 0; i < RATE / 1000; i++, lines++) destination.write(LINE);
      if (Date.now() >= until) {
        clearInterval(tick);
        resolve();
      }
    }, 1);
  });
  destination.flushSync();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / lines;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-log-writes-'));
const fd = fs.openSync(path.join(dir, 'server.log'), 'a');
const dropped: LogDestination = { write() {}, flushSync() {} };
console.log(`machine:  ${describeMachine()}`);
console.log(
  `load:     ${RATE} lines a second, one per turn of the event loop, ${SECONDS} s a round, ${ROUNDS} rounds, to a file in ${os.tmpdir()}`,
);
const costs: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const loop = await cpuPerLine(dropped);
  const written = await cpuPerLine(logDestination(fd));
  costs.push(written - loop);
  console.log(
    `round ${round}: loop alone ${loop.toFixed(1)} µs a turn, with the line ${written.toFixed(1)} µs: the destination ${(written - loop).toFixed(1)} µs a line`,
  );
}
console.log(
  `\nthe destination's CPU per line, median of ${ROUNDS}: ${median(costs).toFixed(1)} µs (${costs.map((c) => c.toFixed(1)).join(', ')})`,
);
fs.closeSync(fd);
fs.rmSync(dir, { recursive: true, force: true });
