import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, returnRequests, rtoHistory } from '../../base/db/schema.js';

/**
 * A buyer's record with the account, by the phone their order was delivered to: what the store's
 * auto rules judge a request by (buyer_returns_*, buyer_rto_*) and what the merchant's queue shows
 * beside it. Deliveries, RTOs and refusals are the counts RTO risk is scored on (rto_history, kept
 * by the tracking intake), so the rules, the queue and a booking's risk say the same thing.
 */
export interface BuyerHistory {
  /** Forward shipments delivered to this phone. */
  delivered: number;
  /** Forward shipments that went back to origin. */
  rto: number;
  /** Delivery attempts the courier reported refused. */
  refused: number;
  /** The buyer's other return requests with the account, and how many of them were approved. */
  other_return_requests: number;
  other_returns_approved: number;
}

const NONE: BuyerHistory = { delivered: 0, rto: 0, refused: 0, other_return_requests: 0, other_returns_approved: 0 };

/**
 * Each request's buyer history, by request id: three statements for any number of requests (the
 * requests' phones, those phones' outcomes, those phones' requests), so a page of the queue pays
 * the same as one request.
 */
export async function buyerHistories(
  ex: Executor,
  accountId: string,
  requests: readonly { id: string; order_id: string; status: string }[],
): Promise<Map<string, BuyerHistory>> {
  const histories = new Map<string, BuyerHistory>();
  if (requests.length === 0) return histories;
  const phoneRows = await ex
    .select({ orderId: orders.id, phone: orders.shippingPhone })
    .from(orders)
    .where(
      and(
        eq(orders.accountId, accountId),
        inArray(orders.id, [...new Set(requests.map((request) => request.order_id))]),
      ),
    );
  const phoneOf = new Map(phoneRows.map((row) => [row.orderId, row.phone]));
  const phones = [...new Set(phoneRows.map((row) => row.phone))];
  // One after another: `ex` may be a transaction, whose one connection takes one query at a time.
  const outcomes = await ex
    .select({
      phone: rtoHistory.key,
      delivered: rtoHistory.delivered,
      rto: rtoHistory.rto,
      refused: rtoHistory.refused,
    })
    .from(rtoHistory)
    .where(and(eq(rtoHistory.accountId, accountId), eq(rtoHistory.kind, 'phone'), inArray(rtoHistory.key, phones)));
  const asked = await ex
    .select({
      phone: orders.shippingPhone,
      requests: sql<number>`count(*)::int`,
      approved: sql<number>`(count(*) filter (where ${returnRequests.status} = 'approved'))::int`,
    })
    .from(returnRequests)
    .innerJoin(orders, and(eq(orders.accountId, accountId), eq(orders.id, returnRequests.orderId)))
    .where(and(eq(returnRequests.accountId, accountId), inArray(orders.shippingPhone, phones)))
    .groupBy(orders.shippingPhone);
  const outcomesOf = new Map(outcomes.map((row) => [row.phone, row]));
  const askedOf = new Map(asked.map((row) => [row.phone, row]));
  for (const request of requests) {
    const phone = phoneOf.get(request.order_id);
    if (phone === undefined) {
      histories.set(request.id, NONE);
      continue;
    }
    const outcome = outcomesOf.get(phone);
    const theirs = askedOf.get(phone);
    // The buyer's requests include this one: the history is of the others.
    histories.set(request.id, {
      delivered: outcome?.delivered ?? 0,
      rto: outcome?.rto ?? 0,
      refused: outcome?.refused ?? 0,
      other_return_requests: Math.max(0, Number(theirs?.requests ?? 0) - 1),
      other_returns_approved: Math.max(0, Number(theirs?.approved ?? 0) - (request.status === 'approved' ? 1 : 0)),
    });
  }
  return histories;
}
