import { systemActor } from '../../domain/access/permissions.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { EventLog } from '../../events/event-log.js';
import type { CancelShipment, ConvertToPrepaid, NdrBuyerAnswer } from '../../features/contracts.js';
import { invalid } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { MESSAGING_ERRORS } from './messaging.errors.js';
import { CHANNELS, type MessageLanguage, type MessageVariables } from './channel.js';
import { secretsOf } from './channel-config.js';
import { answerPage } from './message-text.js';
import * as repo from './messaging.repository.js';
import type { PolicyBody } from './messaging.schemas.js';
import { confirmationView, messageView } from './messaging.views.js';
import { buttonReplies, validSignature } from './whatsapp.channel.js';
import { readNdrPayload } from './ndr-message.js';

// Order confirmation, from the merchant's policy to the buyer's answer. The policy sits here rather
// than with the channels' setup (messaging-channels.service.ts): it decides which orders are asked,
// the channels only how a question is sent.

export type MessagingService = ReturnType<typeof createMessagingService>;

interface Deps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  events: EventLog;
  /** cancel-order's path, handed in by the composition root (features/contracts.ts). */
  cancelShipment: CancelShipment;
  /** The orders feature's COD-to-prepaid conversion, handed in the same way. */
  convertToPrepaid: ConvertToPrepaid;
  /** The NDR path for a buyer's reply to an NDR message, handed in the same way. */
  ndrBuyerAnswer: NdrBuyerAnswer;
}

const DEFAULT_POLICY: Omit<repo.PolicyRow, 'accountId' | 'updatedAt'> = {
  mode: 'off',
  minValuePaise: 0,
  riskLevels: ['medium', 'high'],
  channels: [...CHANNELS],
  language: 'en',
  windowMinutes: 24 * 60,
  holdUnconfirmed: false,
  paymentLinkTemplate: null,
  addressUpdateFor: [],
};

type Answer = 'confirm' | 'cancel';

