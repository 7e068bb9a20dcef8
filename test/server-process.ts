import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The pid `npm start` was given: what a process manager holds and signals. */
  startedPid: number;
  /** The pid of the process that serves (from its log lines); the same as startedPid when npm execs it. */
  serverPid: number;
  /** Where its standard output and error go (its JSON log lines). */
  logFile: string;
  /** Milliseconds from spawning `npm start` to the "serving" line. */
  startupMs: number;
  /**
   * SIGTERM to startedPid, as a process manager stops a service. Resolves with whether the serving
   * process then exited by itself (if it did not within `graceMs`, it is sent SIGTERM directly) and
   * npm's exit code.
   */
  stop(graceMs?: number): Promise<{ serverExited: boolean; exitCode: number | null }>;
}

export interface StartServerOptions {
  /** Added to this process's environment (PORT defaults to 0, HOST to 127.0.0.1). */
  env: Record<string, string>;
  /** Give up after this long (a loaded machine starts slowly). */
  timeoutMs?: number;
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts the server exactly as a user or a process manager does: `npm start` in the repository,
 * configured by environment variables, default logging, its output to a log file (as a service's
 * output goes to a file or the journal). Resolves once the server logs that it is serving.
 */
export async function startServerProcess(options: StartServerOptions): Promise<ServerProcess> {
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-server-log-')), 'server.log');
  const out = fs.openSync(logFile, 'a');
  const started = Date.now();
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const lines = () => fs.readFileSync(logFile, 'utf8').split('\n');
  const { port, pid } = await waitFor('the server to log "serving"', options.timeoutMs ?? 180_000, () => {
    if (exited !== undefined) throw new Error(`npm start exited with ${exited} before serving:\n${lines().slice(-20).join('\n')}`);
    let listening: { port: number; pid: number } | undefined;
    for (const line of lines()) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; pid?: number };
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(entry.msg ?? '');
      if (match) listening = { port: Number(match[1]), pid: entry.pid! };
      if (listening && entry.msg?.includes('is serving')) return listening;
    }
    return undefined;
  });
  const startupMs = Date.now() - started;
  return {
    url: `http://127.0.0.1:${port}`,
    startedPid: child.pid!,
    serverPid: pid,
    logFile,
    startupMs,
    async stop(graceMs = 30_000) {
      if (exited === undefined) child.kill('SIGTERM');
      const serverExited = await waitFor('the server to exit', graceMs, () => (isAlive(pid) ? undefined : true)).catch(() => false);
      if (!serverExited) {
        // Left running by the signal: stop it directly, or it would hold its port and database.
        process.kill(pid, 'SIGTERM');
        await waitFor('the server to exit after a direct SIGTERM', graceMs, () => (isAlive(pid) ? undefined : true));
      }
      if (exited === undefined) await new Promise((resolve) => child.once('exit', resolve));
      return { serverExited, exitCode: exited ?? null };
    },
  };
}

/** Log lines written per request and their bytes, from a server's log file. */
export function logVolume(logFile: string): { lines: number; bytes: number } {
  const text = fs.readFileSync(logFile, 'utf8');
  return { lines: text.split('\n').filter((line) => line.startsWith('{')).length, bytes: Buffer.byteLength(text) };
}
