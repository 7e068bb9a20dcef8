import type { Db } from '../../base/db/client.js';
import { findEventsByIds, type StoredEvent } from '../../events/events.repository.js';
import { pumpConsumer } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import { PinnedAgents } from '../../base/outbound/outbound-request.js';
import type { OutboundRules } from '../../base/outbound/outbound-url.js';
import { attemptDelivery, deliveryMessage, type Message } from './send.js';
import { FAN_OUT_BATCH, fanOutPace, webhookFanOut } from './fan-out.js';
import { type Candidate, SendSlots } from './send-slots.js';
import { attemptRecorder } from './attempt-records.js';
import * as repo from './webhooks.repository.js';
import type { SendLimits } from './webhooks.settings.js';

export interface DeliverySettings extends OutboundRules {
  /** Seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** A 2xx must come within this; 10 s. */
  timeoutMs: number;
  /** WORKER_LEASE_MARGIN_MS: a lease outlasts the longest send by this much. */
  leaseMarginMs: number;
  /** Sends at once, in all, per account and per endpoint (WEBHOOK_CONCURRENCY…). */
  concurrency: SendLimits;
  /** How long after its lease a queued delivery may still be sent (webhooks.settings.ts). */
  laneWindowMs: number;
}

/**
 * A round that has no new deliveries to choose from reads the due ones (retries, a test event or a
 * redelivery written by a request, another process's fan-out) at most this often: under load a
 * round comes every few milliseconds, one for nearly every booking's events.
 */
const PICK_SPACING_MS = 100;
/** How many due deliveries a round looks at to choose from; a full account's are left out of it. */
const CANDIDATES = 200;
/** Reads of due deliveries in one round: each leaves out the accounts and endpoints the last filled. */
const MAX_PICKS = 8;
/**
 * How long a round waits for a send to free its slot before letting the worker's other tasks
 * (fan-out, e-mails) have their turn; the slot is refilled by a later round.
 */
const SLOT_WAIT_MS = 200;
/** How long one run of the delivery task keeps filling the slots sends free before the other tasks have their turn. */
const DELIVERY_BUDGET_MS = 250;
/**
 * Deliveries of one endpoint a lane leases at once and sends back to back: a pick (three or four
 * statements) then serves dozens of sends rather than one or two.
 */
const LANE_BATCH = 32;

/**
 * The webhook worker's two tasks: fan events out into deliveries, and send the deliveries that are
 * due. Delivery times are real time (retries wait on the network, not on the API's clock).
 */
