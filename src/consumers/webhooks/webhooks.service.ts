import { randomBytes } from 'node:crypto';
import { urlForLog } from '../../http/log-privacy.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import {
  type OutboundRules,
  OutboundRefused,
  refusalOf,
  resolveTarget,
  UnresolvedHost,
} from '../../base/outbound/outbound-url.js';
import { outboundUrlRefused } from '../../domain/outbound.errors.js';
import { type FieldError, invalid } from '../../domain/errors.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
import { WEBHOOK_ERRORS } from './webhooks.errors.js';
import { findEventsByIds, insertEvent } from '../../events/events.repository.js';
import { TEST_EVENT_TYPE } from '../../domain/shipment/event-types.js';
import type { WebhookFormat } from './velocity-webhooks.js';
import { formatSettings, maskKey } from './endpoint-format.js';
import { hasVelocityForm } from './velocity-format.js';
import * as repo from './webhooks.repository.js';

export type WebhooksService = ReturnType<typeof createWebhooksService>;

/** whsec_ and the base64 of 24 random bytes (Standard Webhooks' format; the package decodes it). */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export const endpointView = (row: repo.EndpointRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  // Standard endpoints answer as they did before formats existed.
  ...(row.format === 'velocity' && {
    format: 'velocity' as const,
    api_key: maskKey(row.apiKey ?? ''),
    api_key_header: row.apiKeyHeader ?? '',
  }),
  description: row.description,
  status: row.status as 'enabled' | 'disabled',
  disabled_reason: row.disabledReason,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const withSecret = (row: repo.EndpointRow) => ({ ...endpointView(row), secret: row.secret });

const deliveryView = (row: repo.DeliveryRow, type: string, attempts: repo.AttemptRow[]) => ({
  id: row.id,
  event_id: row.eventId,
  event_type: type,
  status: row.status as 'pending' | 'succeeded' | 'failed',
  attempt_count: row.attempts,
  next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  attempts: attempts.map((a) => ({
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    error: a.error,
    attempted_at: a.attemptedAt.toISOString(),
  })),
});

interface Input {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: 'enabled' | 'disabled';
  format?: WebhookFormat;
  api_key?: string;
  api_key_header?: string;
}

const DEFAULT_LIMIT = 50;

/**
 * `clock` dates the endpoints, as every resource; deliveries are dated by `deliveryClock` (real
 * time), since the worker schedules their retries on the network's time.
 */
export function createWebhooksService({
  db,
  clock,
  deliveryClock,
  rules,
  wake,
}: {
  db: Db;
  clock: Clock;
  deliveryClock: Clock;
  rules: OutboundRules;
  wake: () => void;
}) {
  /**
   * A URL fit to receive events: https (unless allowed), resolving only to addresses a server may
   * reach. A host that does not resolve yet is accepted with a warning (DNS often comes later);
   * each send resolves it again and refuses it then if it resolves to an address refused here.
   */
  async function checkUrl(url: string): Promise<FieldError[]> {
    try {
      await resolveTarget(url, rules);
      return [];
    } catch (error) {
      if (error instanceof OutboundRefused) throw outboundUrlRefused('url', error.message);
      if (error instanceof UnresolvedHost) {
        return [
          {
            field: 'url',
            message: `${error.message} (yet): the endpoint is saved, and each delivery fails until it resolves to a public address`,
          },
        ];
      }
      throw error;
    }
  }

  /** The endpoint as answers show it, with whether the server's settings now refuse its URL. */
  const judged = async (row: repo.EndpointRow) => ({
    ...endpointView(row),
    refused_reason: await refusalOf(row.url, rules),
  });

  async function requireEndpoint(accountId: string, id: string) {
    const row = await repo.findEndpoint(db, accountId, id);
    if (!row) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
    return row;
  }

  async function deliveriesView(accountId: string, rows: repo.DeliveryRow[]) {
    const attempts = await repo.attemptsOf(
      db,
      accountId,
      rows.map((r) => r.id),
    );
    const types = await repo.eventTypes(
      db,
      rows.map((r) => r.eventId),
    );
    return rows.map((row) =>
      deliveryView(
        row,
        types.get(row.eventId)!,
        attempts.filter((a) => a.deliveryId === row.id),
      ),
    );
  }

  const record = auditRecorder(clock);
  return {
    async create(
      actor: Actor,
      input: Required<Pick<Input, 'url' | 'events'>> & Omit<Input, 'url' | 'events' | 'status'>,
    ) {
      const { accountId } = actor;
      const format = formatSettings(input, undefined);
      const warnings = await checkUrl(input.url);
      const now = clock.now();
      // The fan-out's cursor was made with the database: it owes the endpoint every event from now
      // on, even those recorded before any worker first runs (WEBHOOK_WORKER=false, `npm run worker` later).
      const row = await db.transaction(async (tx) => {
        const made = await repo.insertEndpoint(tx, accountId, {
          url: input.url,
          ...format,
          description: input.description ?? null,
          status: 'enabled',
          secret: newSecret(),
          createdAt: now,
          updatedAt: now,
        });
        // The URL as logs show it: a token in its query is not written down.
        await record(tx, actor, {
          action: 'webhook.created',
          objectType: 'webhook_endpoint',
          objectId: made.id,
          changes: { url: urlForLog(made.url), events: input.events, format: made.format },
        });
        return made;
      });
      return { ...withSecret(row), refused_reason: null, ...(warnings.length > 0 && { warnings }) };
    },

    list: async (accountId: string) => Promise.all((await repo.listEndpoints(db, accountId)).map(judged)),

    get: async (accountId: string, id: string) => judged(await requireEndpoint(accountId, id)),

    /** Partial update; `status: "enabled"` re-enables a disabled endpoint and forgets its failures. */
    async update(actor: Actor, id: string, input: Input) {
      const { accountId } = actor;
      if (Object.values(input).every((v) => v === undefined)) {
        throw invalid('Send at least one of url, events, description, format, api_key, api_key_header or status');
      }
      const warnings = input.url === undefined ? [] : await checkUrl(input.url);
      const now = clock.now();
      const updated = await db.transaction(async (tx) => {
        const current = await repo.findEndpoint(tx, accountId, id, true);
        if (!current) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
        const status = input.status ?? current.status;
        const updated = await repo.updateEndpoint(tx, accountId, id, {
          ...(input.url !== undefined && { url: input.url }),
          ...formatSettings(input, current),
          ...(input.description !== undefined && { description: input.description }),
          status,
          ...(input.status === 'enabled' && { disabledReason: null, failingSince: null, failedEvents: 0 }),
          ...(input.status === 'disabled' && current.status === 'enabled' && { disabledReason: null }),
          updatedAt: now,
        });
        if (status === 'disabled') await repo.failPending(tx, accountId, id, now);
        // By name only: api_key is a secret, and a URL may carry one.
        const fields = Object.keys(input).filter((field) => input[field as keyof Input] !== undefined);
        await record(tx, actor, {
          action: 'webhook.changed',
          objectType: 'webhook_endpoint',
          objectId: id,
          changes: { fields: fields.sort(), status },
        });
        return updated!;
      });
      return { ...(await judged(updated)), ...(warnings.length > 0 && { warnings }) };
    },

    /** Deletes the endpoint (404 from then on); its pending deliveries are given up. */
    async remove(actor: Actor, id: string) {
      const { accountId } = actor;
      const now = clock.now();
      await db.transaction(async (tx) => {
        const removed = await repo.updateEndpoint(tx, accountId, id, { deletedAt: now, updatedAt: now });
        if (!removed) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
        await repo.failPending(tx, accountId, id, now);
        await record(tx, actor, { action: 'webhook.deleted', objectType: 'webhook_endpoint', objectId: id });
      });
    },

    async rotateSecret(actor: Actor, id: string) {
      const updated = await db.transaction(async (tx) => {
        const rotated = await repo.updateEndpoint(tx, actor.accountId, id, {
          secret: newSecret(),
          updatedAt: clock.now(),
        });
        if (!rotated) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
        await record(tx, actor, { action: 'webhook.secret_rotated', objectType: 'webhook_endpoint', objectId: id });
        return rotated;
      });
      return { ...withSecret(updated), refused_reason: await refusalOf(updated.url, rules) };
    },

    /** Queues a webhook.test event for this endpoint alone; the answer is the delivery to follow. */
    async sendTest(actor: Actor, id: string) {
      const { accountId } = actor;
      const now = clock.now();
      const delivery = await db.transaction(async (tx) => {
        const endpoint = await repo.findEndpoint(tx, accountId, id, true);
        if (!endpoint) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
        if (endpoint.status !== 'enabled')
          throw WEBHOOK_ERRORS.webhook_endpoint_disabled.error(
            'The endpoint is disabled: enable it (PUT status "enabled") first',
            'id',
          );
        const event = await insertEvent(tx, accountId, {
          type: TEST_EVENT_TYPE,
          subjectType: 'webhook_endpoint',
          subjectId: id,
          data: { webhook: endpointView(endpoint), message: 'A test event from Dakiya' },
          createdAt: now,
        });
        await record(tx, actor, { action: 'webhook.test_sent', objectType: 'webhook_endpoint', objectId: id });
        return repo.insertDelivery(tx, accountId, id, event.id, deliveryClock.now());
      });
      wake();
      return (await deliveriesView(accountId, [delivery]))[0]!;
    },

    async deliveries(accountId: string, id: string, query: { limit?: string; before?: string }) {
      await requireEndpoint(accountId, id);
      const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
      let before: { createdAt: Date; id: string } | undefined;
      if (query.before !== undefined) {
        const cursor = await repo.findDelivery(db, accountId, id, query.before);
        if (!cursor) throw cursorUnknown('before must be the id of one of this endpoint\u2019s deliveries', 'before');
        before = { createdAt: cursor.createdAt, id: cursor.id };
      }
      const rows = await repo.listDeliveries(db, accountId, id, limit + 1, before);
      const page = rows.slice(0, limit);
      return {
        data: await deliveriesView(accountId, page),
        meta: { next_before: rows.length > limit ? page.at(-1)!.id : null },
      };
    },

    /** Sends the delivery's event again, as a new delivery with a fresh retry schedule and the same webhook-id. */
    async redeliver(actor: Actor, id: string, deliveryId: string) {
      const { accountId } = actor;
      const delivery = await db.transaction(async (tx) => {
        const endpoint = await repo.findEndpoint(tx, accountId, id, true);
        if (!endpoint) throw WEBHOOK_ERRORS.webhook_endpoint_not_found.error('Webhook endpoint not found');
        const original = await repo.findDelivery(tx, accountId, id, deliveryId);
        if (!original) throw WEBHOOK_ERRORS.webhook_delivery_not_found.error('Delivery not found');
        if (endpoint.status !== 'enabled')
          throw WEBHOOK_ERRORS.webhook_endpoint_disabled.error(
            'The endpoint is disabled: enable it (PUT status "enabled") first',
          );
        const [event] = await findEventsByIds(tx, [original.eventId]);
        if (endpoint.format === 'velocity' && event && !hasVelocityForm(event)) {
          throw WEBHOOK_ERRORS.webhook_event_has_no_velocity_form.error([
            `${event.type} has no form in Velocity's webhook format, which this endpoint now receives: it cannot be sent to it again`,
          ]);
        }
        await record(tx, actor, {
          action: 'webhook.redelivered',
          objectType: 'webhook_endpoint',
          objectId: id,
          changes: { delivery_id: deliveryId, event_type: event?.type ?? null },
        });
        return repo.insertDelivery(tx, accountId, id, original.eventId, deliveryClock.now());
      });
      wake();
      return (await deliveriesView(accountId, [delivery]))[0]!;
    },
  };
}
