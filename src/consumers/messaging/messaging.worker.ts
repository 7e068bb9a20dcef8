import type { Clock } from '../../base/clock.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { EventLog } from '../../events/event-log.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpTask } from '../../events/outbox.js';
import { nextAttemptAt } from '../../events/retry.js';
import type { WorkerTask } from '../../events/worker.js';
import {
  ChannelFailure,
  type ChannelName,
  indianMobile,
  type MessageLanguage,
  type MessageVariables,
  type OutgoingMessage,
} from './channel.js';
import { missingFor, secretsOf, senderFor, type SendSettings, templateOf } from './channel-config.js';
import * as repo from './messaging.repository.js';
import { NDR_REQUESTED, planNdrMessages } from './ndr-message.js';
import { ADDRESS_FLAGGED, planAddressMessages } from './address-message.js';
import { planReturnMessages, RETURN_REQUEST_EVENTS } from './return-message.js';
import { confirmationView, messageView, rupees } from './messaging.views.js';
import type { EventType } from '../../domain/shipment/event-types.js';

/** Every buyer message's outcome, whatever its purpose: the provider accepted it, or its last attempt failed. */
export const BUYER_MESSAGE_SENT = 'shipment.buyer_message_sent';
export const BUYER_MESSAGE_FAILED = 'shipment.buyer_message_failed';

export interface MessagingWorkerDeps {
  db: Db;
  clock: Clock;
  events: EventLog;
  box: SecretBox;
  send: SendSettings;
  publicBaseUrl: string;
  /** Seconds between attempts of one message (MESSAGE_RETRY_DELAYS). */
  retryDelaysSeconds: readonly number[];
  leaseMarginMs: number;
}

const CONSUME_BATCH = 200;
const SEND_BATCH = 8;
const EXPIRE_BATCH = 50;

/** Whether the policy asks this shipment: COD, and the mode's own condition. A risk not scored (no rto_risk) is asked. */
function asks(policy: repo.PolicyRow, shipment: { isCod: boolean; codAmountPaise: number }, risk: unknown): boolean {
  if (policy.mode === 'off' || !shipment.isCod) return false;
  if (policy.mode === 'above_value') return shipment.codAmountPaise >= policy.minValuePaise;
  if (policy.mode === 'by_risk') return typeof risk !== 'string' || policy.riskLevels.includes(risk);
  return true;
}

/** The payment link from the merchant's template, with the amount (rupees) and their order id. */
export const paymentLink = (template: string, amountPaise: number, orderId: string) =>
  template
    .replaceAll('{amount}', encodeURIComponent(rupees(amountPaise)))
    .replaceAll('{order_id}', encodeURIComponent(orderId));

/**
 * What WhatsApp's dynamic URL button appends to the URL registered with the template: the link after
 * the template's fixed start. Meta allows one variable, at the end of a button's URL, so the
 * merchant registers their template up to its first placeholder followed by {{1}}.
 */
export function paymentPath(template: string, link: string): string {
  const start = template.search(/\{(?:amount|order_id)\}/);
  return start < 0 ? '' : link.slice(start);
}

/**
 * New COD shipments an account's policy asks become a confirmation and its first message, in the
 * cursor's transaction; the message goes out from its own leased job. The first enabled channel of
 * the policy's list that can reach the buyer (a mobile for WhatsApp and SMS, an address for e-mail)
 * and has a template in the language asks; with none, the confirmation is kept without a message
 * and runs to no_response.
 */
