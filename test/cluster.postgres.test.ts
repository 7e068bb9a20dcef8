import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly } from './databases.js';
import { ORCHESTRATE, V1 } from './kit/http.js';
import { orderBody } from './kit/orders.js';
import { type ClusterProcess, isAlive, ROOT, startClusterProcess } from './server-process.js';
import {
  allDelivered,
  call,
  createMerchant,
  eventsListed,
  expectDeliveredOnce,
  expectEveryEventSigned,
  type Merchant,
  processEnv,
  receivedIds,
  socketOwner,
} from './webhook-processes.js';
import { type Receiver, startReceiver, until } from './webhook-receiver.js';
import { CREDENTIAL_CACHE_TTL_MS } from '../src/tenancy/accounts/credential-cache.js';

/**
 * Issue 27's claims about `WEB_CONCURRENCY=2 npm start` on one PostgreSQL database, with real
 * processes: both server processes take requests on the one port; bookings sent at once with the
 * same and different Idempotency-Keys are booked once each; every event reaches the receiver once;
 * a server process killed by SIGKILL is replaced and nothing is lost; a suspended member
 * (issue 51) is signed out of both processes within the credential cache's second; SIGTERM to the pid npm was
 * given stops them all gracefully. And the embedded database refuses more than one process.
 */

const PROCESSES = 2;
/** Keys sent COPIES times each, all at once, beside as many bookings without a key. */
const KEYS = 20;
const COPIES = 3;
/** Keyed bookings of the crash case, one process killed after KILL_AFTER answers. */
const CRASH_BOOKINGS = 30;
const KILL_AFTER = 5;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
});

interface Booked {
  status: number;
  replayed: boolean;
  shipmentId?: string;
  awb?: string;
  body: string;
}

