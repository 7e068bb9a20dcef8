// The load generator's own process (see load.ts): receives LoadOptions, runs the warm-up and the
// recorded run one after the other, sends back a LoadResult and exits.
import autocannon from 'autocannon';
import type { ChildMessage, LoadOptions } from './load.js';

type Resolved = Required<Omit<LoadOptions, 'body'>> & Pick<LoadOptions, 'body'>;

function run(options: Resolved, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: seconds,
  });
}

const send = (message: ChildMessage) =>
  new Promise<void>((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));

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
