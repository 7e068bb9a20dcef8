import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/app.js';
import { DELHIVERY_SURFACE, DTDC } from '../../../test/kit/couriers.js';
import { delhiveryMerchant } from '../../../test/kit/delhivery.js';
import { EXCHANGE, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { post } from '../../../test/kit/http.js';
import { queryRows } from '../../base/db/client.js';

// Both legs or neither, at the courier too: the replacement booked at Delhivery (its API's local
// simulator) is cancelled there when the pickup's leg is then refused.

describe('an exchange whose pickup is refused after its replacement was booked', () => {
  const clock = new TestClock('2026-11-20T06:30:00.000Z');
  let merchant: Awaited<ReturnType<typeof delhiveryMerchant>>;
  beforeAll(async () => {
    merchant = await delhiveryMerchant(clock);
  });
  afterAll(async () => {
    await merchant.close();
  });

  it("cancels the replacement's parcel at its courier and keeps no record of either leg", async () => {
    const { ctx, sim, apiKey, warehouseId } = merchant;
    const body = exchangeBody(warehouseId, { carrier_id: DELHIVERY_SURFACE, return_carrier_id: DTDC });
    const response = await post(ctx, apiKey, EXCHANGE, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().details).toEqual([
      { field: 'return_carrier_id', message: expect.stringContaining('does not carry QC returns') },
    ]);
    const parcels = [...sim.packages.values()];
    expect(parcels.map((parcel) => ({ order: parcel.order, cancelled: parcel.cancelled }))).toEqual([
      { order: expect.any(String), cancelled: true },
    ]);
    const [row] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select ((select count(*) from orders) + (select count(*) from returns) + (select count(*) from exchanges))::int as n`,
    );
    expect(Number(row!.n)).toBe(0);
  });
});
