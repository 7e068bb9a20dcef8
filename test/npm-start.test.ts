import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isAlive, ROOT, startServerProcess } from './server-process.js';
import { openPglite } from '../src/base/db/client.js';
import { acquireDataDirLock } from '../src/base/db/lock.js';
import { createEmptyDatabase, pgliteTemplateBlob } from './databases.js';

/**
 * A process manager (systemd, Docker, PM2) starts `npm start` and stops the service by signalling
 * the pid it started. That pid must stop the server gracefully: the request in flight answered,
 * the database closed, the embedded database's lock released, and nothing left running.
 */

const engine = process.env.DAKIYA_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh database for one server: a PostgreSQL database or an embedded data directory. */
async function freshDatabase(name: string): Promise<{ env: Record<string, string>; dataDir: string }> {
  const env: Record<string, string> = { LOG_LEVEL: 'info', DATABASE_URL: '', DATA_DIR: '' };
  let dataDir = '';
  // The claim is about stopping: the embedded database starts as the run's migrated copy
  // (test/pglite-global-setup.ts), as after a first start, rather than paying an initdb and the
  // migrations in the server. (A first start from nothing: persistence.unit.test.ts, the README's
  // first steps.)
  if (engine === 'postgres') {
    const database = await createEmptyDatabase(name);
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dakiya-${name}-`));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    env.DATA_DIR = dataDir;
    const seeded = await openPglite(dataDir, await pgliteTemplateBlob());
    await seeded.close();
  }
  return { env, dataDir };
}

it(`SIGTERM to the pid npm start was given stops the server gracefully (${engine})`, { timeout: 180_000 }, async () => {
  const { env, dataDir } = await freshDatabase('start');
  // Once its route schemas are compiled too, which it does in the background after it serves.
  const server = await startServerProcess({ env, timeoutMs: 150_000, warm: true });
  cleanups.push(async () => {
    server.signal('SIGKILL');
  });
  // No shell between npm and the server (the start script execs it): npm forwards SIGTERM to its
  // child, and a shell in between would not pass it on.
  const parentPid = Number(fs.readFileSync(`/proc/${server.serverPid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  expect(parentPid).toBe(server.startedPid);

  // A request in flight when the signal comes: its body is half sent.
  const { port } = new URL(server.url);
  const body = JSON.stringify({ username: 'nobody-here', password: 'not-the-password' });
  let firstBytesSent = () => {};
  const sent = new Promise<void>((resolve) => {
    firstBytesSent = resolve;
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/custom/api/v1/auth-token',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      },
    );
    request.on('error', reject);
    request.write(body.slice(0, 10), () => firstBytesSent());
    // The rest once the server has been told to stop (the log line below).
    const finish = setInterval(() => {
      if (fs.readFileSync(server.logFile, 'utf8').includes('"signal":"SIGTERM"')) {
        clearInterval(finish);
        request.end(body.slice(10));
      }
    }, 20);
  });
  // The server must have taken the request in before the signal: one that reaches it after is a
  // new request to a closing server, answered 503. Its first bytes are in the server's socket
  // before another connection is opened, and the server reads the sockets that are ready in the
  // order the kernel lists them, in one turn: once it has answered a request sent on a later
  // connection, it has read this one's head too.
  await sent;
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  const stopped = server.stop(60_000);

  const answered = await answer;
  expect(answered.status).toBe(401);
  expect(JSON.parse(answered.body).message).toBe('Invalid username or password');
  expect(await stopped).toEqual({ serverExited: true, exitCode: 0 });
  expect(server.running()).toBe(false);
  // Its log is inside the test run's folder, which the run removes when it ends (build-global-setup.ts).
  expect(server.logFile.startsWith(`${process.env.DAKIYA_TEST_TMP}${path.sep}`)).toBe(true);
  const lines = fs
    .readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) => JSON.parse(line) as { msg: string; statusCode?: number; url?: string; compiled?: number; ms?: number },
    );
  // The background compilation says when it is over, with how many schemas and the CPU they took.
  const compiled = lines.filter((line) => line.msg === 'route schemas compiled');
  expect(compiled).toHaveLength(1);
  expect(compiled[0]!.compiled).toBeGreaterThan(100);
  expect(compiled[0]!.ms).toBeGreaterThan(0);
  // One structured line per request, written before the process exited.
  expect(lines.filter((line) => line.msg === 'request')).toEqual([
    expect.objectContaining({ msg: 'request', url: '/custom/api/v1/auth-token', statusCode: 401, method: 'POST' }),
  ]);
  // Start-up says what is not real: e-mails kept in the outbox (no SMTP_URL), and test bookings.
  expect(lines.map((line) => line.msg).filter((msg) => /outbox|book test shipments/.test(msg))).toEqual([
    expect.stringMatching(
      /^SMTP_URL is not set: customer e-mails are not sent but kept in the outbox; read them at GET http:\/\/127\.0\.0\.1:\d+\/custom\/api\/v1\/shipments\/\{shipment_id or AWB\}\/emails /,
    ),
    expect.stringMatching(/^13 of 13 courier services book test shipments \(13 on the sandbox connector/),
  ]);

  if (engine === 'pglite') {
    // The lock is released and the database opens again: a restart is not refused.
    const lock = acquireDataDirLock(dataDir);
    const database = await openPglite(dataDir);
    await database.close();
    lock.release();
  }
});

it(`npm start on a busy port says so in one line, exits 1 and leaves no lock behind (${engine})`, {
  timeout: 180_000,
}, async () => {
  const { env, dataDir } = await freshDatabase('busy_port');
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as net.AddressInfo;
  try {
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.pid !== undefined && isAlive(child.pid)) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));

    expect(exitCode).toBe(1);
    // npm's own lines ("> dakiya@… start", warnings about the user's npm configuration) aside, one line.
    const said = `${stdout}${stderr}`
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('> ') && !line.startsWith('npm '));
    expect(said).toEqual([
      `dakiya: port ${port} (PORT) on 127.0.0.1 is already in use: stop what listens there, or set PORT to a free port`,
    ]);
    if (engine === 'pglite') expect(fs.existsSync(path.join(dataDir, 'dakiya.lock'))).toBe(false);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }

  // On a free port the same database opens at once.
  const server = await startServerProcess({ env, timeoutMs: 150_000 });
  cleanups.push(async () => {
    server.signal('SIGKILL');
  });
  const ready = await fetch(`${server.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await server.stop(60_000)).toEqual({ serverExited: true, exitCode: 0 });
});
