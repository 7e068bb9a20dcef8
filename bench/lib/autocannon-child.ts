// The load generator's own process (see load.ts): receives LoadOptions, runs the warm-up and the
// recorded run one after the other, sends back a LoadResult and exits.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { ChildMessage, LoadOptions } from './load.js';

type Resolved = Required<Omit<LoadOptions, 'body' | 'uniqueToken'>> & Pick<LoadOptions, 'body' | 'uniqueToken'>;

// Unique across runs of one child and across children (a run's warm-up and its rounds book into one account).
const prefix = `B${randomBytes(4).toString('hex')}`;
let counter = 0;

function run(options: Resolved, seconds: number): Promise<autocannon.Result> {
  const { body, uniqueToken } = options;
  return autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers,
    ...(body === undefined ? {} : { body }),
    ...(body !== undefined &&
      uniqueToken && {
        requests: [
          { setupRequest: (request) => ({ ...request, body: body.replaceAll(uniqueToken, `${prefix}-${++counter}`) }) },
        ],
      }),
    connections: options.connections,
    duration: seconds,
  });
}

const send = (message: ChildMessage) =>
  new Promise<void>((resolve, reject) =>
    process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );

process.on('disconnect', () => process.exit(1));
process.once('message', async (message) => {
  const options = message as Resolved;
  try {
    if (options.warmupSeconds > 0) await run(options, options.warmupSeconds);
    await send({ type: 'recording' });
    const r = await run(options, options.durationSeconds);
    const result: Extract<ChildMessage, { type: 'result' }>['result'] = {
      title: options.title,
      connections: r.connections,
      durationSeconds: r.duration,
      requestsPerSecond: r.requests.average,
      latencyP50Ms: r.latency.p50,
      latencyP99Ms: r.latency.p99,
      latencyMeanMs: r.latency.average,
      latencyMaxMs: r.latency.max,
      requests: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      throughputMBps: r.throughput.average / 1024 / 1024,
    };
    await send({ type: 'result', result });
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
});
