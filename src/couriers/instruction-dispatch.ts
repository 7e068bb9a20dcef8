import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import type { CourierService } from '../domain/rates/catalogue.js';
import type { EventLog } from '../events/event-log.js';
import { type Connector, isCourierRefusal } from './connector.js';
import * as repo from './instructions.repository.js';

/** Instructions handed to one courier per poller round, at most. */
const INSTRUCTIONS_PER_ROUND = 50;
/** How long a process holds an instruction it is handing over: past the longest call (COURIER_TIMEOUT_MS is at most 120 s). */
const INSTRUCTION_LEASE_MS = 5 * 60_000;
/** How long before a courier that queued an instruction is asked whether it carried it out, and asked again after. */
const CONFIRM_EVERY_MS = 5 * 60_000;

interface Logger {
  warn(object: object, message: string): void;
}

/** A courier's answer that is its own "no" (courier_refused, in its words), not a failure to reach it. */
const refusalOf = (error: unknown): string | undefined =>
  isCourierRefusal(error) ? (error.messages[0] ?? 'refused, no reason given') : undefined;

/**
 * Hands merchants' open NDR instructions to couriers that take them through their API, and follows
 * each to its outcome: taken and done, queued under the courier's reference and asked about until
 * it says done or refused, or refused at once. A refusal ends the instruction (never sent again),
 * and is shown to the merchant and recorded as `shipment.ndr_action_refused`; a courier that cannot
 * be reached leaves it open for the next round. Each is leased while it is sent or asked about, so
 * the pollers of several processes never hand a courier the same one twice.
 */
export function createInstructionDispatch({
  db,
  clock,
  services,
  connectorFor,
  events,
  log,
}: {
  db: Db;
  clock: Clock;
  /** The services whose connector takes instructions through an API (all but push). */
  services: readonly CourierService[];
  connectorFor(accountId: string, service: CourierService): Promise<Connector>;
  events?: EventLog;
  log?: Logger;
}) {
  async function refuse(service: CourierService, id: string, words: string) {
    await db.transaction(async (tx) => {
      const now = clock.now();
      const row = await repo.markRefused(tx, service.id, id, now, words);
      if (row && events)
        await events.shipment(
          tx,
          row.accountId,
          row.shipmentId,
          [{ type: 'shipment.ndr_action_refused', change: { action_id: id, courier: service.name, refusal: words } }],
          now,
        );
    });
  }

  async function send(service: CourierService): Promise<number> {
    let sent = 0;
    // Held to the end of the round, so that this round does not take them again at once.
    const failed: string[] = [];
    for (let taken = 0; taken < INSTRUCTIONS_PER_ROUND; taken++) {
      const now = clock.now();
      const action = await repo.leaseOpenForCarrier(
        db,
        service.id,
        now,
        new Date(now.getTime() + INSTRUCTION_LEASE_MS),
      );
      if (!action) break;
      // Without a waybill the courier cannot be told; it stays open, held for the lease.
      if (!action.awb) continue;
      let receipt: Awaited<ReturnType<Connector['instruct']>>;
      try {
        receipt = await (await connectorFor(action.accountId, service)).instruct(service, action.awb, {
          action: action.action === 'rto' ? 'rto' : 'reattempt',
          at: action.createdAt,
          payload: action.payload,
          attempt: action.attempt,
          ndrScanId: action.ndrScanId,
          consigneeName: action.consigneeName,
        });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal !== undefined) {
          await refuse(service, action.id, refusal);
          continue;
        }
        log?.warn(
          { carrierId: service.id, actionId: action.id, reason: (error as Error).message },
          'NDR instruction not delivered',
        );
        failed.push(action.id);
        continue;
      }
      const at = clock.now();
      await repo.markTaken(
        db,
        service.id,
        action.id,
        at,
        receipt?.pending ?? null,
        new Date(at.getTime() + CONFIRM_EVERY_MS),
      );
      sent += 1;
    }
    for (const id of failed) await repo.releaseLease(db, service.id, id);
    return sent;
  }

  /** Asks the courier about the instructions it queued; each asked at most once a round. */
  async function confirm(service: CourierService): Promise<void> {
    for (let asked = 0; asked < INSTRUCTIONS_PER_ROUND; asked++) {
      const now = clock.now();
      const queued = await repo.leaseUnconfirmed(db, service.id, now, new Date(now.getTime() + CONFIRM_EVERY_MS));
      if (!queued) return;
      let answer: Awaited<ReturnType<NonNullable<Connector['confirmInstruction']>>>;
      try {
        // With the credentials it was sent with: an account's own contract, or the server's.
        const connector = await connectorFor(queued.accountId, service);
        // A connector that queues nothing has nothing to confirm: it took the instruction as done.
        answer = connector.confirmInstruction ? await connector.confirmInstruction(service, queued.reference) : 'done';
      } catch (error) {
        // Asked again once the lease runs out.
        log?.warn(
          { carrierId: service.id, actionId: queued.id, reason: (error as Error).message },
          'NDR instruction not confirmed',
        );
        continue;
      }
      if (answer === 'done') await repo.markConfirmed(db, service.id, queued.id, clock.now());
      else if (answer !== 'pending') await refuse(service, queued.id, answer.refused);
    }
  }

  return {
    /** One round: open instructions out, then queued ones asked about. The number handed over. */
    async dispatch(): Promise<number> {
      let sent = 0;
      for (const service of services) {
        sent += await send(service);
        await confirm(service);
      }
      return sent;
    },
  };
}
