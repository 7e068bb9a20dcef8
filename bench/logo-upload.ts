/**
 * Streams a 50 MB multipart logo upload at a real server and watches the server's memory.
 *
 *   npx tsx bench/logo-upload.ts [megabytes]
 *
 * The server (this process) runs the app on an in-memory PGlite database on 127.0.0.1 with a random
 * port. The client is a child process, so its buffers never count towards the server's figures; it
 * generates the body in 64 KiB chunks (never held whole) and keeps sending after the answer, as a
 * naive client would, to show what the server does with the rest of the body.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { BENCH_LIMITS } from './lib/app.js';
import { openPglite, queryRows } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

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
    const result: ClientResult = { status: null, body: '', bytesSentAtResponse: null, bytesSent: 0, totalBytes, error: null, ms: 0 };
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

async function runServer(megabytes: number) {
  const database = await openPglite();
  await migrate(database.db);
  const app = await buildApp({ db: database.db, publicBaseUrl: 'http://127.0.0.1', adminToken: 'bench-admin-token-0123456789', limits: BENCH_LIMITS });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: 'Bearer bench-admin-token-0123456789' },
    payload: { name: 'Bench' },
  });
  const apiKey: string = created.json().api_key;

  gc();
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external, arrayBuffers: before.arrayBuffers };
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

  console.log(`upload: ${mb(result.totalBytes)} multipart body (${megabytes} MB logo) to POST /custom/api/v1/client-stores`);
  console.log(`status: ${result.status}  body: ${result.body}`);
  console.log(
    `client: ${mb(result.bytesSent)} written before the end; ${result.bytesSentAtResponse === null ? 'no answer' : `answered after ${mb(result.bytesSentAtResponse)}`}; ` +
      `connection error: ${result.error ?? 'none'}; ${result.ms} ms`,
  );
  console.log(`rows after: stores=${stores?.n}, store_logos=${logos?.n}`);
  const row = (label: string, m: { rss: number; heapUsed: number; external: number; arrayBuffers: number }) =>
    console.log(`${label.padEnd(18)} rss ${mb(m.rss).padStart(9)}  heapUsed ${mb(m.heapUsed).padStart(8)}  external ${mb(m.external).padStart(8)}  arrayBuffers ${mb(m.arrayBuffers).padStart(8)}`);
  row('before', before);
  row('peak (10 ms)', peak);
  row('after', afterNoGc);
  row('after gc', after);
  console.log(`peak - before:     rss +${mb(peak.rss - before.rss)}, heapUsed +${mb(peak.heapUsed - before.heapUsed)}, arrayBuffers +${mb(peak.arrayBuffers - before.arrayBuffers)}`);

  await app.close();
  await database.close();
}

// ---------------------------------------------------------------- entry

const [mode, ...args] = process.argv.slice(2);
if (mode === 'client') {
  const [port, apiKey, megabytes] = args;
  const result = await runClient(Number(port), apiKey!, Number(megabytes));
  process.send!(result, () => process.exit(0));
} else {
  await runServer(Number(mode ?? 50));
  process.exit(0);
}
