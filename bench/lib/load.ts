import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  /** Shown in the output. */
  title: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Where each request's body carries a value of its own (an order_id that must be unique): every
   * occurrence of this text in `body` is replaced by a fresh value per request.
   */
  uniqueToken?: string;
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
  /** CPU time per request of the database's processes (the PostgreSQL backends), when runLoad was told them. */
  databaseCpuMicrosPerRequest?: number;
  /** CPU time per request of the load generator (the autocannon child), which shares the machine's CPUs. */
  loadGeneratorCpuMicrosPerRequest?: number;
}

/**
 * Whose CPU time a run charges to the server: by default this process (servers hosted in it); a
 * server in its own process (started as `npm start` starts it) and the PostgreSQL backends are
 * named by pid and read from /proc.
 */
export interface CpuSources {
  server?: () => Promise<number[]> | number[];
  database?: () => Promise<number[]> | number[];
}

/** What the child sends: a note when the warm-up is over, then its summary. */
export type ChildMessage =
  | { type: 'recording' }
  | { type: 'result'; result: Omit<LoadResult, 'serverCpuMicrosPerRequest'> };

export const DEFAULT_CONNECTIONS = 50;
export const DEFAULT_DURATION_SECONDS = 10;
export const DEFAULT_WARMUP_SECONDS = 3;

/** A non-negative number from the environment, or the default. */
export function benchSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

/** BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP and BENCH_ROUNDS, as every load benchmark reads them. */
export function loadSettings(defaultRounds = 3, defaultConnections = DEFAULT_CONNECTIONS) {
  return {
    connections: benchSetting('BENCH_CONNECTIONS', defaultConnections),
    durationSeconds: benchSetting('BENCH_DURATION', DEFAULT_DURATION_SECONDS),
    warmupSeconds: benchSetting('BENCH_WARMUP', DEFAULT_WARMUP_SECONDS),
    rounds: Math.max(1, Math.round(benchSetting('BENCH_ROUNDS', defaultRounds))),
  };
}

const CHILD = fileURLToPath(new URL('./autocannon-child.ts', import.meta.url));

/**
 * Runs autocannon in a child process, so the load generator has its own event loop (and core)
 * instead of sharing the server's. Resolves with the recorded run's summary; the warm-up is
 * discarded. The child is killed if it outlives the run by more than 30 s.
 */
/** CPU time in µs (user + system) used so far by each of the given processes still running, from /proc (Linux only). */
export function processCpuMicros(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (1/100 s).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // The process ended (a PostgreSQL backend the pool closed): left out.
    }
  }
  return used;
}

/** CPU used since `start` by the processes running at both ends (a backend that closed mid-run is left out, not counted negative). */
function cpuSince(start: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of processCpuMicros([...start.keys()])) total += now - start.get(pid)!;
  return total;
}

export function runLoad(options: LoadOptions, sources: CpuSources = {}): Promise<LoadResult> {
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
    let serverAtStart = new Map<number, number>();
    let databaseAtStart = new Map<number, number>();
    let generatorAtStart = new Map<number, number>();
    let starting: Promise<void> = Promise.resolve();
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'recording') {
        cpuAtStart = process.cpuUsage();
        generatorAtStart = processCpuMicros(child.pid === undefined ? [] : [child.pid]);
        starting = (async () => {
          serverAtStart = processCpuMicros(sources.server ? await sources.server() : []);
          databaseAtStart = processCpuMicros(sources.database ? await sources.database() : []);
        })();
        return;
      }
      const cpu = process.cpuUsage(cpuAtStart);
      const serverCpu = sources.server ? cpuSince(serverAtStart) : cpu.user + cpu.system;
      const databaseCpu = cpuSince(databaseAtStart);
      const generatorCpu = cpuSince(generatorAtStart);
      const requests = Math.max(message.result.requests, 1);
      result = {
        ...message.result,
        serverCpuMicrosPerRequest: serverCpu / requests,
        ...(sources.database && { databaseCpuMicrosPerRequest: databaseCpu / requests }),
        loadGeneratorCpuMicrosPerRequest: generatorCpu / requests,
      };
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', async (code) => {
      clearTimeout(timer);
      await starting;
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
    (result.databaseCpuMicrosPerRequest === undefined
      ? ''
      : `   database CPU ${pad(result.databaseCpuMicrosPerRequest.toFixed(0), 4)} µs/request`) +
    (problems.length ? `   !! ${problems.join(', ')}` : '')
  );
}
