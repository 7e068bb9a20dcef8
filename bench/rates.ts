/**
 * POST /custom/api/v1/rates against a bare node:http server, under the same load.
 *
 *   npm run bench:rates
 *
 * The app runs as users run it: `npm start` in its own process (the embedded database in a fresh
 * temporary DATA_DIR, default logging to a log file, an account created through the operator API),
 * its CPU time read from /proc. Two bare node:http servers run in this process on 127.0.0.1, one
 * answering a small fixed JSON body, one answering the very bytes /rates answers, and a bare Fastify
 * route answering those bytes (the framework's floor: no hooks, logging or validation). autocannon drives
 * each in turn from a child process, so the load generator does not share the servers' event loop:
 * 50 connections, 10 s, after a 3 s warm-up (override with BENCH_CONNECTIONS, BENCH_DURATION,
 * BENCH_WARMUP). The request is a forward COD quote that prices 11 courier services,
 * authenticated with `Authorization: Bearer <API key>`. Every request sends the same body, so after the
 * first quote of each minute the answer comes from the per-minute quote cache (rates.service.ts):
 * what a checkout asking again and again costs, not what pricing a new parcel costs.
 *
 * The four are measured in rounds (BENCH_ROUNDS, default 3), the baselines then the app in each, and judged
 * on the median of the rounds' ratios: on a shared machine one pair of runs can differ by a
 * quarter from the next, and a ratio taken within one round cancels most of that drift.
 *
 * Targets (issue 27): app requests/s ≥ 0.5 × the bare server's, and app p99 < 15 ms in every round.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { startBareFastify, startBareServer } from './lib/bare-server.js';
import { formatLoadResult, type LoadResult, loadSettings, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { BENCH_RATES_INPUT } from './lib/rates-request.js';
import { logVolume, startServerProcess } from '../test/server-process.js';
import { CREDENTIAL_CACHE_TTL_MS } from '../src/tenancy/accounts/credential-cache.js';

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 15;
const MIN_SERVICES = 10;

const { connections, durationSeconds, warmupSeconds, rounds } = loadSettings();

const RATES_BODY = JSON.stringify(BENCH_RATES_INPUT);

// High enough never to answer 429 under load, yet on: the limiter's cost is part of every request.
const RATE_LIMIT_PER_MINUTE = 100_000_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-rates-'));
const running = await startServerProcess({
  warm: true,
  env: { DATA_DIR: dataDir, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE) },
});
// Whatever happens, the run ends (and its server with it): every run's planned time, doubled, plus
// a minute, counted from when the server is serving (a loaded machine starts it slowly).
const deadline = setTimeout(
  () => {
    console.error('bench:rates: still running long after the planned time; giving up.');
    process.kill(running.serverPid, 'SIGTERM');
    process.exit(2);
  },
  (2 * 4 * rounds * (warmupSeconds + durationSeconds + 2) + 60) * 1000,
);
deadline.unref();
const account = await fetch(`${running.url}/admin/v1/accounts`, {
  method: 'POST',
  headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Rates benchmark' }),
});
if (account.status !== 201) throw new Error(`account creation failed: ${account.status} ${await account.text()}`);
const apiKey = ((await account.json()) as { api_key: string }).api_key;
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
const ratesUrl = `${running.url}/custom/api/v1/rates`;
// Check the request is what we claim before timing it.
const probe = await fetch(ratesUrl, { method: 'POST', headers, body: RATES_BODY });
const probeText = await probe.text();
const services = probe.status === 200 ? (JSON.parse(probeText).result.serviceable_couriers as unknown[]).length : 0;
if (services < MIN_SERVICES)
  throw new Error(`expected ≥ ${MIN_SERVICES} priced services, got ${probe.status} ${probeText}`);
const answerBytes = Buffer.byteLength(probeText);

const bare = await startBareServer();
// The same baseline answering as many bytes as /rates does, so the ratio can be read both ways:
// against the fixed small body, and against the wire cost of the real answer.
const sameSize = await startBareServer(JSON.parse(probeText));
// And Fastify alone answering those bytes: how much of the gap is the framework's before any of ours.
const fastifyFloor = await startBareFastify('/custom/api/v1/rates', JSON.parse(probeText));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

try {
  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process, ${connections} connections, ${durationSeconds} s after a ${warmupSeconds} s warm-up, 127.0.0.1; ${rounds} rounds`,
  );
  console.log(
    `request:  POST /custom/api/v1/rates, forward COD, ${services} services priced, ${answerBytes} bytes; Authorization: Bearer <API key>`,
  );
  console.log(
    `auth:     credential checks cached in process for ${CREDENTIAL_CACHE_TTL_MS / 1000} s (a revocation through this process applies at once)`,
  );
  console.log(
    `server:   npm start (pid ${running.startedPid}, serving pid ${running.serverPid}), embedded database, default logging to a file; ` +
      `serving ${(running.startupMs / 1000).toFixed(1)} s after spawn; RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE}, counters in process`,
  );
  console.log('quotes:   the same body every time: priced once a minute, then answered from the quote cache');
  console.log(`before:   ${describeLoad()}`);

  const common = { method: 'POST' as const, headers, body: RATES_BODY, connections, durationSeconds, warmupSeconds };
  const results: { bare: LoadResult; sameSize: LoadResult; fastify: LoadResult; app: LoadResult }[] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`\nround ${round} of ${rounds}`);
    const bareRun = await runLoad({
      ...common,
      title: 'bare node:http (fixed JSON)',
      url: `${bare.url}/custom/api/v1/rates`,
    });
    console.log(formatLoadResult(bareRun));
    const sameSizeRun = await runLoad({
      ...common,
      title: `bare node:http (${answerBytes} bytes)`,
      url: `${sameSize.url}/custom/api/v1/rates`,
    });
    console.log(formatLoadResult(sameSizeRun));
    const fastifyRun = await runLoad({
      ...common,
      title: `bare Fastify (${answerBytes} bytes)`,
      url: `${fastifyFloor.url}/custom/api/v1/rates`,
    });
    console.log(formatLoadResult(fastifyRun));
    const appRun = await runLoad(
      { ...common, title: 'Dakiya POST /rates', url: ratesUrl },
      { server: () => [running.serverPid] },
    );
    console.log(formatLoadResult(appRun));
    results.push({ bare: bareRun, sameSize: sameSizeRun, fastify: fastifyRun, app: appRun });
  }
  console.log(`\nafter:    ${describeLoad()}`);

  const ratios = results.map((r) => r.app.requestsPerSecond / r.bare.requestsPerSecond);
  const sameSizeRatios = results.map((r) => r.app.requestsPerSecond / r.sameSize.requestsPerSecond);
  const fastifyRatios = results.map((r) => r.fastify.requestsPerSecond / r.bare.requestsPerSecond);
  const p99s = results.map((r) => r.app.latencyP99Ms);
  const ratio = median(ratios);
  const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
  console.log('');
  console.log(
    `ratio app/bare, median of ${rounds} rounds: ${ratio.toFixed(2)} (${list(ratios)})   (target ≥ ${TARGET_RATIO}: ${verdict(ratio >= TARGET_RATIO)})`,
  );
  console.log(
    `ratio app/bare answering the same ${answerBytes} bytes: ${median(sameSizeRatios).toFixed(2)} (${list(sameSizeRatios)})`,
  );
  console.log(
    `ratio bare Fastify/bare (the framework's floor): ${median(fastifyRatios).toFixed(2)} (${list(fastifyRatios)})`,
  );
  console.log(
    `app p99, worst round: ${Math.max(...p99s)} ms (${p99s.join(', ')})   (target < ${TARGET_P99_MS} ms: ${verdict(Math.max(...p99s) < TARGET_P99_MS)})`,
  );
  console.log(
    `server CPU per request, median: /rates ${median(results.map((r) => r.app.serverCpuMicrosPerRequest)).toFixed(0)} µs, ` +
      `bare ${median(results.map((r) => r.bare.serverCpuMicrosPerRequest)).toFixed(0)} µs, ` +
      `bare ${answerBytes} bytes ${median(results.map((r) => r.sameSize.serverCpuMicrosPerRequest)).toFixed(0)} µs, ` +
      `bare Fastify ${median(results.map((r) => r.fastify.serverCpuMicrosPerRequest)).toFixed(0)} µs`,
  );

  const logged = logVolume(running.logFile);
  const answered = results.reduce((sum, r) => sum + r.app.requests, 0);
  console.log(
    `log:      ${logged.lines.toLocaleString('en-US')} lines, ${(logged.bytes / 1024 / 1024).toFixed(1)} MiB for about ${answered.toLocaleString('en-US')} recorded requests (plus warm-ups)`,
  );

  const invalid = results
    .flatMap((r) => [r.bare, r.sameSize, r.fastify, r.app])
    .filter((r) => r.non2xx > 0 || r.errors > 0 || r.requests === 0);
  if (invalid.length > 0) {
    console.error(`invalid run: ${invalid.map((r) => r.title).join(', ')} had errors or non-2xx answers`);
    process.exitCode = 1;
  }
} finally {
  const { serverExited } = await running.stop();
  if (!serverExited) console.error('npm start: SIGTERM to its pid left the server running (stopped directly)');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(running.logFile), { recursive: true, force: true });
  await bare.close();
  await sameSize.close();
  await fastifyFloor.close();
}
process.exit();
