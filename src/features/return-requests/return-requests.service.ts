import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { IfscDirectory } from '../../domain/banking/ifsc.js';
import {
  maskPayee,
  readRefundTo,
  refundMethodsFor,
  type RefundToInput,
} from '../../domain/return-requests/refund-payee.js';
import type { EventLog } from '../../events/event-log.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import type { ReturnAddress } from '../../base/db/schema.js';
import type { Language } from '../../domain/buyer-copy/page-words.js';
import { refusalText } from '../../domain/buyer-copy/return-request-words.js';
import {
  type GateFacts,
  lastReturnDay,
  requestGate,
  returnableItems,
  returnRequestRefusals,
} from '../../domain/return-requests/return-request-rules.js';
import { formatDay } from '../../domain/calendar.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { RETURN_REQUEST_ERRORS } from './return-requests.errors.js';
import { findRequestItems, type ReturnRequestView, requestView } from '../../shipment-records/return-request-view.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
import type { AutoDecide } from './auto-decide.js';
import { buyerHistories } from './buyer-history.js';
import type { ReturnPhoto } from './return-photos.js';
import { deliveryAddress, factsOf, pickupFacts } from './return-request-facts.js';
import * as repo from './return-requests.repository.js';
import type { CreateReturnRequestInput, ListReturnRequestsInput } from './return-requests.schemas.js';

// A buyer's return request (docs/returns.md): judged by the rules on the store's policy and what the
// order's earlier requests asked for, then kept, pending the merchant's decision.

export type Resolution = 'refund' | 'exchange';

export interface ReturnRequestInput {
  items: { sku: string; quantity: number }[];
  reason: string;
  comment?: string | undefined;
  resolution: Resolution;
  /** For an exchange: the size, colour or SKU wanted instead. */
  exchangeFor?: string | undefined;
  /** Where the courier collects the items; the delivery address when not given. */
  pickup?: ReturnAddress | undefined;
  /** Read and re-encoded already (return-photos.ts). */
  photos: ReturnPhoto[];
  /** The buyer's language: refusals are worded in it, and the buyer is written to in it. */
  language: Language;
  /** For a refund: how the buyer is paid (refund-payee.ts). */
  refundTo?: RefundToInput | undefined;
  /** Whether a COD refund must name its method (the buyer's form asks; the API may leave it to be agreed). */
  refundMethodRequired?: boolean;
}

/** The merchant's views of requests: each with its buyer's record beside it. */
async function withBuyerHistory(ex: Executor, accountId: string, views: ReturnRequestView[]) {
  const histories = await buyerHistories(ex, accountId, views);
  return views.map((view) => ({ ...view, buyer_history: histories.get(view.id)! }));
}

export type ReturnRequestsService = ReturnType<typeof createReturnRequestsService>;

export type { ReturnRequestView };

export interface ReturnRequestsContext {
  db: Db;
  clock: Clock;
  events: Pick<EventLog, 'record'>;
  rates: Pick<RatesContext, 'directory' | 'regions' | 'catalogue'>;
  /** Seals the bank details a buyer gives for a refund. */
  secretBox: Pick<SecretBox, 'seal'>;
  /** The published IFSC list a bank account's branch is checked against. */
  banks: IfscDirectory;
}

