import fs from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly } from './databases.js';
import { type NpmProcess, type ServerProcess, startServerProcess, startWorkerProcess } from './server-process.js';
import {
  allDelivered,
  book,
  createMerchant,
  eventsListed,
  expectDeliveredOnce,
  expectEveryEventSigned,
  listDeliveries,
  processEnv,
  socketOwner,
} from './webhook-processes.js';
import { type Receiver, startReceiver, until } from './webhook-receiver.js';

/**
 * Issue 13's claims about processes, with real ones on PostgreSQL, each case on a database of its
 * own: API processes started as `npm start` starts them share the delivery queue and send each
 * event once; an API process with WEBHOOK_WORKER=false sends nothing, `npm run worker` delivers for
 * it and stops cleanly on SIGTERM; an API process killed mid-send loses nothing. PostgreSQL only
 * (`*.postgres.test.ts` runs in the postgres project alone): on the embedded database one process
 * holds the data directory, so there is nothing to share.
 * The cases run at once, so that the crash case's wait for its leases overlaps the others.
 */

/** Per API process of the shared database; two events each. */
const SHARED_BOOKINGS = 15;
const ALONE_BOOKINGS = 10;
/** Orders booked in the crash case before the first send is held; then more, just before the kill. */
const EARLY_BOOKINGS = 5;
const LATE_BOOKINGS = 5;
/** A held send is in flight this long at most (then it times out and is recorded): the default. */
const SEND_TIMEOUT_MS = 10_000;
/**
 * The crash case's process holds its sends longer: the kill must come while they are in flight,
 * after five more bookings, and on a starved machine those took longer than the default. Its leases
 * last as long, so the restarted process waits about this long to send the held ones again.
 */
const CRASH_SEND_TIMEOUT_MS = 30_000;

const cleanups: (() => Promise<unknown>)[] = [];
const processes: NpmProcess[] = [];
/** Which of the processes started here sent a request. */
const senderOf = (socket: Socket) => socketOwner(socket, () => processes.map((p) => p.serverPid));

/** Waits for a process to start; it is then stopped in afterAll whatever happens. */
async function run<P extends NpmProcess>(starting: Promise<P>): Promise<P> {
  const started = await starting;
  cleanups.push(() => started.stop(15_000));
  processes.push(started);
  return started;
}

interface Case {
  databaseUrl: string;
  receiver: Receiver;
  servers: ServerProcess[];
}
/** Two API processes (delivering, the default) on one database. */
let shared: Case;
/** An API process with WEBHOOK_WORKER=false, where workers run apart. */
let alone: Case;
/** An API process to kill, its receiver holding every send until then. */
let crashing: Case;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
});