/** One booking, with its key when given; a connection refused or reset (a killed process) answers status 0. */
async function bookOnce(url: string, merchant: Merchant, body: object, key?: string): Promise<Booked> {
  try {
    const response = await fetch(`${url}${ORCHESTRATE}`, {
      method: 'POST',
      headers: {
        authorization: merchant.apiKey,
        'content-type': 'application/json',
        ...(key && { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const payload =
      response.status === 200
        ? (JSON.parse(text) as { payload: { shipment_id: string; awb_code: string } }).payload
        : undefined;
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      shipmentId: payload?.shipment_id,
      awb: payload?.awb_code,
      body: text,
    };
  } catch (error) {
    return { status: 0, replayed: false, body: String(error) };
  }
}

/**
 * Books with `key` until answered 200: a 409 (the same key still running elsewhere), a 503 or a lost
 * connection is retried with the same key and body, as a merchant's client retries.
 */
async function bookUntilAnswered(url: string, merchant: Merchant, body: object, key: string): Promise<Booked[]> {
  const answers: Booked[] = [];
  const until = Date.now() + 90_000;
  for (;;) {
    const answer = await bookOnce(url, merchant, body, key);
    answers.push(answer);
    if (answer.status === 200) return answers;
    if (![0, 409, 503].includes(answer.status)) throw new Error(`${key}: ${answer.status} ${answer.body}`);
    if (Date.now() > until) throw new Error(`${key} unanswered after 90 s: ${answer.status} ${answer.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The JSON log lines of a process's log file. */
function logLines(file: string): { msg?: string; pid?: number; url?: string; serverPid?: number; replaced?: number }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

async function shipmentTotal(url: string, merchant: Merchant): Promise<number> {
  const listed = await call(url, 'POST', `${V1}/shipments`, merchant.apiKey, {});
  expect(listed.status).toBe(200);
  return listed.json.meta.total;
}

describePostgresOnly(`WEB_CONCURRENCY=${PROCESSES} npm start on one PostgreSQL database`, {}, () => {
  let cluster: ClusterProcess;
  let receiver: Receiver;
  let crashReceiver: Receiver;
  /** The server processes serving now: the first ones, then the replacement of the killed one. */
  let serving: number[] = [];
  /** The server process that runs the cluster's workers, seen sending in the first case. */
  let workersPid: number | undefined;

  beforeAll(async () => {
    const database = await createEmptyDatabase('cluster');
    cleanups.push(database.drop);
    const senderOf = (socket: import('node:net').Socket) => socketOwner(socket, () => serving);
    receiver = await startReceiver([], 200, senderOf);
    crashReceiver = await startReceiver([], 200, senderOf);
    cleanups.push(
      () => receiver.close(),
      () => crashReceiver.close(),
    );
    cluster = await startClusterProcess(PROCESSES, { env: processEnv(database.url) });
    cleanups.push(() => cluster.stop(30_000));
    serving = [...cluster.workerPids];
  }, 200_000);

  it('runs two server processes, says so, and both take bookings: each Idempotency-Key booked once, each booking without one once', {
    timeout: 120_000,
  }, async () => {
    expect(cluster.workerPids).toHaveLength(PROCESSES);
    expect(new Set(cluster.workerPids).size).toBe(PROCESSES);
    expect(cluster.workerPids).not.toContain(cluster.serverPid);
    const said = logLines(cluster.logFile)
      .filter((line) => line.pid === cluster.serverPid)
      .map((line) => line.msg);
    expect(said).toContain(`Dakiya runs ${PROCESSES} server processes on one port (WEB_CONCURRENCY=${PROCESSES})`);
    expect(said).toContain(`${PROCESSES} of ${PROCESSES} server processes are serving`);

    const merchant = await createMerchant(cluster.url, receiver);
    const keyed = Array.from({ length: KEYS }, (_, i) => ({
      key: `cluster-key-${i}`,
      body: orderBody(merchant.warehouseId, { order_id: `CLUSTER-K${i}` }),
    }));
    const [keyedAnswers, unkeyedAnswers] = await Promise.all([
      Promise.all(
        keyed.flatMap(({ key, body }) =>
          Array.from({ length: COPIES }, () =>
            bookUntilAnswered(cluster.url, merchant, body, key).then((answers) => ({ key, answers })),
          ),
        ),
      ),
      Promise.all(
        Array.from({ length: KEYS }, (_, i) =>
          bookOnce(cluster.url, merchant, orderBody(merchant.warehouseId, { order_id: `CLUSTER-U${i}` })),
        ),
      ),
    ]);

    // Every copy of a key answered with the same shipment, booked by exactly one of them.
    for (const { key } of keyed) {
      const finals = keyedAnswers.filter((a) => a.key === key).map((a) => a.answers.at(-1)!);
      expect(finals, key).toHaveLength(COPIES);
      expect(new Set(finals.map((f) => `${f.shipmentId}/${f.awb}`)).size, key).toBe(1);
      expect(
        finals.filter((f) => !f.replayed),
        key,
      ).toHaveLength(1);
    }
    expect(unkeyedAnswers.filter((a) => a.status !== 200)).toEqual([]);
    const shipments = new Set([
      ...keyedAnswers.map((a) => a.answers.at(-1)!.shipmentId),
      ...unkeyedAnswers.map((a) => a.shipmentId),
    ]);
    expect(shipments.size).toBe(2 * KEYS);
    expect(await shipmentTotal(cluster.url, merchant)).toBe(2 * KEYS);

    // The one port's connections went to both processes.
    const bookingsBy = (pid: number) =>
      logLines(cluster.logFile).filter((line) => line.msg === 'request' && line.url === ORCHESTRATE && line.pid === pid)
        .length;
    const split = cluster.workerPids.map(bookingsBy);
    console.log(
      `${KEYS * COPIES + KEYS} booking requests (plus retries of 409s): ${split.join(' and ')} answered by each process`,
    );
    for (const count of split) expect(count).toBeGreaterThan(0);

    // Every event of those bookings reaches the receiver once, sent by the two processes.
    const count = 2 * 2 * KEYS;
    const events = await eventsListed(cluster.url, merchant, count);
    await allDelivered(cluster.url, merchant, receiver, count);
    expect(receiver.received).toHaveLength(count);
    expectEveryEventSigned(receiver, events, merchant.endpoint.secret);
    await expectDeliveredOnce(cluster.url, merchant, events);
    // One process of the cluster runs the workers (the first slot's), so it sent every one.
    const sentBy = cluster.workerPids.map((pid) => receiver.received.filter((r) => r.sender === pid).length);
    console.log(`${count} events, ${sentBy.join(' and ')} sent by each process`);
    expect([...sentBy].sort((a, b) => a - b)).toEqual([0, count]);
    workersPid = cluster.workerPids[sentBy.indexOf(count)];
  });

  it("a suspended member's panel session and API key end in both processes within the credential cache's second", {
    timeout: 120_000,
  }, async () => {
    const merchant = await createMerchant(cluster.url, receiver);
    const invited = await call(cluster.url, 'POST', `${V1}/members`, merchant.apiKey, {
      email: 'ravi@cluster.example',
      role: 'admin',
    });
    expect(invited.status, JSON.stringify(invited.json)).toBe(201);
    const joined = await fetch(`${cluster.url}/panel/v1/invitation/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: invited.json.invitation.accept_url.split('#')[1],
        name: 'Ravi',
        password: 'ravi password 1',
      }),
    });
    expect(joined.status).toBe(200);
    const cookie = joined.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf_token: csrf } = (await joined.json()) as { csrf_token: string };
    const madeKey = await fetch(`${cluster.url}${V1}/api-keys`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json', origin: cluster.url },
      body: JSON.stringify({ name: "Ravi's script" }),
    });
    expect(madeKey.status, await madeKey.clone().text()).toBe(201);
    const memberKey = ((await madeKey.json()) as { data: { api_key: string } }).data.api_key;

    // Each credential sent on fresh connections to a path only this case asks, until both
    // processes have answered it (the primary hands a connection to whichever process is free, so
    // a run of short ones may all go to one): both credential caches then hold the member.
    const answeredBy = (pincode: string) =>
      new Set(
        logLines(cluster.logFile)
          .filter((line) => line.msg === 'request' && line.url === `${V1}/pincodes/${pincode}`)
          .map((line) => line.pid),
      );
    const ask = async (pincode: string) => {
      const statuses: number[] = [];
      while (answeredBy(pincode).size < cluster.workerPids.length)
        for (const headers of [{ authorization: memberKey }, { cookie }] as Record<string, string>[]) {
          const response = await fetch(`${cluster.url}${V1}/pincodes/${pincode}`, {
            headers: { ...headers, connection: 'close' },
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      return statuses;
    };
    expect(new Set(await ask('110001'))).toEqual(new Set([200]));
    expect(answeredBy('110001')).toEqual(new Set(cluster.workerPids));

    const suspended = await call(cluster.url, 'POST', `${V1}/members/${invited.json.data.id}/suspend`, merchant.apiKey);
    expect(suspended.status, JSON.stringify(suspended.json)).toBe(200);
    // A credential a process checked just before the suspension is trusted at most this long.
    await new Promise((resolve) => setTimeout(resolve, CREDENTIAL_CACHE_TTL_MS + 100));
    expect(new Set(await ask('110002'))).toEqual(new Set([401]));
    expect(answeredBy('110002')).toEqual(new Set(cluster.workerPids));
  });

  it('the process running the workers, killed by SIGKILL mid-load, is replaced and logged; every booking is booked once and every event delivered, by the replacement', {
    timeout: 180_000,
  }, async () => {
    const merchant = await createMerchant(cluster.url, crashReceiver);
    // The one sending: its replacement must take its workers over for the events to arrive.
    const victim = workersPid!;
    const survivor = cluster.workerPids.find((pid) => pid !== victim)!;
    let answered = 0;
    let killedAt = 0;
    const bookings = Array.from({ length: CRASH_BOOKINGS }, (_, i) => ({
      key: `crash-key-${i}`,
      body: orderBody(merchant.warehouseId, { order_id: `CLUSTER-C${i}` }),
    }));
    const results = await Promise.all(
      bookings.map(({ key, body }) =>
        bookUntilAnswered(cluster.url, merchant, body, key).then((answers) => {
          if (++answered === KILL_AFTER) {
            killedAt = Date.now();
            process.kill(victim, 'SIGKILL');
          }
          return { key, answers };
        }),
      ),
    );
    expect(killedAt).toBeGreaterThan(0);
    const lostConnections = results.reduce((n, r) => n + r.answers.filter((a) => a.status === 0).length, 0);

    // Replaced: the primary logs the death and the new process, which serves beside the survivor.
    let replacement: number | undefined;
    await until(
      () => {
        replacement = logLines(cluster.logFile).find(
          (line) => line.pid === cluster.serverPid && line.replaced === victim,
        )?.serverPid;
        return replacement !== undefined;
      },
      'the killed process replaced',
      120_000,
    );
    serving = [survivor, replacement!];
    const primarySaid = logLines(cluster.logFile)
      .filter((line) => line.pid === cluster.serverPid)
      .map((line) => line.msg);
    expect(primarySaid).toContain(`server process ${victim} exited (signal SIGKILL); starting another in 0.5 s`);
    expect(primarySaid).toContain(`server process ${replacement} is serving in place of ${victim}`);
    expect(isAlive(victim)).toBe(false);
    expect(isAlive(survivor)).toBe(true);
    expect(isAlive(replacement!)).toBe(true);

    // Each key one booking, answered alike however often it was retried.
    for (const { key, answers } of results) {
      const final = answers.at(-1)!;
      expect(final.status, key).toBe(200);
      const earlier = answers.filter((a) => a.status === 200);
      expect(new Set(earlier.map((a) => `${a.shipmentId}/${a.awb}`)).size, key).toBe(1);
    }
    expect(new Set(results.map((r) => r.answers.at(-1)!.shipmentId)).size).toBe(CRASH_BOOKINGS);
    expect(await shipmentTotal(cluster.url, merchant)).toBe(CRASH_BOOKINGS);

    // Every event arrives; one sent twice only if its first send was in flight when its sender was killed.
    const count = 2 * CRASH_BOOKINGS;
    const events = await eventsListed(cluster.url, merchant, count);
    await allDelivered(cluster.url, merchant, crashReceiver, count, 120_000);
    expectEveryEventSigned(crashReceiver, events, merchant.endpoint.secret);
    await expectDeliveredOnce(cluster.url, merchant, events);
    const firstAt = new Map<string, number>();
    const again: { id: string; first: number }[] = [];
    for (const r of crashReceiver.received) {
      const id = String(r.headers['webhook-id']);
      const first = firstAt.get(id);
      if (first === undefined) firstAt.set(id, r.at);
      else again.push({ id, first });
    }
    expect(again.filter((a) => a.first > killedAt + 1000)).toEqual([]);
    expect(receivedIds(crashReceiver).size).toBe(count);
    // Only the killed process and then its replacement ran the workers: the survivor sent none.
    expect(crashReceiver.received.filter((r) => r.sender === survivor)).toEqual([]);
    console.log(
      `crash: ${CRASH_BOOKINGS} keyed bookings, ${lostConnections} requests lost with the killed process and retried; ` +
        `${count} events, ${again.length} sent again after the kill; replacement serving ${((Date.now() - killedAt) / 1000).toFixed(1)} s after it at the latest`,
    );
  });

  it('SIGTERM to the pid npm start was given stops every server process gracefully, exit code 0', {
    timeout: 120_000,
  }, async () => {
    const stopped = await cluster.stop(60_000);
    expect(stopped).toEqual({ serverExited: true, exitCode: 0 });
    for (const pid of serving) expect(isAlive(pid)).toBe(false);
    const lines = logLines(cluster.logFile);
    const stoppedBy = lines
      .filter((line) => line.msg === 'stopping: no new connections, finishing requests in flight')
      .map((line) => line.pid);
    expect(stoppedBy.sort()).toEqual([...serving].sort());
    expect(lines.filter((line) => line.pid === cluster.serverPid).map((line) => line.msg)).toEqual(
      expect.arrayContaining([`stopping ${PROCESSES} server processes gracefully`, 'every server process has stopped']),
    );
  });
});

it('refuses WEB_CONCURRENCY=2 on the embedded database: one line naming DATABASE_URL, exit code 1, nothing opened', {
  timeout: 120_000,
}, async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-cluster-pglite-'));
  cleanups.push(async () => fs.rmSync(parent, { recursive: true, force: true }));
  const dataDir = path.join(parent, 'data');
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, WEB_CONCURRENCY: '2', DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(output.split('\n').filter((line) => line.startsWith('dakiya:'))).toEqual([
    'dakiya: WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded database (PGlite) is opened by one process only; set DATABASE_URL to a PostgreSQL server or WEB_CONCURRENCY to 1',
  ]);
  expect(output).not.toContain('"msg"');
  expect(fs.existsSync(dataDir)).toBe(false);
});