export function webhookTasks(
  db: Db,
  settings: DeliverySettings,
  // A send runs past its round, so its failure cannot reach the worker's own error handler.
  onSendError: (error: unknown) => void,
  now: () => Date = () => new Date(),
  // The fan-out too runs past its round.
  onFanOutError: (error: unknown) => void = onSendError,
): WorkerTask[] {
  // A lease outlasts the longest exchange, so a live worker never loses its delivery to another.
  const leaseMs = settings.timeoutMs + settings.leaseMarginMs;
  const inFlight = new Set<Promise<void>>();
  const slots = new SendSlots(settings.concurrency);
  // Each endpoint's leased deliveries waiting for one of its lanes, oldest due first.
  const queues = new Map<string, { delivery: repo.QueuedDelivery; event: StoredEvent; sendBy: number }[]>();
  // Lanes sending per endpoint, and the endpoint as the latest of them read it (for lanes started
  // later to send what is queued): the last one to end hands back its queue's leases.
  const running = new Map<string, { lanes: number; endpoint: repo.EndpointRow }>();
  // Ends a round's wait for a slot: a send ended, or an event was recorded (wake).
  let interrupt: (() => void) | undefined;
  let ended = 0;
  const agents = new PinnedAgents();
  const { record, recordSuccess, recordUnsendable, flushed } = attemptRecorder(
    db,
    settings.retryDelaysSeconds,
    now,
    onSendError,
  );
  // Set by wake(): events were recorded, and the fan-out should have its turn.
  let woken = false;
  // A round reads the due deliveries (a statement) at once when the fan-out wrote some or a send
  // ended (its slot, and its endpoint's queue, free), else PICK_SPACING_MS after its last read.
  // Events no endpoint subscribes to write none: under load nearly every booking's events woke a
  // round, and each round read.
  let deliveriesWritten = true;
  let endedAtLastPick = -1;
  let lastPickAt = Number.NEGATIVE_INFINITY;
  const pickWanted = () =>
    deliveriesWritten || ended !== endedAtLastPick || performance.now() - lastPickAt >= PICK_SPACING_MS;
  // The fan-out in progress, and whether events came in while it ran.
  let fanningOut: Promise<void> | undefined;
  let fanOutAgain = false;
  let fanOutFailed = false;
  const pace = fanOutPace();
  // What the fan-out's transaction wrote, kept until it commits.
  let handedOver: { deliveries: repo.QueuedDelivery[]; events: StoredEvent[] } | undefined;
  const fanOut = webhookFanOut((deliveries, events) => {
    handedOver = { deliveries, events };
  });

  // Choosing runs one at a time: the fan-out hands its new deliveries over beside the delivery
  // task's picks, and two choosing from the same free slots at once would overfill them.
  let choosing: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = choosing.then(work, work);
    choosing = run.catch(() => {});
    return run;
  }

  /**
   * Chooses among `candidates` (oldest due first) as many as there are free slots, leases each
   * chosen one and, behind it, more of its endpoint's (up to LANE_BATCH a lane; and, for an endpoint
   * running all the lanes it may, as many as its lanes have room for), and starts a lane per chosen one. `known` holds events already read (the fan-out's). Answers how many
   * it chose and how many of those it leased.
   */
  function chooseAndStart(
    candidates: readonly Candidate[],
    signal: AbortSignal,
    at: Date,
    known?: ReadonlyMap<string, StoredEvent>,
  ) {
    return oneAtATime(async (): Promise<{ chosen: number; leased: number }> => {
      if (signal.aborted) return { chosen: 0, leased: 0 };
      const chosen = slots.pick(candidates);
      const lanes = new Map<string, number>();
      for (const c of chosen) lanes.set(c.endpointId, (lanes.get(c.endpointId) ?? 0) + 1);
      const room = new Map([...lanes].map(([endpointId, count]) => [endpointId, count * (LANE_BATCH - 1)]));
      // Behind an endpoint's lanes only when it has all the lanes it may: with a slot to spare, a lane
      // of their own sends them, rather than the one of its lanes that may be waiting on a slow answer.
      for (const [endpointId, { lanes: count }] of running) {
        if (count < slots.limits.perEndpoint) continue;
        const spare = count * LANE_BATCH - (queues.get(endpointId)?.length ?? 0);
        if (spare > 0) room.set(endpointId, (room.get(endpointId) ?? 0) + spare);
      }
      const heads = new Set(chosen.map((c) => c.id));
      const ids: string[] = [];
      // Candidates come oldest due first, and each endpoint's chosen ones are its oldest: the batch keeps their order.
      for (const c of candidates) {
        const left = room.get(c.endpointId) ?? 0;
        if (heads.has(c.id)) ids.push(c.id);
        else if (left > 0) {
          room.set(c.endpointId, left - 1);
          ids.push(c.id);
        }
      }
      if (ids.length === 0) return { chosen: 0, leased: 0 };
      const leaseUntil = at.getTime() + leaseMs;
      const leased = await repo.lease(db, ids, at, new Date(leaseUntil));
      if (leased.length === 0) return { chosen: chosen.length, leased: 0 };
      const byId = new Map(leased.map((d) => [d.id, d]));
      const endpoints = new Map(
        lanes.size === 0 ? [] : (await repo.findEndpointsByIds(db, [...lanes.keys()])).map((e) => [e.id, e]),
      );
      const unknown = [...new Set(leased.filter((d) => !known?.has(d.eventId)).map((d) => d.eventId))];
      const events = new Map(known);
      for (const event of await findEventsByIds(db, unknown)) events.set(event.id, event);
      // A queued delivery is sent only while its lease outlasts the longest exchange, and soon after
      // it was queued (not after `at`: on a starved machine these statements alone take seconds).
      const sendBy = Math.min(leaseUntil - settings.timeoutMs, now().getTime() + settings.laneWindowMs);
      const queuedTo = new Set<string>();
      for (const id of ids) {
        const delivery = byId.get(id);
        if (!delivery) continue;
        const queue = queues.get(delivery.endpointId) ?? queues.set(delivery.endpointId, []).get(delivery.endpointId)!;
        queue.push({ delivery, event: events.get(delivery.eventId)!, sendBy });
        queuedTo.add(delivery.endpointId);
      }
      for (const [endpointId, count] of lanes) {
        const endpoint = endpoints.get(endpointId);
        const queued = queues.get(endpointId)?.length ?? 0;
        if (!endpoint) continue;
        for (let i = 0; i < Math.min(count, queued); i++) runLane(endpoint, signal);
      }
      // Queued behind an endpoint's running lanes, whose number may have fallen below its share while
      // this leased: lanes of their own in the slots that freed, rather than a wait behind lanes that
      // may be waiting on a slow answer.
      for (const endpointId of queuedTo) {
        if (lanes.has(endpointId)) continue;
        const endpoint = running.get(endpointId)?.endpoint;
        const queue = queues.get(endpointId) ?? [];
        if (endpoint) for (const _ of slots.pick(queue.map((q) => q.delivery))) runLane(endpoint, signal);
      }
      // Queued behind lanes that ended while this leased (or whose endpoint is gone): due again at once.
      const orphans = [...queuedTo].filter((endpointId) => !running.has(endpointId));
      const orphaned = orphans.flatMap((endpointId) => (queues.get(endpointId) ?? []).map((q) => q.delivery.id));
      for (const endpointId of orphans) queues.delete(endpointId);
      if (orphaned.length > 0) await handBack(orphaned);
      return { chosen: chosen.length, leased: chosen.filter((c) => byId.has(c.id)).length };
    });
  }

  /** Gives leased deliveries back, due at once, and ends a wait for a slot so that they are chosen again. */
  async function handBack(ids: string[]): Promise<void> {
    await repo.releaseLeases(db, ids).catch(onSendError);
    interrupt?.();
  }

  /**
   * One slot's worth of sending: the endpoint's queued deliveries one after another over its kept
   * connection, until the queue is empty, an answer needs the endpoint's lock to be recorded (a
   * failure, with its retry, or a success that clears failures) or the leases are too near their
   * end for another exchange. The last lane of an endpoint to end hands back what is left of its
   * queue, so that it is due again at once, with the endpoint read afresh.
   */
  function runLane(endpoint: repo.EndpointRow, signal: AbortSignal) {
    const slot = { id: endpoint.id, accountId: endpoint.accountId, endpointId: endpoint.id };
    slots.take(slot);
    running.set(endpoint.id, { lanes: (running.get(endpoint.id)?.lanes ?? 0) + 1, endpoint });
    const healthy = endpoint.status === 'enabled' && endpoint.failedEvents === 0 && !endpoint.failingSince;
    const lane = (async () => {
      const queue = queues.get(endpoint.id)!;
      // A lane's first send goes whatever the clock says, as every send did before lanes: a lane
      // that gave back its first delivery too could give back every batch on a starved machine.
      let first = true;
      for (let next = queue.shift(); next; next = queue.shift(), first = false) {
        if (signal.aborted) {
          queue.unshift(next);
          return;
        }
        if (!first && now().getTime() > next.sendBy) {
          // Too late for this lane: it and the others queued past their time go back at once, due
          // for any free slot, rather than wait for the last of the endpoint's lanes to end.
          const at = now().getTime();
          const late = new Set([next, ...queue.filter((q) => at > q.sendBy)]);
          queue.splice(0, queue.length, ...queue.filter((q) => !late.has(q)));
          await handBack([...late].map((q) => q.delivery.id));
          return;
        }
        const { delivery } = next;
        let message: Message;
        try {
          message = deliveryMessage(endpoint, next.event);
        } catch (error) {
          await recordUnsendable(delivery, endpoint, (error as Error).message);
          continue;
        }
        const result = await attemptDelivery(endpoint.url, message, now(), {
          rules: settings,
          timeoutMs: settings.timeoutMs,
          signal,
          userAgent: 'Dakiya-Webhooks/1.0',
          agents,
        });
        // Stopped mid-send: record nothing; the lease runs out and the delivery is sent again.
        if (signal.aborted) return;
        if (result.error === null && healthy) {
          recordSuccess(delivery, endpoint, result).catch(onSendError);
          continue;
        }
        await record(delivery, endpoint, result);
        return;
      }
    })()
      .catch((error: unknown) => onSendError(error))
      .finally(async () => {
        slots.release(slot);
        const left = (running.get(endpoint.id)?.lanes ?? 1) - 1;
        if (left > 0) running.get(endpoint.id)!.lanes = left;
        else running.delete(endpoint.id);
        ended++;
        interrupt?.();
        if (left > 0) return;
        const rest = queues.get(endpoint.id) ?? [];
        queues.delete(endpoint.id);
        if (rest.length > 0) await handBack(rest.map((q) => q.delivery.id));
      })
      .finally(() => inFlight.delete(lane));
    inFlight.add(lane);
  }

  return [
    {
      name: 'webhook fan-out',
      // It waits for a record, unless its last fan-out failed: then it tries again at every poll.
      get afterWrites() {
        return !fanOutFailed;
      },
      // The fan-out runs beside the sends rather than in turn with them: the worker's round would
      // otherwise hold each pick of the next deliveries behind a fan-out transaction (five
      // statements, each queued behind the API's under load), and each fan-out behind a pick.
      async run(signal, wake) {
        if (fanningOut) {
          fanOutAgain = true;
          return false;
        }
        fanOutFailed = false;
        fanningOut = (async () => {
          do {
            await pace.wait();
            if (signal.aborted) return;
            fanOutAgain = false;
            handedOver = undefined;
            const handled = await pumpConsumer(db, fanOut, now(), FAN_OUT_BATCH);
            // Committed: the new deliveries go to free slots (and running lanes) now, rather than
            // after the delivery task's next pick reads them back (issue 27).
            const written = handedOver as { deliveries: repo.QueuedDelivery[]; events: StoredEvent[] } | undefined;
            handedOver = undefined;
            if (written && written.deliveries.length > 0) {
              await chooseAndStart(written.deliveries, signal, now(), new Map(written.events.map((e) => [e.id, e])));
            }
            if (written && written.deliveries.length > 0) {
              // New deliveries: a round to pick them, and an end to a wait for a free slot.
              deliveriesWritten = true;
              wake?.();
              interrupt?.();
            }
            if (pace.ended(handled)) fanOutAgain = true;
          } while (fanOutAgain && !signal.aborted);
        })()
          .catch((error: unknown) => {
            fanOutFailed = true;
            if (!signal.aborted) onFanOutError(error);
          })
          .finally(() => {
            fanningOut = undefined;
            // A round that came between the loop's last look and here only asked for another.
            if (fanOutAgain && !signal.aborted) wake?.();
          });
        return false;
      },
      settled: () => fanningOut ?? Promise.resolve(),
    },
    {
      name: 'webhook deliveries',
      /**
       * Sends run in a pool of slots shared fairly between accounts and endpoints (send-slots.ts):
       * a round reads the due deliveries, leaving out those whose account or endpoint has no room,
       * chooses as many as there are free slots and starts a lane in each, leasing the chosen
       * delivery and the ones due after it to the same endpoint (decision 57). A delivery waiting
       * for its account's room is never leased, so it loses no lease time and no attempt. No lane
       * waits for another, so a receiver that holds its requests until the timeout delays only
       * its own account's deliveries, within that account's share.
       */
      async run(signal) {
        // Slots freed by sends that ended are filled again within this run, for up to
        // DELIVERY_BUDGET_MS, rather than after a whole round of every task (fan-out, e-mails):
        // under load a round costs many statements, each queued behind the API's. New events
        // (wake) end the run, so the fan-out turns them into deliveries.
        const started = performance.now();
        woken = false;
        if (!pickWanted()) return false;
        for (;;) {
          const freeAtStart = slots.free;
          const endedAtStart = ended;
          deliveriesWritten = false;
          endedAtLastPick = ended;
          lastPickAt = performance.now();
          for (let pick = 0; pick < MAX_PICKS && slots.free > 0; pick++) {
            const at = now();
            const candidates = await repo.dueCandidates(db, at, slots.full(), CANDIDATES);
            const { chosen, leased } = await chooseAndStart(candidates, signal, at);
            if (chosen === 0) break;
            // Every due delivery was seen and each one left has no room: nothing more to choose.
            if (candidates.length < CANDIDATES && leased === chosen) break;
          }
          const withinBudget = () => !woken && !signal.aborted && performance.now() - started < DELIVERY_BUDGET_MS;
          // A slot freed while this round chose, or while it waited, may be filled at once.
          if (ended !== endedAtStart) {
            if (withinBudget()) continue;
            return true;
          }
          if (inFlight.size === 0) return false;
          let interrupted = false;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, SLOT_WAIT_MS);
            interrupt = () => {
              interrupted = true;
              clearTimeout(timer);
              resolve();
            };
          });
          interrupt = undefined;
          if (!interrupted) return freeAtStart > 0 && slots.free === 0;
          if (!withinBudget()) return true;
        }
      },
      wake() {
        woken = true;
        interrupt?.();
      },
      async settled() {
        await Promise.all(inFlight);
        await flushed();
        agents.close();
      },
    },
  ];
}
