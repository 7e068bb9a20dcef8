// Issue 46: one account's remittance import stalled everyone (a 400,000-line file blocked the loop
// 3 s; four at once made another account's GET /warehouses wait 16.2 s). This measures the server
// as `npm start` runs it while imports run: its event loop's worst delay (monitorEventLoopDelay, in
// the server process, bench/lib/loop-probe.mjs) and another account's GET /warehouses, asked 20
// times a second throughout, against a baseline of the same without imports, in the same run.
//
//   npm run bench:imports                          four 20 MiB files at once, embedded database
//   npm run bench:imports -- --size-mib=3          a short check that it runs
//   options: --engine=postgres (a fresh database on 127.0.0.1, dropped after), --baseline-seconds=10
//
// The phases, one after another:
//   baseline     nothing but the observer's GETs
//   4 accounts   four accounts each send a 20 MiB remittance file at once: 50,000 lines (the limit),
//                each padded with an ignored column to the size, every AWB unknown to the account,
//                so every line is a problem the answer used to echo (the audit's file)
//   1 account    one account sends the same four files at once: one runs, three are told 409
//   too long     four accounts each send 20 MiB of short lines (about 400,000): refused at the
//                line past the limit (422)
// Prints, per phase, the observer's p50, p99 and worst latency, the loop's worst delay, the
// server's peak RSS and each import's answer and time; then the machine.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAccount, startServerProcess } from '../test/server-process.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { observe } from './lib/observer.js';
import { scratchDatabase } from './lib/scratch-database.js';
import { percentile } from './lib/stats.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const SIZE = Math.round(Number(args['size-mib'] ?? 20) * 1024 * 1024);
const ENGINE = args.engine === 'postgres' ? 'postgres' : 'pglite';
const BASELINE_MS = Number(args['baseline-seconds'] ?? 10) * 1000;
const LINES = 50_000;
const ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString('hex')}`;
const REMITTANCE_DATE = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse())
    await Promise.resolve(cleanup()).catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}

/** A file of `lines` lines padded to `bytes` with a column no format reads; every AWB unknown. */
function remittanceFile(lines: number, bytes: number, tag: string): Buffer {
  const header = 'awb,amount,utr,remittance_date,remarks\n';
  const bare = (n: number) => `${tag}${String(n).padStart(9, '0')},1299.50,UTIB00000001,${REMITTANCE_DATE},`;
  const room = Math.max(0, Math.floor((bytes - header.length) / lines) - bare(0).length - 1);
  const pad = 'x'.repeat(room);
  const parts = [header];
  for (let n = 1; n <= lines; n++) parts.push(`${bare(n)}${pad}\n`);
  return Buffer.from(parts.join(''));
}

interface Answer {
  status: number;
  ms: number;
  summary: string;
}

async function upload(url: string, apiKey: string, file: Buffer, name: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), name);
  const started = performance.now();
  const response = await fetch(`${url}/custom/api/v1/cod/remittance-files`, {
    method: 'POST',
    headers: { authorization: apiKey },
    body: form,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let summary = text.slice(0, 160);
  try {
    const body = JSON.parse(text) as { lines?: number; problem_count?: number; problems?: unknown[]; message?: string };
    summary =
      response.status === 200
        ? `${body.lines} lines, problem_count ${body.problem_count}, ${body.problems?.length} listed, ${text.length} bytes`
        : (body.message ?? '').slice(0, 160);
  } catch {
    // not JSON: the text's start
  }
  return { status: response.status, ms, summary };
}

/** The server's loop samples (bench/lib/loop-probe.mjs) between two instants. */
function loopSamples(dir: string, pid: number, from: number, to: number) {
  let text = '';
  try {
    text = readFileSync(path.join(dir, `${pid}.jsonl`), 'utf8');
  } catch {
    return { maxMs: Number.NaN, peakRss: Number.NaN };
  }
  const samples = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { t: number; maxMs: number; rss: number })
    // A sample covers the 100 ms before it was written.
    .filter((sample) => sample.t > from && sample.t <= to + 100);
  return {
    maxMs: Math.max(0, ...samples.map((s) => s.maxMs)),
    peakRss: Math.max(0, ...samples.map((s) => s.rss)),
  };
}

const MiB = 1024 * 1024;
const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—');

async function main() {
  log(
    `imports under load: ${(SIZE / MiB).toFixed(1)} MiB files, npm start on ${ENGINE === 'pglite' ? 'the embedded database' : 'PostgreSQL'}`,
  );
  log(`machine: ${describeMachine()}`);
  log(`before:  ${describeLoad()}`);
  const loopDir = mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-loop-'));
  cleanups.push(() => rmSync(loopDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '100000000',
    BENCH_LOOP_DIR: loopDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(path.resolve('bench/lib/loop-probe.mjs')).href}`,
  };
  if (ENGINE === 'postgres') {
    const database = await scratchDatabase(log);
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-imports-'));
    mkdirSync(dataDir, { recursive: true });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    env.DATA_DIR = dataDir;
  }
  const server = await startServerProcess({ env, warm: true });
  cleanups.push(async () => {
    await server.stop();
    rmSync(path.dirname(server.logFile), { recursive: true, force: true });
  });
  const account = (name: string) => createAccount(server, ADMIN_TOKEN, name);
  const observer = await account('Observer');
  const warehouse = await fetch(`${server.url}/custom/api/v1/warehouse`, {
    method: 'POST',
    headers: { authorization: observer.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Observer warehouse',
      phone_number: '9876543210',
      address_attributes: {
        street_address: '1 Connaught Place',
        zip: '110001',
        city: 'New Delhi',
        state: 'Delhi',
        country: 'India',
      },
    }),
  });
  if (warehouse.status !== 201) throw new Error(`warehouse: ${warehouse.status} ${await warehouse.text()}`);
  const four = await Promise.all([1, 2, 3, 4].map((n) => account(`Importer ${n}`)));
  const single = await account('Importer alone');

  // A bare line is 48 bytes, the header 39: as many lines as fit, every file within the size.
  const shortLines = Math.floor((SIZE - 40) / 48);
  const lines = Math.min(LINES, shortLines);
  const wide = [1, 2, 3, 4].map((n) => remittanceFile(lines, SIZE, `SFXW${n}`));
  const long = [1, 2, 3, 4].map((n) => remittanceFile(shortLines, SIZE, `SFXL${n}`));
  log(
    `files: ${lines} lines of ${(wide[0]!.length / MiB).toFixed(2)} MiB (wide), ${shortLines} lines of ${(long[0]!.length / MiB).toFixed(2)} MiB (too long)`,
  );
  if (Math.max(wide[0]!.length, long[0]!.length) > SIZE) throw new Error('a file is over the size');

  const rows: string[] = [];
  async function phase(name: string, work: () => Promise<Answer[]>) {
    const from = Date.now();
    const stop = observe(server.url, observer.apiKey);
    const answers = await work();
    const { latencies, failures } = await stop();
    const to = Date.now();
    // The probe writes every 100 ms: let it write the last interval.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const loop = loopSamples(loopDir, server.serverPid, from, to);
    const p = (q: number) => (latencies.length ? percentile(latencies, q) : Number.NaN);
    rows.push(
      `| ${name} | ${((to - from) / 1000).toFixed(1)} s | ${latencies.length} | ${fixed(p(50))} | ${fixed(p(99))} | ${fixed(latencies.at(-1) ?? Number.NaN)} | ${fixed(loop.maxMs)} | ${fixed(loop.peakRss / MiB)} | ${answers.map((a) => `${a.status} in ${(a.ms / 1000).toFixed(1)} s`).join(', ') || '—'} |`,
    );
    log(
      `${name}: observer ${latencies.length} answers (${failures} failed), p50 ${fixed(p(50))} ms, p99 ${fixed(p(99))} ms, worst ${fixed(latencies.at(-1) ?? Number.NaN)} ms; loop worst delay ${fixed(loop.maxMs)} ms; peak RSS ${fixed(loop.peakRss / MiB)} MiB`,
    );
    for (const answer of answers) log(`  ${answer.status} in ${(answer.ms / 1000).toFixed(2)} s: ${answer.summary}`);
    return answers;
  }

  await phase('baseline', async () => {
    await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
    return [];
  });
  const fourAccounts = await phase('4 accounts × 1 file', () =>
    Promise.all(four.map((a, i) => upload(server.url, a.apiKey, wide[i]!, `wide-${i + 1}.csv`))),
  );
  const oneAccount = await phase('1 account × 4 files', () =>
    Promise.all(wide.map((file, i) => upload(server.url, single.apiKey, file, `wide-${i + 1}.csv`))),
  );
  const tooLong = await phase('4 accounts × 1 file too long', () =>
    Promise.all(four.map((a, i) => upload(server.url, a.apiKey, long[i]!, `long-${i + 1}.csv`))),
  );

  console.log(
    '\n| phase | took | observer answers | p50 ms | p99 ms | worst ms | loop worst delay ms | peak RSS MiB | imports |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  log(`after:   ${describeLoad()}`);
  const statuses = (answers: Answer[]) =>
    answers
      .map((a) => a.status)
      .sort()
      .join(',');
  const refused = shortLines > LINES ? '422,422,422,422' : '200,200,200,200';
  const expected =
    statuses(fourAccounts) === '200,200,200,200' &&
    statuses(oneAccount) === '200,409,409,409' &&
    statuses(tooLong) === refused;
  if (!expected) {
    log(`FAILED: the imports did not answer 200 ×4, then 200 and 409 ×3, then ${refused}`);
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  await cleanUp();
}
process.exit();
