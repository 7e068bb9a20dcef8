/**
 * Bookings and cancellations of one shipment that meet: the courier's parcel and our record of it
 * must agree whoever wins, and an idempotent request must not wait on a connection its own
 * transaction holds (the embedded database has one). Where the courier's side is asserted, it is
 * read from the sandbox courier's own books (sandbox_parcels): what a real courier would hold.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import type { TestContext } from '../../../test/app.js';
import { sandboxMerchant } from '../../../test/kit/couriers.js';
import { ASSIGN, authed, CANCEL, FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';

describe('bookings and cancellations that meet', () => {
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    ({ ctx, apiKey, warehouseId } = await sandboxMerchant(60));
  });
  afterAll(() => ctx?.close());

  const keyed = (url: string, key: string, payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...authed(apiKey), 'idempotency-key': `${key}-${process.pid}` },
      payload,
    });
  const parcels = (awbs: string[]) =>
    queryRows<{ awb: string; cancelled: boolean }>(
      ctx.database.db,
      sql`select awb, cancelled_at is not null as cancelled from sandbox_parcels where awb = any(${sql.param(awbs)}::text[])`,
    );
  const draft = async () =>
    (await post(ctx, apiKey, FORWARD_ORDER, orderBody(warehouseId))).json().payload.shipment_id as string;
  const shipment = async (id: string) =>
    (
      await queryRows<{ status: string; awb: string | null }>(
        ctx.database.db,
        sql`select status, awb from shipments where id = ${id}::uuid`,
      )
    )[0]!;

  it('an Idempotency-Key cancellation calls the sandbox parcel off inside its own transaction, and its replay answers the same', async () => {
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId));
    // On the embedded database this waited for ever: the sandbox cancelled through a second connection.
    const first = await keyed(CANCEL, 'keyed-cancel', { awbs: [booked.awb_code] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().results).toEqual([{ awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' }]);
    const replay = await keyed(CANCEL, 'keyed-cancel', { awbs: [booked.awb_code] });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await parcels([booked.awb_code!])).toEqual([{ awb: booked.awb_code, cancelled: true }]);
  });

  it('an Idempotency-Key booking of an order id already taken answers 422, leaves no parcel, and the server goes on answering', async () => {
    const body = orderBody(warehouseId);
    await orchestrate(ctx, apiKey, body);
    const again = await keyed(ORCHESTRATE, 'keyed-duplicate', body);
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json().errors).toEqual([`Order '${body.order_id}' already exists`]);
    // Its parcel went with the rolled-back transaction: the order's one parcel is the first booking's.
    const rows = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from sandbox_parcels p join shipments s on s.id::text = p.reference`,
    );
    const shipments = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from shipments where awb is not null`,
    );
    expect(rows[0]!.n).toBe(shipments[0]!.n);
    const next = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId));
    expect(next.statusCode, next.body).toBe(200);
  });

  it('two bookings of one draft at once: one wins, and the loser does not cancel the parcel the winner stored', async () => {
    for (let round = 0; round < 8; round++) {
      const id = await draft();
      const answers = await Promise.all([
        post(ctx, apiKey, ASSIGN, { shipment_id: id }),
        post(ctx, apiKey, ASSIGN, { shipment_id: id }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
      const lost = answers.find((a) => a.statusCode === 422)!;
      expect(lost.json().errors).toEqual(['A courier is already assigned to this shipment']);
      const won = answers.find((a) => a.statusCode === 200)!.json().payload;
      expect(await parcels([won.awb_code])).toEqual([{ awb: won.awb_code, cancelled: false }]);
    }
  });

  it('a cancellation racing a booking of the same draft never leaves a cancelled shipment whose parcel is still booked', async () => {
    for (let round = 0; round < 40; round++) {
      const id = await draft();
      const booking = post(ctx, apiKey, ASSIGN, { shipment_id: id });
      await new Promise((resolve) => setTimeout(resolve, round % 12));
      const cancel = await post(ctx, apiKey, CANCEL, { shipment_id: id });
      expect(cancel.statusCode, cancel.body).toBe(200);
      await booking;
      const now = await shipment(id);
      if (now.awb) {
        const [parcel] = await parcels([now.awb]);
        // Cancelled here means called off there; a live parcel means a live shipment.
        expect({ status: now.status, parcelCancelled: parcel!.cancelled }).toEqual(
          now.status === 'cancelled'
            ? { status: 'cancelled', parcelCancelled: true }
            : { status: now.status, parcelCancelled: false },
        );
      }
    }
  });

  it('ids a uuid column would refuse are refused as input (400 or 422), not carried to the database', async () => {
    const urn = await post(ctx, apiKey, ASSIGN, { shipment_id: 'urn:uuid:00000000-0000-4000-8000-000000000000' });
    expect(urn.statusCode, urn.body).toBe(400);
    expect(urn.json().errors).toEqual(['shipment_id must match format "uuid"']);
    const dashes = await post(ctx, apiKey, FORWARD_ORDER, orderBody('-'.repeat(36)));
    expect(dashes.statusCode, dashes.body).toBe(422);
    expect(dashes.json().errors).toContain(`Warehouse '${'-'.repeat(36)}' not found: create it first`);
  });
});
