import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Db } from '../../base/db/client.js';
import type { SecretBox } from '../../base/secret-box.js';
import { OutboundRefused, resolveTarget, UnresolvedHost } from '../../base/outbound/outbound-url.js';
import { outboundHostUnresolved, outboundUrlRefused } from '../../domain/outbound.errors.js';
import { MESSAGING_ERRORS } from './messaging.errors.js';
import { CHANNELS, type ChannelName } from './channel.js';
import { missingFor, SECRET_FIELDS, secretsOf, type SendSettings } from './channel-config.js';
import * as repo from './messaging.repository.js';
import type { ChannelView } from './channel.schemas.js';

// The merchant's provider setup, apart from the confirmations' service (messaging.service.ts):
// it is the only side that needs the outbound guard's rules and the public base URL, and no
// buyer's answer goes through it.

export type MessagingChannelsService = ReturnType<typeof createMessagingChannelsService>;

interface Deps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  send: SendSettings;
  publicBaseUrl: string;
}

/** The fields each channel takes beside `enabled`: settings kept as they are, or sealed. */
const SETTING_FIELDS: Record<ChannelName, readonly string[]> = {
  whatsapp: [
    'phone_number_id',
    'api_version',
    'base_url',
    'confirmation_template',
    'ndr_template',
    'address_template',
    'return_template',
  ],
  sms: ['sender', 'base_url', 'confirmation_template', 'ndr_template', 'address_template', 'return_template'],
  email: [],
};

export function createMessagingChannelsService({ db, clock, box, send, publicBaseUrl }: Deps) {
  const record = auditRecorder(clock);
  function channelView(name: ChannelName, row: repo.ChannelRow | undefined, accountId: string): ChannelView {
    const settings = Object.fromEntries(SETTING_FIELDS[name].map((field) => [field, row?.settings[field] ?? null]));
    const secrets = row ? secretsOf(box, row) : {};
    return {
      channel: name,
      enabled: row?.enabled ?? false,
      settings,
      credentials_set: SECRET_FIELDS[name].filter((field) => secrets[field] !== undefined),
      inbound_webhook_url: name === 'whatsapp' ? `${publicBaseUrl}/public/v1/whatsapp/${accountId}/webhook` : null,
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }

  /**
   * An account's own provider host goes through the outbound guard when it is saved (and again
   * before every send): a host that does not resolve is refused too, since a provider's API always
   * does and the channel could send nothing.
   */
  async function checkBaseUrl(url: string): Promise<void> {
    try {
      await resolveTarget(url, send.outbound, 'base_url');
    } catch (error) {
      if (error instanceof OutboundRefused) throw outboundUrlRefused('base_url', error.message);
      if (error instanceof UnresolvedHost) throw outboundHostUnresolved('base_url', error.message);
      throw error;
    }
  }

  return {
    async listChannels(accountId: string): Promise<ChannelView[]> {
      const rows = new Map((await repo.channelsOf(db, accountId)).map((row) => [row.channel, row]));
      return CHANNELS.map((name) => channelView(name, rows.get(name), accountId));
    },

    /** Sets one channel: fields left out keep their value; a secret is replaced only when sent. Enabling needs what sending needs. */
    async setChannel(actor: Actor, name: ChannelName, body: Record<string, unknown>): Promise<ChannelView> {
      const { accountId } = actor;
      const foreign = Object.keys(body).filter(
        (key) => key !== 'enabled' && !SETTING_FIELDS[name].includes(key) && !SECRET_FIELDS[name].includes(key),
      );
      if (foreign.length > 0) {
        const details = foreign.map((field) => ({
          field,
          message: `${field} is not a setting of the ${name} channel`,
        }));
        throw MESSAGING_ERRORS.messaging_setting_unknown.error(
          details.map((d) => d.message),
          details,
        );
      }
      if (typeof body.base_url === 'string') await checkBaseUrl(body.base_url);
      return db.transaction(async (tx) => {
        const [current] = (await repo.channelsOf(tx, accountId)).filter((row) => row.channel === name);
        const settings = { ...current?.settings };
        for (const field of SETTING_FIELDS[name]) if (field in body) settings[field] = body[field];
        const secrets = { ...(current ? secretsOf(box, current) : {}) };
        for (const field of SECRET_FIELDS[name])
          if (typeof body[field] === 'string') secrets[field] = body[field] as string;
        const now = clock.now();
        const row = {
          channel: name,
          enabled: body.enabled as boolean,
          settings,
          sealedSecret: Object.keys(secrets).length > 0 ? box.seal(JSON.stringify(secrets)) : null,
          updatedAt: now,
        };
        const missing = missingFor({ ...row, accountId, createdAt: now }, secrets, send);
        if (row.enabled && missing.length > 0) {
          const details = missing.map((field) => ({
            field,
            message: `${field} is needed to enable the ${name} channel`,
          }));
          throw MESSAGING_ERRORS.messaging_channel_incomplete.error(
            details.map((d) => d.message),
            details,
          );
        }
        await repo.saveChannel(tx, accountId, row);
        // Which fields were sent, never their values (tokens and keys among them).
        await record(tx, actor, {
          action: 'messaging_channel.set',
          objectType: 'messaging_channel',
          objectId: name,
          changes: { fields: Object.keys(body).sort(), enabled: row.enabled },
        });
        return channelView(name, { ...row, accountId, createdAt: current?.createdAt ?? now }, accountId);
      });
    },
  };
}
