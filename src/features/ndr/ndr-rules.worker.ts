import type { Clock } from '../../base/clock.js';
import type { Db, Tx } from '../../base/db/client.js';
import { DomainError } from '../../domain/errors.js';
import { systemActor } from '../../domain/access/permissions.js';
import type { WorkingCalendar } from '../../domain/calendar.js';
import { matchRule, type NdrRule } from '../../domain/rto/ndr-automation.js';
import { reattemptDays } from '../../domain/shipment/ndr-rules.js';
import type { EventLog } from '../../events/event-log.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpConsumer, pumpTask } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import * as repo from './ndr-rules.repository.js';
import type { NdrService, RuleRef } from './ndr.service.js';

const CONSUMER = 'ndr-rules';
const CONSUME_BATCH = 200;
const RUN_BATCH = 20;
/** A run's lease: far above the few statements one takes, so only a dead process's lease runs out. */
const LEASE_MS = 60_000;
const HOUR_MS = 3_600_000;

type Outcome = { status: 'done' | 'refused' | 'skipped'; reason: string | null; actionId: string | null };

/**
 * The account's NDR rules at work (docs/rto.md: NDR rules). An outbox consumer reads each
 * shipment.ndr_raised and plans what the first matching rule does (a row of ndr_rule_runs, in the
 * cursor's transaction); a second task carries out due runs through the NDR service, the same path
 * and limits as a merchant's request, and records shipment.ndr_action_taken with the rule. A
 * message_buyer rule records shipment.ndr_buyer_message_requested for the messaging channels and,
 * with rto_after_hours, plans an rto_fallback that initiates the RTO when the buyer has not answered.
 */
