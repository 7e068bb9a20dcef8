/**
 * Streams a 50 MB multipart logo upload at a real server and watches the server's memory.
 *
 *   npx tsx bench/logo-upload.ts [megabytes]
 *   npm run bench:logo-upload -- parallel [uploads=50] [megabytes=1.9]
 *
 * `parallel` (issue 15) sends that many valid logo uploads at once (a store each, multipart, as a
 * dashboard sends them) to the server as `npm start` runs it, first on the embedded database (a
 * fresh data directory), then on a fresh PostgreSQL database on 127.0.0.1, and reports for each the time until the last answer, the server's memory
 * (peak over before), and how long a `GET /healthz` sent every 50 ms meanwhile took at worst:
 * what every other request waits while the uploads are stored.
 *
 * Without `parallel`, the server (this process) runs the app on an in-memory PGlite database on 127.0.0.1 with a random
 * port. The client is a child process, so its buffers never count towards the server's figures; it
 * generates the body in 64 KiB chunks (never held whole) and keeps sending after the answer, as a
 * naive client would, to show what the server does with the rest of the body.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { BENCH_ADMIN_TOKEN, benchSettings } from './lib/app.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { createAccount, startServerProcess } from '../test/server-process.js';
import pg from 'pg';
import { type Database, openPglite, queryRows } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
const BOUNDARY = '----dakiya-bench-boundary';

interface ClientResult {
  status: number | null;
  body: string;
  bytesSentAtResponse: number | null;
  bytesSent: number;
  totalBytes: number;
  error: string | null;
  ms: number;
}

// ---------------------------------------------------------------- client (child process)

async function runClient(port: number, apiKey: string, megabytes: number): Promise<ClientResult> {
  const fileBytes = megabytes * MB;
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="store_name"\r\n\r\nbig-logo\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="logo"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const filler = randomBytes(CHUNK);
  const totalBytes = head.length + fileBytes + tail.length;
  const started = Date.now();

  return new Promise((resolve) => {
    const result: ClientResult = {
      status: null,
      body: '',
      bytesSentAtResponse: null,
      bytesSent: 0,
      totalBytes,
      error: null,
      ms: 0,
    };
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      result.ms = Date.now() - started;
      resolve(result);
    };
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/custom/api/v1/client-stores',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': totalBytes,
      },
    });
    request.on('response', (response) => {
      result.status = response.statusCode ?? null;
      result.bytesSentAtResponse = result.bytesSent;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        result.body += chunk;
      });
      response.on('end', () => {
        // Give the rest of the upload a moment to drain, or the server a moment to cut it off.
        setTimeout(finish, 1000);
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      result.error = error.code ?? error.message;
      finish();
    });
    request.on('close', () => setTimeout(finish, 200));

    let sentFile = 0;
    const write = (buffer: Buffer) => {
      result.bytesSent += buffer.length;
      return request.write(buffer);
    };
    const pump = () => {
      while (sentFile < fileBytes) {
        if (request.destroyed) return;
        const first = sentFile === 0;
        const size = Math.min(CHUNK, fileBytes - sentFile);
        const chunk = first ? Buffer.concat([png, filler.subarray(png.length, size)]) : filler.subarray(0, size);
        sentFile += size;
        if (!write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      write(tail);
      request.end();
    };
    write(head);
    pump();
  });
}

// ---------------------------------------------------------------- server (this process)

function gc() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The app on the given database, migrated, listening on 127.0.0.1, with an account and its API key. */
async function listen(database: Database) {
  await migrate(database.db);
  const app = await buildApp({
    db: database.db,
    settings: benchSettings({ server: { adminToken: 'bench-admin-token-0123456789' } }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: 'Bearer bench-admin-token-0123456789' },
    payload: { name: 'Bench' },
  });
  return { app, port, apiKey: created.json().api_key as string };
}

async function runServer(megabytes: number) {
  const database = await openPglite();
  const { app, port, apiKey } = await listen(database);

  gc();
  const before = process.memoryUsage();
  const peak = {
    rss: before.rss,
    heapUsed: before.heapUsed,
    external: before.external,
    arrayBuffers: before.arrayBuffers,
  };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  }, 10);

  const client = fork(fileURLToPath(import.meta.url), ['client', String(port), apiKey, String(megabytes)], {
    execArgv: ['--import', 'tsx'],
  });
  const result = await new Promise<ClientResult>((resolve, reject) => {
    client.once('message', (message) => resolve(message as ClientResult));
    client.once('exit', (code) => reject(new Error(`client exited with ${code} before reporting`)));
  });
  clearInterval(sampler);
  const afterNoGc = process.memoryUsage();
  gc();
  const after = process.memoryUsage();

  const [stores] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from stores`);
  const [logos] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from store_logos`);

  console.log(
    `upload: ${mb(result.totalBytes)} multipart body (${megabytes} MB logo) to POST /custom/api/v1/client-stores`,
  );
  console.log(`status: ${result.status}  body: ${result.body}`);
  console.log(
    `client: ${mb(result.bytesSent)} written before the end; ${result.bytesSentAtResponse === null ? 'no answer' : `answered after ${mb(result.bytesSentAtResponse)}`}; ` +
      `connection error: ${result.error ?? 'none'}; ${result.ms} ms`,
  );
  console.log(`rows after: stores=${stores?.n}, store_logos=${logos?.n}`);
  const row = (label: string, m: { rss: number; heapUsed: number; external: number; arrayBuffers: number }) =>
    console.log(
      `${label.padEnd(18)} rss ${mb(m.rss).padStart(9)}  heapUsed ${mb(m.heapUsed).padStart(8)}  external ${mb(m.external).padStart(8)}  arrayBuffers ${mb(m.arrayBuffers).padStart(8)}`,
    );
  row('before', before);
  row('peak (10 ms)', peak);
  row('after', afterNoGc);
  row('after gc', after);
  console.log(
    `peak - before:     rss +${mb(peak.rss - before.rss)}, heapUsed +${mb(peak.heapUsed - before.heapUsed)}, arrayBuffers +${mb(peak.arrayBuffers - before.arrayBuffers)}`,
  );

  await app.close();
  await database.close();
}

