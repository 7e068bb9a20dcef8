// A bounded load for bench/year.ts: `connections` clients each send one request after another for
// `seconds` (after a warm-up), each request's body drawn in turn from a list (so searches and
// tracking ask for different parcels), and every latency kept, for exact p50, p95 and p99.
// autocannon's histogram has no p95, hence this small loop; it runs in the benchmark's process,
// whose CPU the machine line reports beside.
import { performance } from 'node:perf_hooks';
import { Agent, request as httpRequest } from 'node:http';

export interface Request {
  name: string;
  path: string;
  /** One body per request, taken in turn; a function of the request's number. */
  body: (i: number) => unknown;
}

export interface Measured {
  name: string;
  requests: number;
  failures: number;
  firstFailure?: string;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
  /** Every latency, sorted, ms. */
  latencies: number[];
}

/** One measure of several runs' latencies together (the rounds of a sitting). */
export function pool(runs: Measured[]): Measured {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return {
    name: runs[0]!.name,
    requests: latencies.length,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    firstFailure: runs.find((r) => r.firstFailure)?.firstFailure,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    perSecond: runs.reduce((sum, r) => sum + r.perSecond, 0) / runs.length,
    latencies,
  };
}

const quantile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : Number.NaN;

export async function measure(
  baseUrl: string,
  apiKey: string,
  request: Request,
  options: { connections: number; seconds: number; warmupSeconds: number },
): Promise<Measured> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(request.path, baseUrl);
  let counter = 0;
  const one = () =>
    new Promise<{ ms: number; ok: boolean; text: string }>((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(request.body(counter++)));
      const started = performance.now();
      const sent = httpRequest(
        url,
        {
          method: 'POST',
          agent,
          headers: { authorization: apiKey, 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            resolve({
              ms: performance.now() - started,
              ok: status >= 200 && status < 300,
              text: `${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`,
            });
          });
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    let failures = 0;
    let firstFailure: string | undefined;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < until) {
          const answer = await one().catch((error: unknown) => ({ ms: 0, ok: false, text: String(error) }));
          if (answer.ok) latencies.push(answer.ms);
          else {
            failures += 1;
            firstFailure ??= answer.text;
          }
        }
      }),
    );
    return { latencies, failures, firstFailure, elapsed: (performance.now() - started) / 1000 };
  };
  try {
    if (options.warmupSeconds > 0) await run(options.warmupSeconds);
    const { latencies, failures, firstFailure, elapsed } = await run(options.seconds);
    latencies.sort((a, b) => a - b);
    return {
      name: request.name,
      requests: latencies.length,
      failures,
      firstFailure,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      perSecond: latencies.length / elapsed,
      latencies,
    };
  } finally {
    agent.destroy();
  }
}