async function plan(tx: Tx, deps: MessagingWorkerDeps, events: StoredEvent[], now: Date): Promise<void> {
  const byAccount = new Map<string, StoredEvent[]>();
  for (const event of events) {
    // Skipped: recorded while the account's policy did not ask (a policy set since asks of later bookings).
    if (event.type !== 'shipment.created' || event.subjectType !== 'shipment' || event.dataSkipped) continue;
    byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
  }
  for (const [accountId, created] of byAccount) {
    const policy = await repo.policyOf(tx, accountId);
    if (!policy || policy.mode === 'off') continue;
    const channels = new Map(
      (await repo.channelsOf(tx, accountId)).filter((c) => c.enabled).map((c) => [c.channel, c]),
    );
    const views = new Map(
      (
        await repo.shipmentViews(
          tx,
          accountId,
          created.map((e) => e.subjectId),
        )
      ).map((v) => [v.shipment.id, v]),
    );
    for (const event of created) {
      const view = views.get(event.subjectId);
      // The event's shipment is the listing's element: the risk is among its attributes.
      const risk = (event.data as { shipment?: { attributes?: { rto_risk?: unknown } } }).shipment?.attributes
        ?.rto_risk;
      if (!view || !asks(policy, view.shipment, risk)) continue;
      const { shipment, order } = view;
      const language = policy.language as MessageLanguage;
      const email = order.shippingIsBilling ? order.billingEmail : (order.shippingEmail ?? order.billingEmail);
      const mobile = indianMobile(order.shippingPhone);
      const link = policy.paymentLinkTemplate
        ? paymentLink(policy.paymentLinkTemplate, shipment.codAmountPaise, order.merchantOrderId)
        : null;
      const page = `${deps.publicBaseUrl}/t/${shipment.trackToken}/confirmation?lang=${language}`;
      const variables: MessageVariables = {
        brand: view.store?.brandName ?? view.accountName,
        order_id: order.merchantOrderId,
        amount: rupees(shipment.codAmountPaise),
        confirm_url: `${page}&answer=confirm`,
        cancel_url: `${page}&answer=cancel`,
        payment_url: link ?? '',
        payment_path: link ? paymentPath(policy.paymentLinkTemplate!, link) : '',
        confirm_payload: `confirm:${shipment.id}`,
        cancel_payload: `cancel:${shipment.id}`,
      };
      let chosen: { channel: ChannelName; template: string; recipient: string } | undefined;
      for (const name of policy.channels as ChannelName[]) {
        const row = channels.get(name);
        const recipient = name === 'email' ? email : mobile;
        const template = row && templateOf(row, language);
        if (!row || !recipient || !template || missingFor(row, secretsOf(deps.box, row), deps.send).length > 0)
          continue;
        chosen = { channel: name, template, recipient };
        break;
      }
      const at = deps.clock.now();
      await repo.insertConfirmation(
        tx,
        accountId,
        {
          shipmentId: shipment.id,
          outcome: 'pending',
          held: policy.holdUnconfirmed,
          channel: chosen?.channel ?? null,
          language,
          dueAt: new Date(at.getTime() + policy.windowMinutes * 60_000),
          paymentLink: link,
          codToPrepaid: link ? 'offered' : null,
          createdAt: at,
          updatedAt: at,
        },
        chosen
          ? {
              shipmentId: shipment.id,
              purpose: 'order_confirmation',
              ...chosen,
              language,
              status: 'pending',
              variables: { ...variables },
              nextAttemptAt: now,
              createdAt: now,
              updatedAt: now,
            }
          : null,
      );
    }
  }
}

