import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  /** Shown in the output. */
  title: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** A first, unrecorded run with the same settings, so JIT and caches are warm. */
  warmupSeconds?: number;
}

export interface LoadResult {
  title: string;
  connections: number;
  durationSeconds: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  throughputMBps: number;
  /**
   * CPU time (user + system) of the calling process during the recorded run, per request: what the
   * servers hosted in this process spent on each answer. Unlike requests/s it hardly moves when
   * other processes compete for the CPUs.
   */
  serverCpuMicrosPerRequest: number;
}

/** What the child sends: a note when the warm-up is over, then its summary. */
export type ChildMessage = { type: 'recording' } | { type: 'result'; result: Omit<LoadResult, 'serverCpuMicrosPerRequest'> };

export const DEFAULT_CONNECTIONS = 50;
export const DEFAULT_DURATION_SECONDS = 10;
export const DEFAULT_WARMUP_SECONDS = 3;

const CHILD = fileURLToPath(new URL('./autocannon-child.ts', import.meta.url));

/**
 * Runs autocannon in a child process, so the load generator has its own event loop (and core)
 * instead of sharing the server's. Resolves with the recorded run's summary; the warm-up is
 * discarded. The child is killed if it outlives the run by more than 30 s.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const resolved = {
    method: 'GET',
    headers: {},
    connections: DEFAULT_CONNECTIONS,
    durationSeconds: DEFAULT_DURATION_SECONDS,
    warmupSeconds: DEFAULT_WARMUP_SECONDS,
    ...options,
  };
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const limitMs = (resolved.warmupSeconds + resolved.durationSeconds + 30) * 1000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`autocannon for "${resolved.title}" did not finish within ${limitMs / 1000} s`));
    }, limitMs);
    let result: LoadResult | undefined;
    let cpuAtStart = process.cpuUsage();
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'recording') {
        cpuAtStart = process.cpuUsage();
        return;
      }
      const cpu = process.cpuUsage(cpuAtStart);
      const requests = Math.max(message.result.requests, 1);
      result = { ...message.result, serverCpuMicrosPerRequest: (cpu.user + cpu.system) / requests };
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`autocannon child for "${resolved.title}" exited with ${code} before reporting`));
    });
    child.send(resolved);
  });
}

const pad = (text: string, width: number) => text.padStart(width);

/** One aligned line per run: requests/s, p50, p99, and anything that makes the run invalid. */
export function formatLoadResult(result: LoadResult, labelWidth = 28): string {
  const problems = [
    result.non2xx ? `${result.non2xx} non-2xx` : '',
    result.errors ? `${result.errors} errors` : '',
    result.timeouts ? `${result.timeouts} timeouts` : '',
  ].filter(Boolean);
  return (
    `${result.title.padEnd(labelWidth)} ${pad(Math.round(result.requestsPerSecond).toLocaleString('en-US'), 8)} req/s` +
    // autocannon's latency histogram has 1 ms resolution: print what it measured, no more.
    `   p50 ${pad(String(result.latencyP50Ms), 3)} ms   p99 ${pad(String(result.latencyP99Ms), 3)} ms` +
    `   max ${pad(String(result.latencyMaxMs), 4)} ms   ${pad(result.requests.toLocaleString('en-US'), 9)} requests` +
    `   server CPU ${pad(result.serverCpuMicrosPerRequest.toFixed(0), 4)} µs/request` +
    (problems.length ? `   !! ${problems.join(', ')}` : '')
  );
}