export function createMessagingService({
  db,
  clock,
  box,
  events,
  cancelShipment,
  convertToPrepaid,
  ndrBuyerAnswer,
}: Deps) {
  const record = auditRecorder(clock);
  /** Settles a pending confirmation with the buyer's answer; a Cancel cancels the shipment through cancel-order's path. */
  async function settleAnswer(tx: Tx, accountId: string, shipmentId: string, answer: Answer, via: string) {
    const pending = await repo.confirmationOf(tx, accountId, shipmentId);
    if (!pending) return undefined;
    const now = clock.now();
    const outcome = answer === 'confirm' ? 'confirmed' : 'cancelled';
    const settled = await repo.settle(tx, accountId, pending.id, {
      outcome,
      held: false,
      answeredAt: now,
      answeredVia: via,
      updatedAt: now,
    });
    if (!settled) return { row: pending, changed: false };
    const cancellation =
      answer === 'cancel'
        ? await cancelShipment(systemActor(accountId, 'the buyer, answering the order confirmation'), shipmentId, tx)
        : undefined;
    const type = answer === 'confirm' ? 'shipment.confirmation_confirmed' : 'shipment.confirmation_cancelled';
    // hold_released tells a packing station, from the event alone, that this parcel may now go.
    const released = answer === 'confirm' && pending.held;
    await events.shipment(
      tx,
      accountId,
      shipmentId,
      [
        {
          type,
          change: {
            confirmation: confirmationView(settled),
            ...(released && { hold_released: true }),
            ...(cancellation && { cancellation }),
          },
        },
      ],
      now,
    );
    return { row: settled, changed: true };
  }

  return {
    async policy(accountId: string) {
      const row = (await repo.policyOf(db, accountId)) ?? DEFAULT_POLICY;
      return {
        mode: row.mode,
        min_value: row.minValuePaise / 100,
        risk_levels: row.riskLevels,
        channels: row.channels,
        language: row.language,
        window_minutes: row.windowMinutes,
        hold_unconfirmed: row.holdUnconfirmed,
        payment_link_template: row.paymentLinkTemplate,
        address_update_for: row.addressUpdateFor,
      };
    },

    /** Sets the policy; fields left out keep their value (the defaults the first time). */
    async setPolicy(actor: Actor, body: PolicyBody) {
      const { accountId } = actor;
      const current = (await repo.policyOf(db, accountId)) ?? DEFAULT_POLICY;
      await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'confirmation_policy.set',
          objectType: 'confirmation_policy',
          objectId: null,
          changes: { fields: Object.keys(body).sort() },
        });
        await repo.savePolicy(tx, accountId, {
          mode: body.mode,
          minValuePaise: body.min_value === undefined ? current.minValuePaise : Math.round(body.min_value * 100),
          riskLevels: body.risk_levels ?? current.riskLevels,
          channels: body.channels ?? current.channels,
          language: body.language ?? current.language,
          windowMinutes: body.window_minutes ?? current.windowMinutes,
          holdUnconfirmed: body.hold_unconfirmed ?? current.holdUnconfirmed,
          paymentLinkTemplate:
            body.payment_link_template === undefined
              ? current.paymentLinkTemplate
              : (body.payment_link_template as string | null),
          addressUpdateFor: body.address_update_for ?? current.addressUpdateFor,
          updatedAt: clock.now(),
        });
      });
      return this.policy(accountId);
    },

    /** A shipment's confirmation and the messages its buyer was sent; another account's shipment is a 404. */
    async confirmation(accountId: string, idOrAwb: string) {
      const shipmentId = await repo.findShipmentId(db, accountId, idOrAwb);
      if (!shipmentId) throw SHIPMENT_ERRORS.shipment_not_found.error(`Shipment '${idOrAwb}' not found`);
      const row = await repo.confirmationOf(db, accountId, shipmentId);
      return {
        confirmation: row ? confirmationView(row) : null,
        messages: (await repo.messagesOf(db, accountId, shipmentId)).map(messageView),
      };
    },

    /**
     * The buyer paid online (the merchant's POST, from their gateway's webhook): the order turns
     * prepaid, its charges re-quoted, and a pending confirmation counts as confirmed.
     */
    async markPaid(actor: Actor, idOrAwb: string, body: { payment_reference: string; amount: number }) {
      const { accountId } = actor;
      const shipmentId = await repo.findShipmentId(db, accountId, idOrAwb);
      if (!shipmentId) throw SHIPMENT_ERRORS.shipment_not_found.error(`Shipment '${idOrAwb}' not found`);
      return db.transaction(async (tx) => {
        const [view] = await repo.shipmentViews(tx, accountId, [shipmentId]);
        const amountPaise = Math.round(body.amount * 100);
        if (view!.shipment.isCod && amountPaise !== view!.shipment.codAmountPaise) {
          throw MESSAGING_ERRORS.cod_payment_amount_mismatch.error(
            `amount ${body.amount} is not the ${view!.shipment.codAmountPaise / 100} to collect on this order`,
            'amount',
          );
        }
        const now = clock.now();
        const conversion = await convertToPrepaid(tx, actor, shipmentId, now);
        await record(tx, actor, {
          action: 'shipment.paid_online',
          objectType: 'shipment',
          objectId: shipmentId,
          changes: { payment_reference: body.payment_reference.trim(), amount: body.amount },
        });
        const paid = {
          codToPrepaid: 'paid',
          paymentReference: body.payment_reference.trim(),
          paidAt: now,
          updatedAt: now,
        };
        let row = await repo.confirmationOf(tx, accountId, shipmentId);
        const released = row?.held === true;
        if (!row) {
          await repo.insertConfirmation(
            tx,
            accountId,
            {
              shipmentId,
              outcome: 'confirmed',
              held: false,
              channel: null,
              language: 'en',
              dueAt: now,
              answeredAt: now,
              answeredVia: 'payment',
              createdAt: now,
              ...paid,
            },
            null,
          );
          row = (await repo.confirmationOf(tx, accountId, shipmentId))!;
        } else {
          // A paid order has nothing left to refuse at the door: the hold goes even after no_response.
          const answered =
            row.outcome === 'pending' ? { outcome: 'confirmed', answeredAt: now, answeredVia: 'payment' } : {};
          row = await repo.updateConfirmation(tx, accountId, row.id, { ...paid, ...answered, held: false });
        }
        const confirmation = confirmationView(row);
        const change = {
          confirmation,
          payment: { reference: paid.paymentReference, amount: conversion.paidPaise / 100 },
          charges: conversion.charges,
          label_url: conversion.labelUrl,
          label_reissued: conversion.labelVersion !== null,
          ...(released && { hold_released: true }),
        };
        await events.shipment(tx, accountId, shipmentId, [{ type: 'shipment.cod_to_prepaid', change }], now);
        return { shipment_id: shipmentId, payment_method: 'prepaid' as const, cod_collectible: 0 as const, ...change };
      });
    },

    /** Meta's subscription check: the challenge back when the verify token is this account's. */
    async verifyWhatsApp(accountId: string, query: Record<string, string | undefined>): Promise<string> {
      const row = await repo.channelOf(db, accountId, 'whatsapp');
      const token = row && secretsOf(box, row).verify_token;
      if (query['hub.mode'] !== 'subscribe' || !token || query['hub.verify_token'] !== token)
        throw MESSAGING_ERRORS.whatsapp_verify_token_mismatch.error(
          'hub.verify_token does not match this account’s WhatsApp verify_token',
        );
      return query['hub.challenge'] ?? '';
    },

    /**
     * An inbound WhatsApp webhook: refused unless X-Hub-Signature-256 is the HMAC of the raw body
     * with this account's app secret; each Confirm or Cancel tap answers the confirmation its payload
     * names, each Reattempt tomorrow or Cancel order tap the failed delivery its payload names.
     */
    async whatsappInbound(accountId: string, rawBody: string, signature: string | undefined): Promise<number> {
      const row = await repo.channelOf(db, accountId, 'whatsapp');
      const secret = row && secretsOf(box, row).app_secret;
      if (!secret)
        throw MESSAGING_ERRORS.whatsapp_channel_not_found.error(
          'This account has no WhatsApp channel with an app_secret',
        );
      if (!signature) throw MESSAGING_ERRORS.whatsapp_signature_missing.error('X-Hub-Signature-256 is missing');
      if (!validSignature(rawBody, signature, secret))
        throw MESSAGING_ERRORS.whatsapp_signature_mismatch.error(
          'X-Hub-Signature-256 does not match the body signed with the app secret',
        );
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw invalid('The body is not JSON', 'body');
      }
      let answered = 0;
      for (const reply of buttonReplies(body)) {
        // An NDR message's reply goes to the NDR path, scoped to the account whose secret signed it.
        const ndr = readNdrPayload(reply.payload);
        if (ndr) {
          if ((await ndrBuyerAnswer(accountId, ndr.shipmentId, ndr.attempt, ndr.answer)).done) answered++;
          continue;
        }
        const [answer, shipmentId] = reply.payload.split(':');
        if ((answer !== 'confirm' && answer !== 'cancel') || !shipmentId || !/^[0-9a-f-]{36}$/i.test(shipmentId))
          continue;
        if ((await db.transaction((tx) => settleAnswer(tx, accountId, shipmentId, answer, 'whatsapp')))?.changed)
          answered++;
      }
      return answered;
    },

    /** The answer page behind an SMS or e-mail link: the buyer's tracking link secret is the credential. */
    async page(
      token: string,
      lang: MessageLanguage | undefined,
      answer: Answer | undefined,
      post: boolean,
    ): Promise<string> {
      const view = await repo.shipmentByTrackToken(db, token);
      if (!view) throw SHIPMENT_ERRORS.tracking_link_not_found.error('No order here');
      const row = await repo.confirmationOf(db, view.shipment.accountId, view.shipment.id);
      if (!row)
        return answerPage(
          lang ?? 'en',
          { brand: view.store?.brandName ?? view.accountName } as MessageVariables,
          '',
          'closed',
        );
      const settled =
        post && answer
          ? await db.transaction((tx) => settleAnswer(tx, view.shipment.accountId, view.shipment.id, answer, 'link'))
          : undefined;
      const language = lang ?? (row.language as MessageLanguage);
      const variables = ((await repo.messagesOf(db, view.shipment.accountId, view.shipment.id))[0]?.variables ?? {
        brand: view.store?.brandName ?? view.accountName,
        order_id: view.order.merchantOrderId,
        amount: String(view.shipment.codAmountPaise / 100),
        payment_url: row.paymentLink ?? '',
      }) as unknown as MessageVariables;
      const state = settled?.changed
        ? (settled.row.outcome as 'confirmed' | 'cancelled')
        : (settled?.row ?? row).outcome === 'pending'
          ? 'open'
          : 'closed';
      return answerPage(language, variables, `/t/${token}/confirmation?lang=${language}`, state, answer);
    },
  };
}