describePostgresOnly('webhook delivery by real processes on PostgreSQL', { concurrent: true }, () => {
  beforeAll(async () => {
    const databases = await Promise.all(['hooks', 'hookw', 'hookc'].map(createEmptyDatabase));
    cleanups.push(...databases.map((d) => d.drop));
    const [sharedUrl, aloneUrl, crashUrl] = databases.map((d) => d.url) as [string, string, string];
    const receivers = await Promise.all([
      startReceiver([], 200, senderOf),
      startReceiver([], 200, senderOf),
      startReceiver([], 'hang', senderOf),
    ]);
    for (const receiver of receivers) cleanups.push(() => receiver.close());
    // In parallel: most of this file's time is servers starting on a loaded machine.
    const starting = await Promise.allSettled([
      run(startServerProcess({ env: processEnv(sharedUrl) })),
      run(startServerProcess({ env: processEnv(sharedUrl) })),
      run(startServerProcess({ env: processEnv(aloneUrl, { WEBHOOK_WORKER: 'false' }) })),
      run(startServerProcess({ env: processEnv(crashUrl, { WEBHOOK_TIMEOUT_MS: String(CRASH_SEND_TIMEOUT_MS) }) })),
    ]);
    const failed = starting.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [a, b, api, doomed] = starting.map(
      (s) => (s as PromiseFulfilledResult<ServerProcess>).value,
    ) as ServerProcess[];
    shared = { databaseUrl: sharedUrl, receiver: receivers[0]!, servers: [a!, b!] };
    alone = { databaseUrl: aloneUrl, receiver: receivers[1]!, servers: [api!] };
    crashing = { databaseUrl: crashUrl, receiver: receivers[2]!, servers: [doomed!] };
  });

  it('two API processes share the queue: every event is delivered once, signed, by one of them', async () => {
    const { servers, receiver } = shared;
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const merchant = await createMerchant(a.url, receiver);
    await Promise.all([book(a.url, merchant, SHARED_BOOKINGS), book(b.url, merchant, SHARED_BOOKINGS)]);
    const count = 4 * SHARED_BOOKINGS;
    const events = await eventsListed(b.url, merchant, count);
    await allDelivered(a.url, merchant, receiver, count);

    // Once each: a second send of a delivery would have happened by the time both recorded it.
    expect(receiver.received).toHaveLength(count);
    expectEveryEventSigned(receiver, events, merchant.endpoint.secret);
    await expectDeliveredOnce(b.url, merchant, events);
    const sentBy = (pid: number) => receiver.received.filter((r) => r.sender === pid).length;
    console.log(
      `two API processes: ${count} events, ${sentBy(a.serverPid)} sent by one, ${sentBy(b.serverPid)} by the other`,
    );
    // Not "some by each": one endpoint's burst may go to whichever process leases its lane first
    // (a lane leases up to 32 of its due deliveries; decision 57). Once each, by these two, is the rule.
    expect(sentBy(a.serverPid) + sentBy(b.serverPid)).toBe(count);
    // They send from their delivery threads (decision 105), one each; the process that leaves the
    // sending to npm run worker starts none.
    const threadLines = (server: ServerProcess) =>
      fs
        .readFileSync(server.logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"thread":"delivery"') && line.includes('delivery thread is sending'))
        .map((line) => JSON.parse(line) as { pid: number; level: number });
    for (const server of [a, b])
      expect(threadLines(server)).toEqual([expect.objectContaining({ pid: server.serverPid, level: 30 })]);
    expect(threadLines(alone.servers[0]!)).toEqual([]);
  });

  it('with WEBHOOK_WORKER=false nothing is sent until npm run worker runs; it sends each event once and stops on SIGTERM', async () => {
    const { receiver, databaseUrl } = alone;
    const api = alone.servers[0]!;
    const merchant = await createMerchant(api.url, receiver);
    await book(api.url, merchant, ALONE_BOOKINGS);
    const count = 2 * ALONE_BOOKINGS;
    const events = await eventsListed(api.url, merchant, count);
    // Two seconds are two polls of a delivering process: had this one delivered, something would show.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toEqual([]);
    expect(await listDeliveries(api.url, merchant)).toEqual([]);

    const worker = await run(startWorkerProcess({ env: processEnv(databaseUrl) }));
    await allDelivered(api.url, merchant, receiver, count);
    expect(receiver.received).toHaveLength(count);
    expectEveryEventSigned(receiver, events, merchant.endpoint.secret);
    await expectDeliveredOnce(api.url, merchant, events);
    expect(receiver.received.filter((r) => r.sender !== worker.serverPid)).toEqual([]);

    // SIGTERM while a send is in flight (the receiver holds it): the worker ends its round, aborting
    // that send and recording nothing for it, so its lease runs out and a worker sends it again.
    receiver.answer('hang');
    await book(api.url, merchant, 1);
    await until(() => receiver.received.length === count + 2, 'the next booking sent, one send held');
    await until(
      async () =>
        (await listDeliveries(api.url, merchant)).filter((d) => d.status === 'succeeded').length === count + 1,
      'the other recorded',
    );
    const signalled = Date.now();
    expect(await worker.stop(20_000)).toEqual({ serverExited: true, exitCode: 0 });
    const exited = Date.now();
    const heldSend = receiver.received[count]!;
    // Aborted, not waited for: the worker let go of the held send between the signal and its exit,
    // and recorded no attempt of it. A send its own time-out had ended would be a failed attempt on
    // record; that, not a deadline on this machine's clock, tells the abort from the time-out.
    expect(heldSend.closedAt).toBeGreaterThanOrEqual(signalled);
    expect(heldSend.closedAt).toBeLessThanOrEqual(exited);
    const [held] = (await listDeliveries(api.url, merchant)).filter((d) => d.status !== 'succeeded');
    expect(held).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    expect(held!.event_id).toBe(heldSend.headers['webhook-id']);
    console.log(
      `worker stopped ${exited - signalled} ms after SIGTERM (the held send's own time-out: ${SEND_TIMEOUT_MS} ms)`,
    );
  });

  it('an API process killed mid-send loses nothing: restarted, it sends every event, the held ones again with the same webhook-id', async () => {
    const { receiver, databaseUrl } = crashing;
    const first = crashing.servers[0]!;
    const merchant = await createMerchant(first.url, receiver);
    await book(first.url, merchant, EARLY_BOOKINGS);
    await until(() => receiver.received.length > 0, 'a send held');
    // Killed at once after these answers: their events may be committed and not fanned out yet,
    // or fanned out and not sent yet.
    await book(first.url, merchant, LATE_BOOKINGS);
    const killedAt = Date.now();
    first.signal('SIGKILL');
    await first.stop();
    receiver.fallBackTo(200);
    // Still in flight when killed: a send that times out closes its request, and none had before
    // the kill, so none had an attempt recorded.
    expect(receiver.received.filter((r) => r.closedAt !== undefined && r.closedAt < killedAt)).toEqual([]);

    const second = await run(startServerProcess({ env: processEnv(databaseUrl) }));
    const count = 2 * (EARLY_BOOKINGS + LATE_BOOKINGS);
    const events = await eventsListed(second.url, merchant, count);
    await allDelivered(second.url, merchant, receiver, count, 120_000);

    expectEveryEventSigned(receiver, events, merchant.endpoint.secret);
    // Told apart by who sent them, not by when they arrived: a send the killed process began just
    // before the signal can reach the receiver seconds later on a loaded machine (answered then,
    // but recorded by no one). The restarted process sent every event once, the held ones again
    // with the same webhook-id; every other request was the killed process's (its pid, or none
    // once it had gone).
    const again = receiver.received.filter((r) => r.sender === second.serverPid);
    const held = receiver.received.filter((r) => r.sender !== second.serverPid);
    expect(held.filter((r) => r.sender !== undefined && r.sender !== first.serverPid)).toEqual([]);
    expect(again.map((r) => String(r.headers['webhook-id'])).sort()).toEqual(events.map((e) => e.id).sort());
    await expectDeliveredOnce(second.url, merchant, events);
    console.log(
      `crash mid-send: ${count} events, ${held.length} held at the kill and sent again, ` +
        `all delivered ${((Date.now() - killedAt) / 1000).toFixed(1)} s after it (second process serving after ${(second.startupMs / 1000).toFixed(1)} s)`,
    );
  });
});