/** The worker's tasks: plan confirmations and NDR messages from the log, send due messages, and close windows that ran out. */
export function messagingTasks(deps: MessagingWorkerDeps): { consumer: OutboxConsumer; tasks: WorkerTask[] } {
  const { db, clock, events } = deps;
  const consumer: OutboxConsumer = {
    name: 'buyer-messaging',
    reads: ['shipment.created', NDR_REQUESTED, ADDRESS_FLAGGED, ...RETURN_REQUEST_EVENTS],
    readsWhen: repo.READS_BOOKING_WHEN_ASKING,
    async handle(tx, batch) {
      await plan(tx, deps, batch, new Date());
      await planNdrMessages(tx, deps, batch, new Date());
      await planAddressMessages(tx, deps, batch, new Date());
      await planReturnMessages(tx, deps, batch, new Date());
    },
  };
  const consume = pumpTask('buyer message jobs', db, consumer, () => new Date(), CONSUME_BATCH);
  const leaseMs = deps.send.timeoutMs * 3 + deps.leaseMarginMs;

  async function attempt(
    job: repo.MessageRow,
    signal: AbortSignal,
  ): Promise<{ error: string | null; retry: boolean; providerMessageId: string | null }> {
    try {
      const row = await repo.channelOf(db, job.accountId, job.channel);
      if (!row?.enabled)
        return {
          error: `the ${job.channel} channel was turned off before this message went out`,
          retry: false,
          providerMessageId: null,
        };
      const secrets = secretsOf(deps.box, row);
      const missing = missingFor(row, secrets, deps.send);
      if (missing.length > 0)
        return {
          error: `the ${job.channel} channel lacks ${missing.join(', ')}`,
          retry: false,
          providerMessageId: null,
        };
      const sent = await senderFor(
        row,
        secrets,
        deps.send,
      )(
        {
          to: job.recipient,
          template: job.template,
          language: job.language as MessageLanguage,
          purpose: job.purpose,
          variables: job.variables,
        } as unknown as OutgoingMessage,
        signal,
      );
      return { error: null, retry: false, providerMessageId: sent.providerMessageId };
    } catch (error) {
      if (error instanceof ChannelFailure) return { error: error.message, retry: error.retry, providerMessageId: null };
      return { error: (error as Error).message.slice(0, 500), retry: true, providerMessageId: null };
    }
  }

  async function record(job: repo.MessageRow, result: Awaited<ReturnType<typeof attempt>>) {
    const at = new Date();
    const attempts = job.attempts + 1;
    const next =
      result.error !== null && result.retry
        ? nextAttemptAt(attempts, deps.retryDelaysSeconds, at, Math.random())
        : null;
    await db.transaction(async (tx) => {
      const row = await repo.finishAttempt(tx, job.accountId, job.id, {
        status: result.error === null ? 'sent' : next ? 'pending' : 'failed',
        attempts,
        nextAttemptAt: next,
        lastError: result.error ?? job.lastError,
        providerMessageId: result.providerMessageId,
        sentAt: result.error === null ? at : null,
        updatedAt: at,
      });
      // A retry still ahead is no outcome yet: the event says what finally became of the message.
      if (!row || row.status === 'pending') return;
      const changes: { type: EventType; change: Record<string, unknown> }[] = [];
      const confirmation =
        row.status === 'sent' && job.purpose === 'order_confirmation'
          ? await repo.confirmationOf(tx, job.accountId, job.shipmentId)
          : undefined;
      if (confirmation) {
        const message = { channel: job.channel, template: job.template, provider_message_id: result.providerMessageId };
        changes.push({
          type: 'shipment.confirmation_sent',
          change: { confirmation: confirmationView(confirmation), message },
        });
      }
      changes.push({
        type: row.status === 'sent' ? BUYER_MESSAGE_SENT : BUYER_MESSAGE_FAILED,
        change: { message: messageView(row) },
      });
      await events.shipment(tx, job.accountId, job.shipmentId, changes, clock.now());
    });
  }

  const send: WorkerTask = {
    name: 'buyer messages',
    async run(signal) {
      const at = new Date();
      const due = await repo.claimDue(db, at, new Date(at.getTime() + leaseMs), SEND_BATCH);
      if (due.length === 0) return false;
      await Promise.all(due.map(async (job) => record(job, await attempt(job, signal))));
      return due.length === SEND_BATCH;
    },
  };

  // The window is the merchant's promise to the buyer, so it runs on the app's clock.
  const expire: WorkerTask = {
    name: 'confirmation windows',
    run: () =>
      db.transaction(async (tx) => {
        const now = clock.now();
        const rows = await repo.overdue(tx, now, EXPIRE_BATCH);
        for (const row of rows) {
          const settled = await repo.settle(tx, row.accountId, row.id, { outcome: 'no_response', updatedAt: now });
          if (!settled) continue;
          await events.shipment(
            tx,
            row.accountId,
            row.shipmentId,
            [{ type: 'shipment.confirmation_no_response', change: { confirmation: confirmationView(settled) } }],
            now,
          );
        }
        return rows.length === EXPIRE_BATCH;
      }),
  };
  return { consumer, tasks: [consume, send, expire] };
}
