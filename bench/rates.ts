/**
 * POST /custom/api/v1/rates against a bare node:http server, under the same load.
 *
 *   npm run bench:rates
 *
 * Both servers run in this process on 127.0.0.1 (random ports): the real app (in-memory PGlite,
 * logger off, an account created through the operator API) and a bare node:http server answering a
 * fixed JSON body. autocannon drives each in turn from a child process, so the load generator does
 * not share the servers' event loop: 50 connections, 10 s, after a 3 s warm-up (override with
 * BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP). The request is a forward COD quote that prices
 * 11 courier services, authenticated with `Authorization: Bearer <API key>`.
 *
 * Targets (issue 3): app requests/s ≥ 0.5 × the bare server's, and app p99 < 20 ms.
 */
import { startApp } from './lib/app.js';
import { startBareServer } from './lib/bare-server.js';
import {
  DEFAULT_CONNECTIONS,
  DEFAULT_DURATION_SECONDS,
  DEFAULT_WARMUP_SECONDS,
  formatLoadResult,
  runLoad,
} from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { CREDENTIAL_CACHE_TTL_MS } from '../src/modules/accounts/accounts.service.js';

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;
const MIN_SERVICES = 10;

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
};
const connections = setting('BENCH_CONNECTIONS', DEFAULT_CONNECTIONS);
const durationSeconds = setting('BENCH_DURATION', DEFAULT_DURATION_SECONDS);
const warmupSeconds = setting('BENCH_WARMUP', DEFAULT_WARMUP_SECONDS);

// Whatever happens, the run ends: two runs' planned time, doubled, plus a minute for start-up.
const deadline = setTimeout(
  () => {
    console.error('bench:rates: still running long after the planned time; giving up.');
    process.exit(2);
  },
  (2 * 2 * (warmupSeconds + durationSeconds) + 60) * 1000,
);
deadline.unref();

// Bengaluru → Chennai (zone C), 1.2 kg, COD ₹2,500: every service but the two weight plans prices it.
const RATES_BODY = JSON.stringify({
  journey_type: 'forward',
  origin_pincode: '560001',
  destination_pincode: '600001',
  dead_weight: 1200,
  length: 20,
  width: 15,
  height: 10,
  payment_method: 'cod',
  shipment_value: 2500,
});

const bare = await startBareServer();
// The same baseline answering as many bytes as /rates does, so the ratio can be read both ways:
// against the fixed small body, and against the wire cost of the real answer.
let sameSize: Awaited<ReturnType<typeof startBareServer>> | undefined;
const running = await startApp({ accountName: 'Rates benchmark' });
const headers = { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' };
const ratesUrl = `${running.url}/custom/api/v1/rates`;

try {
  // Check the request is what we claim before timing it.
  const probe = await fetch(ratesUrl, { method: 'POST', headers, body: RATES_BODY });
  const probeText = await probe.text();
  const services = probe.status === 200 ? (JSON.parse(probeText).result.serviceable_couriers as unknown[]).length : 0;
  if (services < MIN_SERVICES) throw new Error(`expected ≥ ${MIN_SERVICES} priced services, got ${probe.status} ${probeText}`);

  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process, ${connections} connections, ${durationSeconds} s after a ${warmupSeconds} s warm-up, 127.0.0.1`,
  );
  console.log(
    `request:  POST /custom/api/v1/rates, forward COD, ${services} services priced, ${probeText.length} bytes; Authorization: Bearer <API key>`,
  );
  console.log(
    `auth:     credential checks cached in process for ${CREDENTIAL_CACHE_TTL_MS / 1000} s (a revocation through this process applies at once)`,
  );
  console.log(`before:   ${describeLoad()}`);
  console.log('');

  const common = { method: 'POST' as const, headers, body: RATES_BODY, connections, durationSeconds, warmupSeconds };
  const baseline = await runLoad({ ...common, title: 'bare node:http (fixed JSON)', url: `${bare.url}/custom/api/v1/rates` });
  console.log(formatLoadResult(baseline));
  sameSize = await startBareServer(JSON.parse(probeText));
  const sameSizeBaseline = await runLoad({
    ...common,
    title: `bare node:http (${probeText.length} bytes)`,
    url: `${sameSize.url}/custom/api/v1/rates`,
  });
  console.log(formatLoadResult(sameSizeBaseline));
  const app = await runLoad({ ...common, title: 'Dakiya POST /rates', url: ratesUrl });
  console.log(formatLoadResult(app));

  console.log(`after:    ${describeLoad()}`);

  const ratio = app.requestsPerSecond / baseline.requestsPerSecond;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('');
  console.log(`ratio app/bare: ${ratio.toFixed(2)}   (target ≥ ${TARGET_RATIO}: ${verdict(ratio >= TARGET_RATIO)})`);
  console.log(
    `ratio app/bare answering the same ${probeText.length} bytes: ${(app.requestsPerSecond / sameSizeBaseline.requestsPerSecond).toFixed(2)}`,
  );
  console.log(`app p99:        ${app.latencyP99Ms} ms   (target < ${TARGET_P99_MS} ms: ${verdict(app.latencyP99Ms < TARGET_P99_MS)})`);
  console.log(
    `server CPU:     ${app.serverCpuMicrosPerRequest.toFixed(0)} µs per /rates answer against ${baseline.serverCpuMicrosPerRequest.toFixed(0)} µs bare ` +
      `(${(baseline.serverCpuMicrosPerRequest / app.serverCpuMicrosPerRequest).toFixed(2)}×)`,
  );

  const invalid = [baseline, sameSizeBaseline, app].filter((r) => r.non2xx > 0 || r.errors > 0 || r.requests === 0);
  if (invalid.length > 0) {
    console.error(`invalid run: ${invalid.map((r) => r.title).join(', ')} had errors or non-2xx answers`);
    process.exitCode = 1;
  }
} finally {
  await running.close();
  await bare.close();
  await sameSize?.close();
}
process.exit();
