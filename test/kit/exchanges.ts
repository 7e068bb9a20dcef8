import { randomUUID } from 'node:crypto';
import type { TestContext } from '../app.js';
import { exchanges } from '../../src/base/db/schema.js';
import { type Booked, book, nextOrderId, type OrderFields } from './orders.js';
import { type BookedReturn, bookReturn, type ReturnFields } from './returns.js';

// Exchanges, until POST /exchange-order-orchestration (features/exchanges) lands: both legs are
// booked through HTTP as any forward order and return, then linked by an `exchanges` row written
// here. bookExchangeForTest is the one place that knows this, so it can become a call to the
// booking route without any test changing.

export interface ExchangeFields {
  /** The caller's order_id: the exchange's display_id (and the replacement order's own id). */
  displayId?: string;
  /** The replacement: the forward order's fields (Shadowfax unless another carrierId). */
  forward?: OrderFields;
  /** false: the replacement order is made without a courier (forward-order). */
  forwardBooked?: boolean;
  /** The old item: the return's fields (booked with a courier unless `returnBooked` is false). */
  back?: ReturnFields;
  returnBooked?: boolean;
  channel?: string;
  returnReason?: string;
  releaseOn?: 'at_once' | 'return_picked_up' | 'qc_passed';
  /** Defaults to true when releaseOn waits on the return, false for at_once. */
  replacementHeld?: boolean;
  qcChargePaise?: number | null;
  exchangeChargePaise?: number;
  qcFailedAt?: Date;
}

export interface BookedExchange {
  id: string;
  display_id: string;
  unique_id: string;
  forward: Booked;
  back: BookedReturn;
}

let exchangeCounter = 0;

/** An exchange of the merchant's: its replacement booked, its old item's return booked, the two linked. */
export async function bookExchangeForTest(
  ctx: TestContext,
  m: { id: string; apiKey: string; warehouseId: string },
  f: ExchangeFields = {},
): Promise<BookedExchange> {
  const displayId = f.displayId ?? nextOrderId('EXC');
  const forward = await book(
    ctx,
    m.apiKey,
    m.warehouseId,
    { orderId: displayId, ...f.forward },
    f.forwardBooked ?? true,
  );
  const back = await bookReturn(
    ctx,
    m.apiKey,
    m.warehouseId,
    { orderId: `${displayId}-R`, ...f.back },
    f.returnBooked ?? true,
  );
  const releaseOn = f.releaseOn ?? 'at_once';
  const id = randomUUID();
  const uniqueId = `EX${String(++exchangeCounter).padStart(6, '0')}${process.pid.toString(36).toUpperCase().slice(-4).padStart(4, '0')}`;
  const now = ctx.clock.now();
  await ctx.database.db.insert(exchanges).values({
    id,
    accountId: m.id,
    displayId,
    uniqueId,
    channel: f.channel ?? 'website',
    returnReason: f.returnReason ?? 'Return',
    forwardOrderId: forward.order_id,
    forwardShipmentId: forward.shipment_id,
    returnId: back.return_id,
    releaseOn,
    replacementHeld: f.replacementHeld ?? releaseOn !== 'at_once',
    qcFailedAt: f.qcFailedAt ?? null,
    qcChargePaise: f.qcChargePaise ?? null,
    exchangeChargePaise: f.exchangeChargePaise ?? 0,
    createdAt: now,
    updatedAt: now,
  });
  return { id, display_id: displayId, unique_id: uniqueId, forward, back };
}
