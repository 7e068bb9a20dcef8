import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ORDER_TRACKING, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { eventsSettled } from '../../../test/databases.js';

// The NDR message's third answer on the tracking page (SMS and e-mail link there): the buyer
// refuses the parcel, with a ticked box as the confirmation, and it goes back through initiate-rto.

let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let warehouseId: string;
let carrierToken: string;

beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  otherKey = (await ctx.createAccount('Other Store')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

async function failedDelivery() {
  const booked = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
  await sendEvents(ctx, carrierToken, [
    { awb: booked.awb_code!, status: 'in_transit', event_time: at(1), location: 'Okhla Hub' },
    {
      awb: booked.awb_code!,
      status: 'ndr_raised',
      ndr_reason: 'customer_unavailable',
      event_time: at(2),
      location: 'Andheri DC',
    },
  ]);
  return booked;
}
const pathOf = (booked: Booked) => new URL(booked.track_url!).pathname;
async function openPage(booked: Booked, lang = 'en') {
  const response = await ctx.app.inject({ method: 'GET', url: `${pathOf(booked)}?lang=${lang}` });
  const csrf = /name="csrf" value="([^"]+)"/.exec(response.body)?.[1];
  // The form's cookie, among the language cookies ?lang sets.
  const cookie =
    ([response.headers['set-cookie'] ?? []].flat() as string[])
      .find((c) => c.startsWith('dakiya_form='))
      ?.split(';')[0] ?? '';
  return { body: response.body, csrf: csrf!, cookie };
}
const refuse = (booked: Booked, fields: Record<string, string>, headers: Record<string, string>, lang = 'en') =>
  ctx.app.inject({
    method: 'POST',
    url: `${pathOf(booked)}/refuse?lang=${lang}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
const tracking = async (booked: Booked, key = apiKey) =>
  (await post(ctx, key, ORDER_TRACKING, { awbs: [booked.awb_code] })).json().result[booked.awb_code!]?.tracking_data;

describe('the buyer refuses the parcel from the tracking page', () => {
  it('offers it beside the reattempt, with a box to tick, in English and Hindi', async () => {
    const booked = await failedDelivery();
    const { body } = await openPage(booked);
    expect(body).toContain('<h2 id="refuse">Do not want the parcel?</h2>');
    expect(body).toContain(`<form method="post" action="${pathOf(booked)}/refuse?lang=en">`);
    expect(body).toContain(
      '<label class="choice"><input type="checkbox" name="confirm" value="yes" required>Yes, I do not want this parcel: send it back to the store</label>',
    );
    expect(body).toContain('Refuse the delivery</button>');
    expect((await openPage(booked, 'hi')).body).toContain('<h2 id="refuse">पार्सल नहीं चाहिए?</h2>');
  });

  it('without the box ticked it names the box, beside it, and nothing goes back', async () => {
    const booked = await failedDelivery();
    const { csrf, cookie } = await openPage(booked);
    const response = await refuse(booked, { csrf }, { cookie });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('aria-invalid="true" aria-describedby="refuse-error">');
    expect(response.body).toContain(
      '<p class="error" role="alert" id="refuse-error">Tick the box to confirm that the parcel should go back to the store</p>',
    );
    expect(await tracking(booked)).toMatchObject({ shipment_status: 'ndr_raised', ndr_actions: [] });
  });

  it('a forged post (no cookie, another site) is a 403 and nothing goes back', async () => {
    const booked = await failedDelivery();
    const { csrf, cookie } = await openPage(booked);
    expect((await refuse(booked, { csrf, confirm: 'yes' }, {})).statusCode).toBe(403);
    const crossSite = await refuse(booked, { csrf, confirm: 'yes' }, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain('This form has expired. Please send it again.');
    expect((await tracking(booked)).ndr_actions).toEqual([]);
  });

  it("confirmed, the RTO starts through the NDR path, recorded as the customer's choice, once", async () => {
    const booked = await failedDelivery();
    const { csrf, cookie } = await openPage(booked);
    const response = await refuse(booked, { csrf, confirm: 'yes' }, { cookie });
    expect(response.statusCode, response.body).toBe(303);
    expect(response.headers.location).toBe(`${pathOf(booked)}?lang=en`);
    const tracked = await tracking(booked);
    expect(tracked.shipment_status).toBe('rto_initiated');
    expect(tracked.ndr_actions).toEqual([
      expect.objectContaining({ action: 'rto', requested_by: 'customer', details: {} }),
    ]);
    const listed = (await post(ctx, apiKey, SHIPMENTS, { search: booked.awb_code })).json().data[0].attributes;
    expect(listed.ndr_all_outcomes).toEqual(['rto']);
    await eventsSettled(ctx.database);
    const events = (
      await ctx.app.inject({
        method: 'GET',
        url: `${V1}/events?type[]=shipment.rto_initiated`,
        headers: { authorization: apiKey },
      })
    ).json().data as { data: { shipment: { id: string } } }[];
    expect(events.filter((e) => e.data.shipment.id === booked.shipment_id)).toHaveLength(1);
    const after = await openPage(booked);
    expect(after.body).toContain('Returning to the seller</h2>');
    expect(after.body).not.toContain('<form');
    // The same post again (a double tap, a reload) changes nothing and says why.
    const again = await refuse(booked, { csrf, confirm: 'yes' }, { cookie });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This delivery can no longer be refused here: please contact the store');
    expect((await tracking(booked)).ndr_actions).toHaveLength(1);
    expect(await tracking(booked, otherKey)).toMatchObject({ track_status: 0 });
    expect((await tracking(booked, otherKey)).ndr_actions).toBeUndefined();
  });

  it('is not offered once a reattempt is asked, nor before a failed delivery', async () => {
    const booked = await failedDelivery();
    const page = await openPage(booked);
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `${pathOf(booked)}/reattempt?lang=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
      payload: new URLSearchParams({ csrf: page.csrf, reattempt_date: '2026-11-23' }).toString(),
    });
    expect(asked.statusCode).toBe(303);
    expect((await openPage(booked)).body).not.toContain('id="refuse"');
    const refused = await refuse(booked, { csrf: page.csrf, confirm: 'yes' }, { cookie: page.cookie });
    expect(refused.statusCode).toBe(409);
    expect((await tracking(booked)).ndr_actions).toEqual([
      expect.objectContaining({ action: 'reattempt', requested_by: 'customer' }),
    ]);
    const fresh = await book(ctx, apiKey, warehouseId);
    expect((await openPage(fresh)).body).not.toContain('id="refuse"');
  });
});
