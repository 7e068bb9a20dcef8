// A clean clone's first start, and the start after it (issue 28: `npm ci && npm start` under a
// minute, a later start under 5 seconds).
//
//   npm run bench:startup                 clones this repository's HEAD into a temporary directory
//   options: --ref=<commit or branch>     what to clone (HEAD by default); BENCH_KEEP=1 keeps the clone
//
// Runs in the clone exactly what the README says: `npm ci` (from the npm registry, or npm's cache),
// then `npm start` (which builds the server and the panel, opens the embedded database in ./data and
// migrates it) until GET /healthz answers 200; stops it with SIGTERM, as a process manager does, and
// starts it again (nothing to build, the database already migrated) until /healthz answers.
// Prints each phase. Nothing but 127.0.0.1 and the npm registry is touched.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../test/server-process.js';
import { log, seconds } from './lib/listing-build.js';
import { describeLoad, describeMachine } from './lib/machine.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const REF = args.ref ?? 'HEAD';
const FIRST_TARGET_MS = 60_000;
const LATER_TARGET_MS = 5_000;
const GIVE_UP_MS = 15 * 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a command in the clone to its end, its output to the log file; milliseconds taken. */
function run(cwd: string, logFile: string, command: string, commandArgs: string[]): Promise<number> {
  const started = performance.now();
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${command} ${commandArgs.join(' ')} exited with ${code}; see ${logFile}`)),
    );
  });
}

/** `npm start` in the clone until GET /healthz answers 200: the process and the milliseconds taken. */
async function start(cwd: string, logFile: string): Promise<{ child: ChildProcess; ms: number }> {
  const port = await freePort();
  const started = performance.now();
  const out = fs.openSync(logFile, 'a');
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  while (performance.now() - started < GIVE_UP_MS) {
    if (exited !== undefined)
      throw new Error(`npm start exited with ${exited} before /healthz answered; see ${logFile}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (ok) return { child, ms: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  throw new Error(`/healthz did not answer within ${GIVE_UP_MS / 60_000} minutes; see ${logFile}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-startup-'));
  const clone = path.join(dir, 'dakiya');
  const logFile = path.join(dir, 'output.log');
  const running: ChildProcess[] = [];
  try {
    const commit = execFileSync('git', ['rev-parse', REF], { cwd: ROOT, encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
    execFileSync('git', ['checkout', '--quiet', commit], { cwd: clone });
    log(`cloned ${commit.slice(0, 12)} into ${clone}; ${describeMachine()}; ${describeLoad()}`);

    const ciMs = await run(clone, logFile, 'npm', ['ci', '--no-audit', '--no-fund']);
    log(`npm ci: ${seconds(ciMs)}`);
    const first = await start(clone, logFile);
    running.push(first.child);
    log(`first npm start until /healthz answered: ${seconds(first.ms)}`);
    await stop(first.child);
    const later = await start(clone, logFile);
    running.push(later.child);
    log(`second npm start until /healthz answered: ${seconds(later.ms)}`);
    await stop(later.child);

    const total = ciMs + first.ms;
    console.log(
      [
        `Clean clone of ${commit.slice(0, 12)}: npm ci ${seconds(ciMs)}, then npm start until /healthz ${seconds(first.ms)}: ` +
          `${seconds(total)} in all (target < ${FIRST_TARGET_MS / 1000} s: ${total < FIRST_TARGET_MS ? 'met' : 'missed'})`,
        `Second npm start until /healthz: ${seconds(later.ms)} (target < ${LATER_TARGET_MS / 1000} s: ${later.ms < LATER_TARGET_MS ? 'met' : 'missed'})`,
        `${describeMachine()}; ${describeLoad()}`,
      ].join('\n'),
    );
  } finally {
    for (const child of running) await stop(child);
    if (process.env.BENCH_KEEP) log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
