// What an idle install costs (issue 54): the CPU the server takes while nobody calls it, as `npm
// start` runs it on the embedded database (its background workers looking for work), beside a bare
// `node:http` server idling in the same sitting.
//
//   npx tsx bench/idle.ts                           3 windows of 20 s each, after 20 s of settling
//   options: --windows=3 --seconds=20 --settle=20   BENCH_KEEP=1 keeps the data directory
//
// The server starts on a fresh data directory with its route schemas compiled (warm); then the two
// processes' CPU (user + system, /proc) is read over the same windows. Prints each window's
// milliseconds of CPU per second and their median.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../test/server-process.js';
import { processCpuMicros } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { median } from './lib/stats.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const WINDOWS = Number(args.windows ?? 3);
const WINDOW_S = Number(args.seconds ?? 20);
const SETTLE_S = Number(args.settle ?? 20);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bare node:http server in a process of its own: what idling costs Node itself. */
function startBare(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', () => console.log('up'))"],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-idle-'));
log(`machine: ${describeMachine()}`);
log(`before: ${describeLoad()}`);
// The embedded database even when the caller's shell names a server (a blank DATABASE_URL is unset).
const server = await startServerProcess({
  env: { DATA_DIR: dataDir, DATABASE_URL: '' },
  warm: true,
  timeoutMs: 180_000,
});
const bare = await startBare();
try {
  log(`server pid ${server.serverPid} on ${dataDir}; settling ${SETTLE_S} s`);
  await sleep(SETTLE_S * 1000);
  const pids = [server.serverPid, bare.pid!];
  const perSecond: Record<'server' | 'bare', number[]> = { server: [], bare: [] };
  for (let w = 1; w <= WINDOWS; w++) {
    const start = processCpuMicros(pids);
    const began = performance.now();
    await sleep(WINDOW_S * 1000);
    const end = processCpuMicros(pids);
    const seconds = (performance.now() - began) / 1000;
    const rate = (pid: number) => (end.get(pid)! - start.get(pid)!) / 1000 / seconds;
    perSecond.server.push(rate(server.serverPid));
    perSecond.bare.push(rate(bare.pid!));
    log(
      `window ${w}: server ${rate(server.serverPid).toFixed(1)} ms CPU/s, bare ${rate(bare.pid!).toFixed(1)} ms CPU/s; ${describeLoad()}`,
    );
  }
  log(
    `median over ${WINDOWS} windows of ${WINDOW_S} s: server ${median(perSecond.server).toFixed(1)} ms CPU/s ` +
      `(${(median(perSecond.server) / 10).toFixed(2)} % of a core), bare node:http ${median(perSecond.bare).toFixed(1)} ms CPU/s`,
  );
} finally {
  bare.kill('SIGTERM');
  await server.stop();
  if (process.env.BENCH_KEEP !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
}