// ---------------------------------------------------------------- parallel uploads

/** A logo of exactly `size` bytes that the server recognises as a PNG (signature and IHDR chunk). */
function pngOf(size: number): Buffer {
  const png = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(png);
  return png;
}

function upload(
  port: number,
  apiKey: string,
  storeName: string,
  logo: Buffer,
): Promise<{ status: number; ms: number }> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="store_name"\r\n\r\n${storeName}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const body = Buffer.concat([head, logo, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/custom/api/v1/client-stores',
        headers: {
          authorization: apiKey,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, ms: Date.now() - started }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The client side of `parallel`, in its own process: every upload at once, and the health probe. */
async function runParallelClient(
  port: number,
  apiKey: string,
  uploads: number,
  megabytes: number,
): Promise<ParallelResult> {
  const logo = pngOf(Math.round(megabytes * MB));
  let probing = true;
  let worstProbeMs = 0;
  const probe = (async () => {
    while (probing) {
      const started = Date.now();
      await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.arrayBuffer());
      worstProbeMs = Math.max(worstProbeMs, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: uploads }, (_, i) => upload(port, apiKey, `logo-store-${i}`, logo)),
  );
  const ms = Date.now() - started;
  probing = false;
  await probe;
  return { ms, statuses: answers.map((a) => a.status), slowestMs: Math.max(...answers.map((a) => a.ms)), worstProbeMs };
}

interface ParallelResult {
  ms: number;
  statuses: number[];
  slowestMs: number;
  worstProbeMs: number;
}

/** Resident memory of a process, from /proc (Linux), in bytes. */
function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * The server runs as users run it (`npm start`, its own process, default logging): on the embedded
 * database in a fresh DATA_DIR, then on a fresh PostgreSQL database. Its memory is read from /proc.
 */
async function runParallelServer(uploads: number, megabytes: number) {
  console.log(
    `parallel: ${uploads} uploads at once of a ${megabytes} MB PNG logo, multipart, POST /custom/api/v1/client-stores (a store each)`,
  );
  console.log(`machine:  ${describeMachine()}\nbefore:   ${describeLoad()}`);
  for (const engine of ['pglite', 'postgres'] as const) {
    const cleanups: (() => Promise<void>)[] = [];
    let env: Record<string, string>;
    if (engine === 'postgres') {
      const name = `dakiya_bench_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      cleanups.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      });
      env = { DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}` };
    } else {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-logos-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      env = { DATA_DIR: dataDir };
    }
    try {
      const server = await startServerProcess({
        env: { ...env, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' },
      });
      cleanups.unshift(async () => {
        await server.stop();
        fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
      });
      const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Logo benchmark');
      const port = new URL(server.url).port;
      const before = residentBytes(server.serverPid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, residentBytes(server.serverPid));
      }, 10);
      const client = fork(
        fileURLToPath(import.meta.url),
        ['parallel-client', port, apiKey, String(uploads), String(megabytes)],
        {
          execArgv: ['--import', 'tsx'],
        },
      );
      const result = await new Promise<ParallelResult>((resolve, reject) => {
        client.once('message', (message) => resolve(message as ParallelResult));
        client.once('exit', (code) => reject(new Error(`client exited with ${code} before reporting`)));
      });
      clearInterval(sampler);
      const after = residentBytes(server.serverPid);
      const label = engine === 'pglite' ? 'PGlite (data directory)' : 'PostgreSQL';
      const statuses = [...new Set(result.statuses)].join(', ');
      console.log(
        `${label.padEnd(24)} ${(result.ms / 1000).toFixed(1).padStart(6)} s for all (slowest upload ${(result.slowestMs / 1000).toFixed(1)} s), statuses ${statuses}; ` +
          `GET /healthz meanwhile: worst ${result.worstProbeMs} ms; server rss ${mb(before)} before, peak +${mb(peak - before)}, after +${mb(after - before)}`,
      );
      if (result.statuses.some((status) => status !== 201)) process.exitCode = 1;
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  }
  console.log(`after:    ${describeLoad()}`);
}

// ---------------------------------------------------------------- entry

const [mode, ...args] = process.argv.slice(2);
if (mode === 'parallel-client') {
  const [port, apiKey, uploads, megabytes] = args;
  const result = await runParallelClient(Number(port), apiKey!, Number(uploads), Number(megabytes));
  process.send!(result, () => process.exit(0));
} else if (mode === 'parallel') {
  await runParallelServer(Number(args[0] ?? 50), Number(args[1] ?? 1.9));
  process.exit();
} else if (mode === 'client') {
  const [port, apiKey, megabytes] = args;
  const result = await runClient(Number(port), apiKey!, Number(megabytes));
  process.send!(result, () => process.exit(0));
} else {
  await runServer(Number(mode ?? 50));
  process.exit(0);
}
