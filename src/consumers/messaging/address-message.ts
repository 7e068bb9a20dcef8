import type { Tx } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { type AddressUpdateVariables, type ChannelName, indianMobile, type MessageLanguage } from './channel.js';
import { missingFor, secretsOf, type SendSettings, templateOf } from './channel-config.js';
import * as repo from './messaging.repository.js';

export const ADDRESS_FLAGGED = 'shipment.address_flagged';

/**
 * A booking whose address checks said `incomplete` or `suspicious` (shipment.address_flagged)
 * becomes one "update your address" message, in the cursor's transaction, when the account's policy
 * asks for that validity (`address_update_for`, empty by default). The channel is the first of the
 * policy's list that is enabled, can reach the buyer and has an address template in the policy's
 * language; with none, nothing is sent. Only before pickup: the form refuses afterwards anyway.
 */
export async function planAddressMessages(
  tx: Tx,
  deps: { box: SecretBox; send: SendSettings; publicBaseUrl: string },
  events: StoredEvent[],
  now: Date,
) {
  const byAccount = new Map<string, StoredEvent[]>();
  for (const event of events) {
    if (event.type !== ADDRESS_FLAGGED || event.subjectType !== 'shipment') continue;
    byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
  }
  for (const [accountId, flagged] of byAccount) {
    const policy = await repo.policyOf(tx, accountId);
    if (!policy || policy.addressUpdateFor.length === 0) continue;
    const asked = flagged.filter((e) => policy.addressUpdateFor.includes(String(e.data.address_validity)));
    const channels = new Map(
      (await repo.channelsOf(tx, accountId)).filter((c) => c.enabled).map((c) => [c.channel, c]),
    );
    if (asked.length === 0 || channels.size === 0) continue;
    const language = policy.language as MessageLanguage;
    const views = new Map(
      (
        await repo.shipmentViews(
          tx,
          accountId,
          asked.map((e) => e.subjectId),
        )
      ).map((v) => [v.shipment.id, v]),
    );
    for (const event of asked) {
      const view = views.get(event.subjectId);
      if (view?.shipment.status !== 'pending') continue;
      const { shipment, order } = view;
      // A replayed batch (the cursor's transaction retried) must not message the buyer twice.
      if (await repo.messageExists(tx, accountId, shipment.id, 'address_update')) continue;
      const path = `${shipment.trackToken}/address?lang=${language}`;
      const variables: AddressUpdateVariables = {
        brand: view.store?.brandName ?? view.accountName,
        order_id: order.merchantOrderId,
        update_url: `${deps.publicBaseUrl}/t/${path}`,
        update_path: path,
      };
      const email = order.shippingIsBilling ? order.billingEmail : (order.shippingEmail ?? order.billingEmail);
      const mobile = indianMobile(order.shippingPhone);
      for (const name of policy.channels as ChannelName[]) {
        const row = channels.get(name);
        const recipient = name === 'email' ? email : mobile;
        const template = row && templateOf(row, language, 'address_update');
        if (!row || !recipient || !template || missingFor(row, secretsOf(deps.box, row), deps.send).length > 0)
          continue;
        await repo.insertMessage(tx, accountId, {
          shipmentId: shipment.id,
          purpose: 'address_update',
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
