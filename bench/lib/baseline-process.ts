import { type ChildProcess, spawn } from 'node:child_process';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import { ROOT } from '../../test/server-process.js';

export interface BaselineProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a baseline server script of bench/lib in a process of its own (so its CPU is read apart
 * from the load generator's) and waits for the `{"port": N}` line it prints when listening.
 */
export async function startBaselineProcess(script: string, env: Record<string, string>): Promise<BaselineProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).port));
    child.once('exit', (code) => reject(new Error(`the baseline exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The baseline script's side: listens on a free port of 127.0.0.1, says which, and stops on SIGTERM. */
export function serveBaseline(server: http.Server, pool: pg.Pool): void {
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void pool.end().then(() => process.exit(0)));
  });
}
