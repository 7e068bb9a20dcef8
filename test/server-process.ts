import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A process an npm script started: `npm start` (the API) or `npm run worker` (webhook delivery alone). */
export interface NpmProcess {
  /** The pid npm was given: what a process manager holds and signals. */
  startedPid: number;
  /** The pid of the process that does the work (from its log lines); the same as startedPid when npm execs it. */
  serverPid: number;
  /** Where its standard output and error go (its JSON log lines). */
  logFile: string;
  /** Milliseconds from spawning npm to the line saying it is ready. */
  startupMs: number;
  /** Whether the working process still runs: its pid, held by the same process (see `sameProcess`). */
  running(): boolean;
  /**
   * Sends `signal` to the working process if it still runs; never to a process that took its pid
   * after it ended (pids are reused, within minutes on a busy machine: pid_max is 32768 here).
   */
  signal(signal: NodeJS.Signals): void;
  /**
   * SIGTERM to startedPid, as a process manager stops a service. Resolves with whether the working
   * process then exited by itself (if it did not within `graceMs`, it is sent SIGTERM directly) and
   * npm's exit code.
   */
  stop(graceMs?: number): Promise<{ serverExited: boolean; exitCode: number | null }>;
  /**
   * What a failed assertion on running() should print: whether the working process runs, npm's
   * exit code or signal once npm has ended (it passes on its script's), and the last `lines` of
   * the log file (the process's JSON lines, and whatever it wrote to stderr as it died).
   */
  report(lines?: number): string;
}

export interface ServerProcess extends NpmProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
}

export interface StartServerOptions {
  /** Added to this process's environment (PORT defaults to 0, HOST to 127.0.0.1). */
  env: Record<string, string>;
  /** Give up after this long (a loaded machine starts slowly). */
  timeoutMs?: number;
  /**
   * Resolve only once every server process has compiled its route schemas, which it does in the
   * background after it starts serving (about 2 s of CPU): a benchmark timed meanwhile times the
   * compilers as much as the requests.
   */
  warm?: boolean;
}

const SCHEMAS_COMPILED = 'route schemas compiled';

/** Whether each of `pids` has logged that its route schemas are compiled, when `options` asks for it. */
function warmed(options: StartServerOptions, entries: LogEntry[], pids: readonly number[]): boolean {
  if (!options.warm) return true;
  const done = new Set(entries.filter((entry) => entry.msg === SCHEMAS_COMPILED).map((entry) => entry.pid));
  return pids.every((pid) => done.has(pid));
}