export function createNdrRules({
  db,
  clock,
  calendar,
  events,
  ndr,
}: {
  db: Db;
  clock: Clock;
  calendar: WorkingCalendar;
  events: EventLog;
  ndr: NdrService;
}) {
  async function plan(tx: Tx, batch: StoredEvent[]) {
    const now = clock.now();
    const rulesOf = new Map<string, NdrRule[]>();
    for (const event of batch) {
      if (event.type !== 'shipment.ndr_raised') continue;
      let rules = rulesOf.get(event.accountId);
      if (!rules) {
        rules = (await repo.findRules(tx, event.accountId)) as NdrRule[];
        rulesOf.set(event.accountId, rules);
      }
      if (rules.length === 0) continue;
      const shipment = await repo.findShipmentFacts(tx, event.accountId, event.subjectId);
      const attempt = Number(event.data.attempt_count);
      if (!shipment) continue;
      const matched = matchRule(rules, {
        ndrReason: (event.data.ndr_reason as string | null) ?? null,
        cod: shipment.isCod,
        attempt,
      });
      if (!matched) continue;
      await repo.insertRun(tx, event.accountId, {
        shipmentId: event.subjectId,
        attempt,
        action: matched.rule.action,
        ruleName: matched.rule.name,
        ruleIndex: matched.index,
        rule: matched.rule as unknown as Record<string, unknown>,
        status: 'pending',
        dueAt: now,
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  const consumer: OutboxConsumer = { name: CONSUMER, reads: ['shipment.ndr_raised'], handle: plan };

  /** Runs `act` in a savepoint, so a refusal from the NDR path undoes its half and is recorded as a refusal. */
  async function attempt(tx: Tx, act: (sp: Tx) => Promise<string | null>): Promise<Outcome> {
    try {
      const actionId = await tx.transaction(act);
      return { status: 'done', reason: null, actionId };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { status: 'refused', reason: error.messages.join('; '), actionId: null };
    }
  }

  async function carryOut(tx: Tx, run: repo.RuleRunRow, now: Date): Promise<Outcome> {
    const shipment = await repo.findShipmentFacts(tx, run.accountId, run.shipmentId);
    // Planned for one failed attempt, a run does nothing once the courier has reported another.
    if (!shipment?.awb || shipment.status !== 'ndr_raised' || shipment.attemptCount !== run.attempt) {
      return {
        status: 'skipped',
        reason: `the shipment moved on (${shipment?.status ?? 'gone'}, attempt ${shipment?.attemptCount ?? 0})`,
        actionId: null,
      };
    }
    const awb = shipment.awb;
    const rule: RuleRef = { name: run.ruleName, index: run.ruleIndex };
    const actor = systemActor(run.accountId, `the NDR rule "${run.ruleName}"`);
    switch (run.action) {
      case 'reattempt': {
        const [next] = reattemptDays(now, calendar);
        return attempt(
          tx,
          async (sp) => (await ndr.reattempt(actor, { awb, reattempt_date: next }, sp, 'rule', rule)).data.action_id,
        );
      }
      case 'rto_fallback':
        if (await repo.reattemptAsked(tx, run.accountId, run.shipmentId, run.attempt)) {
          return { status: 'skipped', reason: 'the buyer answered: a reattempt was asked for', actionId: null };
        }
        return attempt(tx, async (sp) => (await ndr.initiateRto(actor, awb, sp, rule)).data.action_id);
      case 'rto':
        return attempt(tx, async (sp) => (await ndr.initiateRto(actor, awb, sp, rule)).data.action_id);
      default: {
        const hours = (run.rule as Partial<NdrRule>).rto_after_hours;
        const rtoAfter = hours === undefined ? null : new Date(now.getTime() + hours * HOUR_MS);
        if (rtoAfter) {
          await repo.insertRun(tx, run.accountId, {
            shipmentId: run.shipmentId,
            attempt: run.attempt,
            action: 'rto_fallback',
            ruleName: run.ruleName,
            ruleIndex: run.ruleIndex,
            rule: run.rule,
            status: 'pending',
            dueAt: rtoAfter,
            createdAt: now,
            updatedAt: now,
          });
        }
        await repo.addNdrOutcome(tx, run.accountId, run.shipmentId, 'buyer_message');
        const change = {
          ...takenChange(run, { status: 'done', reason: null, actionId: null }),
          rto_after: rtoAfter?.toISOString() ?? null,
        };
        await events.shipment(
          tx,
          run.accountId,
          run.shipmentId,
          [{ type: 'shipment.ndr_buyer_message_requested', change }],
          now,
        );
        return { status: 'done', reason: null, actionId: null };
      }
    }
  }

  /** One due run, in a transaction of its own: the action, the run's outcome and its event commit together. */
  async function execute(run: repo.RuleRunRow) {
    const now = clock.now();
    await db.transaction(async (tx) => {
      const outcome = await carryOut(tx, run, now);
      await repo.finishRun(tx, run.accountId, run.id, {
        status: outcome.status,
        outcome: outcome.reason,
        actionId: outcome.actionId,
        updatedAt: now,
      });
      if (outcome.status !== 'skipped') {
        await events.shipment(
          tx,
          run.accountId,
          run.shipmentId,
          [{ type: 'shipment.ndr_action_taken', change: takenChange(run, outcome) }],
          now,
        );
      }
    });
  }

  async function runDue(): Promise<boolean> {
    const now = clock.now();
    const due = await repo.claimDue(db, now, new Date(now.getTime() + LEASE_MS), RUN_BATCH);
    for (const run of due) await execute(run);
    return due.length === RUN_BATCH;
  }

  const tasks: WorkerTask[] = [
    pumpTask('ndr rule plans', db, consumer, () => clock.now(), CONSUME_BATCH),
    { name: 'ndr rule actions', run: runDue },
  ];

  return {
    tasks,
    /** Plans and carries out everything due now, for tests and the CLI. */
    async runOnce() {
      while ((await pumpConsumer(db, consumer, clock.now(), CONSUME_BATCH)) > 0);
      while (await runDue());
    },
  };
}

export type NdrRules = ReturnType<typeof createNdrRules>;

function takenChange(run: repo.RuleRunRow, outcome: Outcome) {
  return {
    rule: { name: run.ruleName, index: run.ruleIndex },
    action: run.action,
    outcome: outcome.status,
    reason: outcome.reason,
    attempt: run.attempt,
    action_id: outcome.actionId,
  };
}