export function createReturnRequestsService(
  { db, clock, events, rates, secretBox, banks }: ReturnRequestsContext,
  /** The store's auto rules, deciding a request as it is made (auto-decide.ts); none: every request waits. */
  autoDecide?: AutoDecide,
) {
  const record = auditRecorder(clock);
  const service = {
    /** Judges and keeps a buyer's request for items of a delivered shipment; every refusal in the buyer's words. */
    async ask(actor: Actor, shipmentId: string, input: ReturnRequestInput, outer?: Tx): Promise<ReturnRequestView> {
      const { accountId } = actor;
      return inTransaction(db, outer, async (tx) => {
        const locked = await repo.findShipment(tx, accountId, shipmentId, 'lock');
        if (!locked) throw RETURN_REQUEST_ERRORS.return_request_shipment_not_found.error('Shipment not found');
        const facts = await factsOf(tx, accountId, locked, clock.now());
        const refund =
          input.resolution === 'refund'
            ? readRefundTo(input.refundTo, { ...facts.refund, required: input.refundMethodRequired ?? false }, banks)
            : { payee: undefined, refusals: [] };
        const refusals = [
          ...returnRequestRefusals(facts, {
            items: input.items,
            reason: input.reason,
            photos: input.photos.length,
            pickup: input.pickup && pickupFacts(rates, input.pickup, locked.warehousePincode),
          }),
          ...refund.refusals,
        ];
        if (refusals.length > 0) {
          const details = refusals.map((refusal) => ({
            field: refusal.field,
            message: refusalText(refusal, facts.items, input.language),
          }));
          throw RETURN_REQUEST_ERRORS.return_request_refused.error(
            details.map((d) => d.message),
            details,
          );
        }
        const now = clock.now();
        const id = crypto.randomUUID();
        const names = new Map(facts.items.map((item) => [item.sku, item.name]));
        await repo.insertRequest(
          tx,
          {
            id,
            accountId,
            shipmentId,
            orderId: locked.shipment.orderId,
            // A store's policy let it through: the shipment has a store.
            storeId: locked.shipment.storeId!,
            status: 'pending',
            reason: input.reason,
            comment: input.comment ?? null,
            resolution: input.resolution,
            exchangeFor: input.resolution === 'exchange' ? (input.exchangeFor ?? null) : null,
            pickup: input.pickup ?? deliveryAddress(locked),
            refundTo: refund.payee ? maskPayee(refund.payee) : null,
            // Only a UPI id or an account is the buyer's to keep secret; a method alone is not.
            refundToSealed:
              refund.payee && (refund.payee.method === 'upi' || refund.payee.method === 'bank_transfer')
                ? secretBox.seal(JSON.stringify(refund.payee))
                : null,
            photos: input.photos.map((photo, position) => ({
              position,
              content_type: photo.contentType,
              width: photo.width,
              height: photo.height,
              size: photo.bytes.length,
            })),
            language: input.language,
            decidedAt: null,
            decisionNote: null,
            decidedBy: null,
            decisionRule: null,
            returnId: null,
            exchangeId: null,
            createdAt: now,
            updatedAt: now,
          },
          input.items.map((item, position) => ({
            position,
            sku: item.sku,
            name: names.get(item.sku)!,
            units: item.quantity,
          })),
          input.photos,
        );
        const made = repo.viewOf((await repo.findRequest(tx, accountId, id))!);
        await events.record(
          tx,
          accountId,
          {
            type: 'return_request.created',
            subjectType: 'return_request',
            subjectId: id,
            data: { return_request: made },
          },
          now,
        );
        await record(tx, actor, {
          action: 'return_request.created',
          objectType: 'return_request',
          objectId: id,
          changes: { shipment_id: shipmentId, resolution: input.resolution, reason: input.reason },
        });
        return autoDecide ? autoDecide(tx, accountId, made) : made;
      });
    },

    /** A request the merchant files for a buyer (their support desk, say): the pickup is the delivery address. */
    async create(actor: Actor, input: CreateReturnRequestInput, outer?: Tx): Promise<ReturnRequestView> {
      return service.ask(
        actor,
        input.shipment_id,
        {
          items: input.items,
          reason: input.reason,
          comment: input.comment,
          resolution: input.resolution as Resolution,
          exchangeFor: input.exchange_for,
          refundTo: input.refund_to,
          photos: [],
          language: (input.language ?? 'en') as Language,
        },
        outer,
      );
    },

    /** `GET /return-requests`: oldest first, after a cursor; the pending ones are the merchant's queue. */
    /** Of every store, or of the stores `reach` names (a store-limited credential's). */
    async list(accountId: string, query: ListReturnRequestsInput, reach: readonly string[] | null = null) {
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      const after =
        query.after === undefined ? undefined : (await repo.findRequest(db, accountId, query.after))?.request;
      if (query.after !== undefined && !after)
        throw cursorUnknown('after must be the id of one of your return requests', 'after');
      const rows = await repo.listRequests(db, accountId, {
        status: query.status,
        storeId: query.store_id,
        ...(reach !== null && { storeIds: reach }),
        shipmentId: query.shipment_id,
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const items = await findRequestItems(
        db,
        accountId,
        page.map((row) => row.id),
      );
      const views = page.map((row) =>
        requestView(
          row,
          items.filter((item) => item.requestId === row.id),
        ),
      );
      return {
        data: await withBuyerHistory(db, accountId, views),
        meta: { next_after: page.at(-1)?.id ?? query.after ?? null, has_more: rows.length > limit },
      };
    },

    /** `GET /return-requests/{id}`: with the buyer's history, as the queue shows it. */
    async get(accountId: string, requestId: string) {
      const [queued] = await withBuyerHistory(db, accountId, [await service.view(accountId, requestId)]);
      return queued!;
    },

    async view(accountId: string, requestId: string): Promise<ReturnRequestView> {
      const found = await repo.findRequest(db, accountId, requestId);
      if (!found) throw RETURN_REQUEST_ERRORS.return_request_not_found.error('Return request not found');
      return repo.viewOf(found);
    },

    /**
     * Whether a delivered shipment's page links the return form: while its store takes requests for
     * it, and once the buyer has asked (to see their requests), as `buyerForm` would show.
     */
    async offersForm(accountId: string, shipmentId: string): Promise<boolean> {
      const offer = await repo.findFormOffer(db, accountId, shipmentId);
      if (!offer) return false;
      const gate = requestGate({
        status: offer.status as GateFacts['status'],
        deliveredAt: offer.deliveredAt,
        returnUnderWay: offer.returnUnderWay,
        policy: { windowDays: offer.windowDays ?? 0 },
        now: clock.now(),
      });
      return gate === undefined || offer.asked;
    },

    /**
     * What the buyer's form shows for a shipment: whether it takes a request now (and if not, why),
     * the window's last day, each item with what may still be asked for, the store's reasons, the
     * delivery address to prefill, and the shipment's requests so far, newest first.
     */
    async buyerForm(accountId: string, shipmentId: string) {
      const found = await repo.findShipment(db, accountId, shipmentId, 'read');
      if (!found) return undefined;
      const facts = await factsOf(db, accountId, found, clock.now());
      const rows = await repo.listRequests(db, accountId, { shipmentId, limit: 100, newestFirst: true });
      const items = await findRequestItems(
        db,
        accountId,
        rows.map((row) => row.id),
      );
      const lastDay = lastReturnDay(facts);
      return {
        gate: requestGate(facts),
        lastDay: lastDay === undefined ? null : formatDay(lastDay),
        items: returnableItems(facts),
        reasons: facts.policy.reasons,
        refundMethods: refundMethodsFor(facts.refund),
        pickup: deliveryAddress(found),
        requests: rows.map((row) =>
          requestView(
            row,
            items.filter((item) => item.requestId === row.id),
          ),
        ),
      };
    },

    /** One of a request's photos, as stored: the 404 says whether the request or the photo is missing. */
    async photo(accountId: string, requestId: string, position: number) {
      const photo = await repo.findPhoto(db, accountId, requestId, position);
      if (photo) return photo;
      await service.view(accountId, requestId);
      throw RETURN_REQUEST_ERRORS.return_request_photo_not_found.error('Photo not found', 'position');
    },
  };
  return service;
}
