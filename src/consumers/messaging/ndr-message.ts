import type { Tx } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { CHANNELS, type ChannelName, indianMobile, type MessageLanguage, type NdrVariables } from './channel.js';
import { missingFor, secretsOf, type SendSettings, templateOf } from './channel-config.js';
import * as repo from './messaging.repository.js';

export const NDR_REQUESTED = 'shipment.ndr_buyer_message_requested';

/** WhatsApp's quick-reply payloads of an NDR message: the answer, the shipment and the failed attempt it is about. */
export const ndrPayload = (answer: 'reattempt' | 'cancel', shipmentId: string, attempt: number) =>
  `ndr_${answer}:${shipmentId}:${attempt}`;

/** A payload of ndrPayload's, read back; undefined for anything else (a confirmation's, a forged one). */
export function readNdrPayload(
  payload: string,
): { answer: 'reattempt' | 'cancel'; shipmentId: string; attempt: number } | undefined {
  const match =
    /^ndr_(reattempt|cancel):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([1-9][0-9]?)$/i.exec(
      payload,
    );
  return match
    ? { answer: match[1] as 'reattempt' | 'cancel', shipmentId: match[2]!, attempt: Number(match[3]) }
    : undefined;
}

/**
 * An NDR rule's message_buyer (shipment.ndr_buyer_message_requested) becomes one message to the
 * buyer, in the cursor's transaction; it goes out from its own leased job like a confirmation.
 * The first enabled channel (WhatsApp, SMS, e-mail) that can reach the buyer and has an NDR
 * template in the account's language sends it; with none, nothing is sent and the rule's RTO
 * fallback runs as if the buyer had not answered. The language is the confirmation policy's.
 */
export async function planNdrMessages(
  tx: Tx,
  deps: { box: SecretBox; send: SendSettings; publicBaseUrl: string },
  events: StoredEvent[],
  now: Date,
) {
  const byAccount = new Map<string, StoredEvent[]>();
  for (const event of events) {
    if (event.type !== NDR_REQUESTED || event.subjectType !== 'shipment') continue;
    byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
  }
  for (const [accountId, requested] of byAccount) {
    const language = ((await repo.policyOf(tx, accountId))?.language ?? 'en') as MessageLanguage;
    const channels = new Map(
      (await repo.channelsOf(tx, accountId)).filter((c) => c.enabled).map((c) => [c.channel, c]),
    );
    if (channels.size === 0) continue;
    const views = new Map(
      (
        await repo.shipmentViews(
          tx,
          accountId,
          requested.map((e) => e.subjectId),
        )
      ).map((v) => [v.shipment.id, v]),
    );
    for (const event of requested) {
      const view = views.get(event.subjectId);
      const attempt = Number(event.data.attempt);
      if (!view?.shipment.awb || !Number.isInteger(attempt)) continue;
      const { shipment, order } = view;
      const variables: NdrVariables = {
        brand: view.store?.brandName ?? view.accountName,
        order_id: order.merchantOrderId,
        awb: shipment.awb!,
        tracking_url: `${deps.publicBaseUrl}/t/${shipment.trackToken}?lang=${language}`,
        tracking_path: `${shipment.trackToken}?lang=${language}`,
        reattempt_payload: ndrPayload('reattempt', shipment.id, attempt),
        cancel_payload: ndrPayload('cancel', shipment.id, attempt),
      };
      // A replayed batch (the cursor's transaction retried) must not message the buyer twice.
      if (
        await repo.messageExists(tx, accountId, shipment.id, 'ndr', { reattempt_payload: variables.reattempt_payload })
      )
        continue;
      const email = order.shippingIsBilling ? order.billingEmail : (order.shippingEmail ?? order.billingEmail);
      const mobile = indianMobile(order.shippingPhone);
      for (const name of CHANNELS as readonly ChannelName[]) {
        const row = channels.get(name);
        const recipient = name === 'email' ? email : mobile;
        const template = row && templateOf(row, language, 'ndr');
        if (!row || !recipient || !template || missingFor(row, secretsOf(deps.box, row), deps.send).length > 0)
          continue;
        await repo.insertMessage(tx, accountId, {
          shipmentId: shipment.id,
          purpose: 'ndr',
          channel: name,
          template,
          recipient,
          language,
          status: 'pending',
          variables: { ...variables },
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        });
        break;
      }
    }
  }
}
