import type { Clock } from '../../base/clock.js';
import type { EventLog } from '../../events/event-log.js';
import { type Db, type Executor, inTransaction, type Tx } from '../../base/db/client.js';
import type { ReturnAddress } from '../../base/db/schema.js';
import type { Language } from '../../domain/buyer-copy/page-words.js';
import { refusalText } from '../../domain/buyer-copy/return-request-words.js';
import { type ReturnRequestFacts, returnRequestRefusals } from '../../domain/return-requests/return-request-rules.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import * as policies from './return-policy.repository.js';
import { RETURN_REQUEST_ERRORS } from './return-requests.errors.js';
import { findRequestItems, type ReturnRequestView, requestView } from '../../shipment-records/return-request-view.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
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
  photos: number;
  /** The buyer's language: refusals are worded in it, and the buyer is written to in it. */
  language: Language;
}

type Locked = NonNullable<Awaited<ReturnType<typeof repo.lockShipment>>>;

/** Where the order was delivered: the pickup address unless the buyer gives another. */
const deliveryAddress = ({ order }: Locked): ReturnAddress => ({
  name: order.shippingName,
  last_name: order.shippingLastName,
  address: order.shippingAddress,
  address_2: order.shippingAddress2,
  city: order.shippingCity,
  state: order.shippingState,
  country: order.shippingCountry,
  pincode: order.shippingPincode,
  email: order.shippingEmail,
  phone: order.shippingPhone,
});

export type ReturnRequestsService = ReturnType<typeof createReturnRequestsService>;

export type { ReturnRequestView };

export interface ReturnRequestsContext {
  db: Db;
  clock: Clock;
  events: Pick<EventLog, 'record'>;
}

export function createReturnRequestsService({ db, clock, events }: ReturnRequestsContext) {
  /** What the rules judge a request of this shipment by, as of now. */
  async function factsOf(tx: Executor, accountId: string, locked: Locked): Promise<ReturnRequestFacts> {
    const { shipment } = locked;
    const [policy, items, asked, returnUnderWay] = await Promise.all([
      shipment.storeId === null ? undefined : policies.findPolicy(tx, accountId, shipment.storeId),
      repo.findOrderItems(tx, accountId, shipment.orderId),
      repo.findAskedItems(tx, accountId, shipment.id),
      repo.hasReturnUnderWay(tx, accountId, shipment.id),
    ]);
    return {
      status: shipment.status as ShipmentStatus,
      deliveredAt: shipment.deliveredAt,
      items: items.map((item) => ({ sku: item.sku, name: item.name, units: item.units, category: null })),
      unitsAsked: new Map(asked.map((a) => [a.sku, Number(a.units)])),
      openSkus: new Set(asked.filter((a) => a.open).map((a) => a.sku)),
      returnUnderWay,
      policy: {
        windowDays: policy?.windowDays ?? 0,
        reasons: policy?.reasons ?? [],
        nonReturnableSkus: policy?.nonReturnableSkus ?? [],
        nonReturnableCategories: policy?.nonReturnableCategories ?? [],
      },
      now: clock.now(),
    };
  }

  const service = {
    /** Judges and keeps a buyer's request for items of a delivered shipment; every refusal in the buyer's words. */
    async ask(
      accountId: string,
      shipmentId: string,
      input: ReturnRequestInput,
      outer?: Tx,
    ): Promise<ReturnRequestView> {
      return inTransaction(db, outer, async (tx) => {
        const locked = await repo.lockShipment(tx, accountId, shipmentId);
        if (!locked) throw RETURN_REQUEST_ERRORS.return_request_shipment_not_found.error('Shipment not found');
        const facts = await factsOf(tx, accountId, locked);
        const refusals = returnRequestRefusals(facts, {
          items: input.items,
          reason: input.reason,
          photos: input.photos,
        });
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
            language: input.language,
            decidedAt: null,
            decisionNote: null,
            returnId: null,
            createdAt: now,
            updatedAt: now,
          },
          input.items.map((item, position) => ({
            position,
            sku: item.sku,
            name: names.get(item.sku)!,
            units: item.quantity,
          })),
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
        return made;
      });
    },

    /** A request the merchant files for a buyer (their support desk, say): the pickup is the delivery address. */
    async create(accountId: string, input: CreateReturnRequestInput, outer?: Tx): Promise<ReturnRequestView> {
      return service.ask(
        accountId,
        input.shipment_id,
        {
          items: input.items,
          reason: input.reason,
          comment: input.comment,
          resolution: input.resolution as Resolution,
          exchangeFor: input.exchange_for,
          photos: 0,
          language: (input.language ?? 'en') as Language,
        },
        outer,
      );
    },

    /** `GET /return-requests`: oldest first, after a cursor; the pending ones are the merchant's queue. */
    async list(accountId: string, query: ListReturnRequestsInput) {
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      const after =
        query.after === undefined ? undefined : (await repo.findRequest(db, accountId, query.after))?.request;
      if (query.after !== undefined && !after)
        throw cursorUnknown('after must be the id of one of your return requests', 'after');
      const rows = await repo.listRequests(db, accountId, {
        status: query.status,
        storeId: query.store_id,
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
      return {
        data: page.map((row) =>
          requestView(
            row,
            items.filter((item) => item.requestId === row.id),
          ),
        ),
        meta: { next_after: page.at(-1)?.id ?? query.after ?? null, has_more: rows.length > limit },
      };
    },

    async get(accountId: string, requestId: string): Promise<ReturnRequestView> {
      const found = await repo.findRequest(db, accountId, requestId);
      if (!found) throw RETURN_REQUEST_ERRORS.return_request_not_found.error('Return request not found');
      return repo.viewOf(found);
    },
  };
  return service;
}