interface LogEntry {
  msg?: string;
  pid?: number;
  /** The server processes of a cluster, in the primary's line saying they all serve. */
  serverPids?: number[];
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** When `pid`'s process started, in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined once it is gone. */
export function startTicks(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * A process by its pid and its start time: a pid alone names whichever process holds it now, and a
 * clean-up that signals a pid its process left behind ends a stranger (as one once ended another
 * test's server in CI).
 */
export function sameProcess(pid: number): { running(): boolean; signal(signal: NodeJS.Signals): void } {
  const started = startTicks(pid);
  const running = () => started !== undefined && startTicks(pid) === started;
  return {
    running,
    signal(signal) {
      if (running()) process.kill(pid, signal);
    },
  };
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every npm process these helpers spawned in this test process, from the moment it is spawned. */
export const spawnedPids = new Set<number>();

/**
 * Runs an npm script in the repository exactly as a user or a process manager does, configured by
 * environment variables, default logging, its output to a log file (as a service's output goes to
 * a file or the journal). Resolves once `ready` finds what it waits for in the JSON log lines.
 */
async function startNpmScript<T extends { pid: number }>(
  args: string[],
  options: StartServerOptions,
  readyWhat: string,
  ready: (entries: LogEntry[]) => T | undefined,
): Promise<{ process: NpmProcess; ready: T }> {
  // Inside the test run's own folder (build-global-setup.ts), which goes when the run ends: tests
  // read a log after its process stopped, so it cannot go with the process.
  const logFolder = fs.mkdtempSync(path.join(process.env.DAKIYA_TEST_TMP ?? os.tmpdir(), 'dakiya-server-log-'));
  const logFile = path.join(logFolder, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const started = Date.now();
  const child: ChildProcess = spawn('npm', args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  if (child.pid !== undefined) spawnedPids.add(child.pid);
  let exited: number | null | undefined;
  let exitSignal: NodeJS.Signals | null = null;
  child.once('exit', (code, signal) => {
    exited = code;
    exitSignal = signal;
  });
  // The last piece is a line still being written (or nothing): left for the next look.
  const lines = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(0, -1);
  let found: T;
  try {
    found = await waitFor(readyWhat, options.timeoutMs ?? 180_000, () => {
      if (exited !== undefined)
        throw new Error(
          `npm ${args.join(' ')} exited with ${exited} before ${readyWhat}:\n${lines().slice(-20).join('\n')}`,
        );
      return ready(
        lines()
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as LogEntry),
      );
    });
  } catch (error) {
    // Not ready: stopped here, since the caller never gets a handle to stop it with.
    if (exited === undefined) child.kill('SIGTERM');
    throw error;
  }
  const { pid } = found;
  const server = sameProcess(pid);
  const stop = async (graceMs: number) => {
    if (exited === undefined) child.kill('SIGTERM');
    const serverExited = await waitFor('the server to exit', graceMs, () =>
      server.running() ? undefined : true,
    ).catch(() => false);
    if (!serverExited) {
      // Left running by the signal: stop it directly, or it would hold its port and database.
      server.signal('SIGTERM');
      await waitFor('the server to exit after a direct SIGTERM', graceMs, () => (server.running() ? undefined : true));
    }
    if (exited === undefined) await new Promise((resolve) => child.once('exit', resolve));
    return { serverExited, exitCode: exited ?? null };
  };
  // Once: a second call (a test's, then its clean-up's) must not signal a pid reused meanwhile.
  let stopped: ReturnType<typeof stop> | undefined;
  const handle: NpmProcess = {
    startedPid: child.pid!,
    serverPid: pid,
    logFile,
    startupMs: Date.now() - started,
    running: server.running,
    signal: server.signal,
    stop: (graceMs = 30_000) => (stopped ??= stop(graceMs)),
    report: (count = 60) => {
      const state = server.running()
        ? `pid ${pid} is running`
        : `pid ${pid} is gone; npm ${args.join(' ')} ${exited === undefined ? 'still runs' : `exited with code ${exited}${exitSignal ? `, signal ${exitSignal}` : ''}`}`;
      return `${state}; the last ${count} lines of ${logFile}:\n${fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .slice(-count - 1)
        .join('\n')}`;
    },
  };
  return { process: handle, ready: found };
}

/** `npm start`: resolves once the server logs that it is serving. */
export async function startServerProcess(options: StartServerOptions): Promise<ServerProcess> {
  const { process: server, ready } = await startNpmScript(
    ['start'],
    options,
    'the server to log "serving"',
    (entries) => {
      let listening: { port: number; pid: number } | undefined;
      for (const entry of entries) {
        const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(entry.msg ?? '');
        if (match) listening = { port: Number(match[1]), pid: entry.pid! };
        if (listening && entry.msg?.includes('is serving'))
          return warmed(options, entries, [listening.pid]) ? listening : undefined;
      }
      return undefined;
    },
  );
  return { ...server, url: `http://127.0.0.1:${ready.port}` };
}

export interface ClusterProcess extends ServerProcess {
  /** The server processes the primary (serverPid) started, in the order it started them. */
  workerPids: number[];
}

/**
 * `WEB_CONCURRENCY=<processes> npm start`: resolves once the primary logs that every server process
 * serves. `serverPid` is the primary's: stop() waits for it, and it exits after all of them.
 */
export async function startClusterProcess(processes: number, options: StartServerOptions): Promise<ClusterProcess> {
  const env = { ...options.env, WEB_CONCURRENCY: String(processes) };
  const { process: primary, ready } = await startNpmScript(
    ['start'],
    { ...options, env },
    `${processes} server processes serving`,
    (entries) => {
      // Each process writes the shared log file on its own, so the primary's "serving" line may come
      // before a server process's "listening" line: the two are looked for apart, in any order.
      const port = entries
        .map((entry) => /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(entry.msg ?? '')?.[1])
        .find((found) => found !== undefined);
      const serving = entries.find(
        (entry) => entry.serverPids && entry.msg === `${processes} of ${processes} server processes are serving`,
      );
      return port !== undefined && serving && warmed(options, entries, serving.serverPids!)
        ? { pid: serving.pid!, port: Number(port), workerPids: serving.serverPids! }
        : undefined;
    },
  );
  return { ...primary, url: `http://127.0.0.1:${ready.port}`, workerPids: ready.workerPids };
}

/** `npm run worker`: resolves once the worker logs that it is delivering. */
export async function startWorkerProcess(options: StartServerOptions): Promise<NpmProcess> {
  const { process: worker } = await startNpmScript(
    ['run', 'worker'],
    options,
    'the worker to log "delivering"',
    (entries) => {
      const entry = entries.find((e) => e.msg?.includes('worker is delivering'));
      return entry && { pid: entry.pid! };
    },
  );
  return worker;
}

/**
 * An account made through the operator API of a server started with ADMIN_TOKEN=`adminToken`, as an
 * operator makes one; answers its id and first API key.
 */
export async function createAccount(
  server: Pick<ServerProcess, 'url'>,
  adminToken: string,
  name: string,
): Promise<{ accountId: string; apiKey: string }> {
  const response = await fetch(`${server.url}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`account creation failed: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { data: { id: string }; api_key: string };
  return { accountId: created.data.id, apiKey: created.api_key };
}

/** Log lines written per request and their bytes, from a server's log file. */
export function logVolume(logFile: string): { lines: number; bytes: number } {
  const text = fs.readFileSync(logFile, 'utf8');
  return { lines: text.split('\n').filter((line) => line.startsWith('{')).length, bytes: Buffer.byteLength(text) };
}
