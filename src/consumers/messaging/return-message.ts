import type { Tx } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { StoredEvent } from '../../events/events.repository.js';
import {
  type ChannelName,
  indianMobile,
  LANGUAGES,
  type MessageLanguage,
  type ReturnUpdateVariables,
} from './channel.js';
import { missingFor, secretsOf, type SendSettings, templateOf } from './channel-config.js';
import * as repo from './messaging.repository.js';

// A buyer's return request, told on WhatsApp or SMS (issue 50: "the buyer gets a confirmation
// (e-mail/WhatsApp/SMS as configured)"): kept, approved or declined. E-mail goes through the
// store's own notifications (return_requested, return_approved, return_rejected), so this sends
// on the two channels that have no other way to the buyer.

/** Which update of the request each event is. */
const UPDATES = {
  'return_request.created': 'requested',
  'return_request.approved': 'approved',
  'return_request.rejected': 'rejected',
} as const;
export const RETURN_REQUEST_EVENTS = Object.keys(UPDATES) as (keyof typeof UPDATES)[];
type Update = (typeof UPDATES)[keyof typeof UPDATES];

/** What happened, as the template's third variable says it. */
const UPDATE_WORDS: Record<MessageLanguage, Record<Update, string>> = {
  en: { requested: 'received', approved: 'approved', rejected: 'declined' },
  hi: { requested: 'मिल गया है', approved: 'स्वीकार कर लिया गया है', rejected: 'अस्वीकार कर दिया गया है' },
};

/** The channels a return update goes on, in this order: the first that can reach the buyer sends it. */
const RETURN_CHANNELS: readonly ChannelName[] = ['whatsapp', 'sms'];

interface RequestData {
  id: string;
  shipment_id: string;
  language: string;
}

/**
 * Each return request event becomes one message, in the cursor's transaction, on the first enabled
 * channel (WhatsApp, then SMS) with a return template in the buyer's language (theirs when the
 * templates speak it, else the account's), that can reach the delivery phone. Sent from its own
 * leased job like every buyer message; none is sent when no channel has a return template.
 */
export async function planReturnMessages(
  tx: Tx,
  deps: { box: SecretBox; send: SendSettings; publicBaseUrl: string },
  events: StoredEvent[],
  now: Date,
) {
  const byAccount = new Map<string, StoredEvent[]>();
  for (const event of events) {
    if (!(event.type in UPDATES) || event.subjectType !== 'return_request') continue;
    byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
  }
  for (const [accountId, told] of byAccount) {
    const channels = new Map(
      (await repo.channelsOf(tx, accountId))
        .filter((c) => c.enabled && RETURN_CHANNELS.includes(c.channel as ChannelName))
        .map((c) => [c.channel, c]),
    );
    if (channels.size === 0) continue;
    const accountLanguage = ((await repo.policyOf(tx, accountId))?.language ?? 'en') as MessageLanguage;
    const requests = told.map((event) => event.data.return_request as RequestData);
    const views = new Map(
      (
        await repo.shipmentViews(
          tx,
          accountId,
          requests.map((r) => r.shipment_id),
        )
      ).map((v) => [v.shipment.id, v]),
    );
    for (const [i, event] of told.entries()) {
      const request = requests[i]!;
      const view = views.get(request.shipment_id);
      if (!view) continue;
      const update = UPDATES[event.type as keyof typeof UPDATES];
      // A replayed batch (the cursor's transaction retried) must not message the buyer twice.
      if (
        await repo.messageExists(tx, accountId, view.shipment.id, 'return_update', {
          request_id: request.id,
          request_update: update,
        })
      )
        continue;
      const buyerLanguage = (LANGUAGES as readonly string[]).includes(request.language)
        ? (request.language as MessageLanguage)
        : undefined;
      const path = `${view.shipment.trackToken}/return?lang=${request.language}`;
      const mobile = indianMobile(view.order.shippingPhone);
      for (const name of RETURN_CHANNELS) {
        const row = channels.get(name);
        if (!row || !mobile || missingFor(row, secretsOf(deps.box, row), deps.send).length > 0) continue;
        // The buyer's language where this channel's templates speak it, else the account's.
        const language = [buyerLanguage, accountLanguage].find(
          (candidate) => candidate && templateOf(row, candidate, 'return_update'),
        );
        if (!language) continue;
        const template = templateOf(row, language, 'return_update')!;
        const variables: ReturnUpdateVariables = {
          brand: view.store?.brandName ?? view.accountName,
          order_id: view.order.merchantOrderId,
          update: UPDATE_WORDS[language][update],
          return_url: `${deps.publicBaseUrl}/t/${path}`,
          return_path: path,
          request_id: request.id,
          request_update: update,
        };
        await repo.insertMessage(tx, accountId, {
          shipmentId: view.shipment.id,
          purpose: 'return_update',
          channel: name,
          template,
          recipient: mobile,
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
