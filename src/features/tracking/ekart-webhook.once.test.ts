import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  EKART_CLIENT,
  EKART_PASSWORD,
  EKART_USER,
  type EkartSimulator,
  startEkartSimulator,
} from '../../demo/simulators/ekart-simulator.js';
import { EKART_SIGNATURE_HEADERS } from '../../couriers/fixtures/ekart.fixtures.js';
import { EKART, ratesWith } from '../../../test/kit/couriers.js';
import { admin, authed, post, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { SIGNATURE_HEADERS } from './ekart-webhook.routes.js';

const SECRET = 'ek-hook-5b7e2c91';
const WEBHOOK = '/carrier/v1/ekart/webhook';

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

describe("Ekart's tracking webhook, posted by its simulator to a listening server", () => {
  let sim: EkartSimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  const deliverWith = (body: string, headers: Record<string, string>) =>
    ctx.app.inject({
      method: 'POST',
      url: WEBHOOK,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });
  const deliver = (body: string) => deliverWith(body, { 'x-ekart-signature': sign(body) });
  const trackingOf = async (awb: string) =>
    (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data;

  beforeAll(async () => {
    sim = await startEkartSimulator();
    ctx = await createTestApp({
      rates: ratesWith({ [EKART]: 'ekart' }),
      settings: {
        couriers: {
          ekart: {
            clientId: EKART_CLIENT,
            username: EKART_USER,
            password: EKART_PASSWORD,
            baseUrl: sim.baseUrl,
            webhookSecret: SECRET,
          },
        },
      },
    });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createWarehouse(ctx, apiKey);
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    // As the operator does once: a token, then the webhook registered with Ekart with our URL and secret.
    const token = (await (
      await fetch(`${sim.baseUrl}/integrations/v2/auth/token/${EKART_CLIENT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: EKART_USER, password: EKART_PASSWORD }),
      })
    ).json()) as { access_token: string };
    const { port } = ctx.app.server.address() as AddressInfo;
    const registered = await fetch(`${sim.baseUrl}/api/v2/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}${WEBHOOK}`, secret: SECRET, topics: ['track_updated'] }),
    });
    expect(registered.status).toBe(200);
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('applies each pushed scan as it happens, with no poll, and answers Ekart 200 each time', async () => {
    const delivered = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const failed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const booked = ctx.clock.now().getTime();
    ctx.clock.advance(60 * 60_000);
    const at = (minutes: number) => booked + minutes * 60_000;

    await sim.scan(delivered.awb_code!, {
      status: 'Picked Up',
      ctime: at(10),
      desc: 'Shipment picked up',
      location: 'Okhla',
    });
    expect(await trackingOf(delivered.awb_code!)).toMatchObject({
      shipment_status: 'in_transit',
      shipment_sub_status: 'picked_up',
    });
    await sim.scan(
      delivered.awb_code!,
      { status: 'In Transit', ctime: at(15), desc: 'Reached Mumbai hub', location: 'Mumbai' },
      { status: 'Out for Delivery', ctime: at(20), desc: 'Out for delivery', location: 'Mumbai' },
      { status: 'Delivered', ctime: at(25), desc: 'Delivered to customer', location: 'Mumbai' },
    );
    await sim.scan(
      failed.awb_code!,
      { status: 'Picked Up', ctime: at(10), desc: 'Shipment picked up' },
      { status: 'Out for Delivery', ctime: at(20), desc: 'Out for delivery' },
      { status: 'Undelivered', ctime: at(26), desc: 'Customer not reachable', ndrStatus: 'Customer Unreachable' },
    );

    expect(sim.pushes.map((push) => push.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(JSON.parse(sim.pushes[0]!.body)).toMatchObject({
      id: delivered.awb_code,
      status: 'Picked Up',
      orderNumber: delivered.shipment_id,
    });
    const done = await trackingOf(delivered.awb_code!);
    expect(done).toMatchObject({ shipment_status: 'delivered', shipment_sub_status: 'delivered' });
    expect(done.shipment_track_activities).toHaveLength(4);
    expect(
      done.shipment_track_activities.map((scan: { activity: string; location: string }) => [
        scan.activity,
        scan.location,
      ]),
    ).toEqual([
      ['DELIVERED', 'Mumbai'],
      ['OUT FOR DELIVERY', 'Mumbai'],
      ['IN TRANSIT', 'Mumbai'],
      ['PICKED UP', 'Okhla'],
    ]);
    expect(await trackingOf(failed.awb_code!)).toMatchObject({
      shipment_status: 'ndr_raised',
      shipment_sub_status: 'contact_unreachable',
    });
    expect(sim.callsTo(`/api/v1/track/${delivered.awb_code}`)).toEqual([]);

    // Ekart posting the same scan again changes nothing.
    const replay = await deliver(sim.pushes[0]!.body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().results).toEqual([
      { awb: delivered.awb_code, accepted: true, duplicate: true, changed: false, reason: expect.any(String) },
    ]);
    expect(await trackingOf(delivered.awb_code!)).toMatchObject({ shipment_status: 'delivered' });
  });

  it('takes the signature in every header the sources list, hex or base64, with or without sha256=', async () => {
    expect(SIGNATURE_HEADERS).toEqual(EKART_SIGNATURE_HEADERS);
    const shipment = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const booked = ctx.clock.now().getTime();
    ctx.clock.advance(2 * 60 * 60_000);
    let minute = 0;
    for (const header of EKART_SIGNATURE_HEADERS)
      for (const encoding of ['hex', 'base64', 'base64url'] as const)
        for (const prefix of ['', 'sha256=']) {
          minute += 1;
          const body = JSON.stringify({
            ctime: booked + minute * 60_000,
            status: 'In Transit',
            desc: `Scan ${minute}`,
            id: shipment.awb_code,
          });
          const signature = prefix + createHmac('sha256', SECRET).update(body).digest(encoding);
          const response = await deliverWith(body, { [header]: signature });
          expect([header, encoding, prefix, response.statusCode]).toEqual([header, encoding, prefix, 200]);
        }
    // And Ekart's simulator, posting as a real Ekart might.
    sim.signWith({ header: 'x-hub-signature-256', encoding: 'base64', prefix: 'sha256=' });
    try {
      await sim.scan(shipment.awb_code!, {
        status: 'Out for Delivery',
        ctime: booked + (minute + 1) * 60_000,
        desc: 'Out for delivery',
      });
    } finally {
      sim.signWith();
    }
    expect(sim.pushes.at(-1)!.status).toBe(200);
    expect(await trackingOf(shipment.awb_code!)).toMatchObject({ shipment_status: 'out_for_delivery' });
  });

  it('refuses a post no signature verifies, and keeps it with its headers for the operator, never applied', async () => {
    // A merchant of its own: a replay gives the kept posts of its parcel to its account.
    const merchant = await ctx.createAccount();
    const shipment = await orchestrate(
      ctx,
      merchant.apiKey,
      orderBody(await createWarehouse(ctx, merchant.apiKey), { carrier_id: EKART }),
    );
    const statusOf = async () =>
      (await post(ctx, merchant.apiKey, `${V1}/order-tracking`, { awbs: [shipment.awb_code] })).json().result[
        shipment.awb_code!
      ].tracking_data;
    const genuine = JSON.stringify({
      ctime: ctx.clock.now().getTime(),
      status: 'Picked Up',
      desc: 'Shipment picked up',
      id: shipment.awb_code,
      wbn: 'EK1',
      orderNumber: shipment.shipment_id,
    });
    const forged = genuine.replace('Picked Up', 'Delivered');
    const refusal = `no signature verifies the body under EKART_WEBHOOK_SECRET: an HMAC-SHA256 (hex or base64, with or without sha256=) was looked for in ${EKART_SIGNATURE_HEADERS.join(', ')}; the post is kept with its headers for the operator`;
    const posts = [
      [forged, { 'x-ekart-signature': sign(genuine) }],
      [genuine, { 'x-ekart-signature': sign(genuine, 'another-secret') }],
      [genuine, {}],
      [genuine, { 'x-ekart-signature': 'not-hex' }],
      // Signed right, in a header no source lists: the first real post of a format nobody guessed.
      [genuine, { 'x-ekart-hmac': sign(genuine), authorization: 'Basic ZWthcnQ6aHVudGVyMg==' }],
      // The secret itself in plain, where a source expects a shared secret: not an HMAC, refused.
      [genuine, { 'x-ekart-webhook-secret': SECRET }],
    ] as const;
    for (const [body, headers] of posts) {
      ctx.clock.advance(1000);
      const response = await deliverWith(body, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().errors).toEqual([refusal]);
    }
    expect(await statusOf()).toMatchObject({ shipment_status: 'ready_for_pickup' });

    const all = (await ctx.app.inject({ method: 'GET', url: '/admin/v1/kept-scans', headers: admin })).json();
    const kept = (
      all.data as {
        awb: string;
        reason_code: string;
        account_id: string | null;
        raw: { unverified_post: { headers: Record<string, string>; body: string } };
      }[]
    ).filter((k) => k.awb === shipment.awb_code);
    expect(kept).toHaveLength(posts.length);
    expect(kept.every((k) => k.reason_code === 'unverified' && k.account_id === null)).toBe(true);
    const keptWith = (header: string) => kept.find((k) => header in k.raw.unverified_post.headers)!.raw.unverified_post;
    const unknownHeader = keptWith('x-ekart-hmac');
    expect(unknownHeader.body).toBe(genuine);
    expect(unknownHeader.headers).toMatchObject({
      'content-type': 'application/json',
      'x-ekart-hmac': sign(genuine),
      authorization: '[withheld]',
    });
    expect(kept[5]!.raw.unverified_post.headers['x-ekart-webhook-secret']).toBe(
      '[the webhook secret itself, in plain]',
    );
    expect(JSON.stringify(all)).not.toContain(SECRET);
    // The merchant's own list shows none of them: an unverified post is no account's.
    const theirs = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans`, headers: authed(merchant.apiKey) })
    ).json().data;
    expect(theirs).toEqual([]);

    // A replay leaves them be: a post no signature verifies is not Ekart's word, and no account's.
    await ctx.app.inject({ method: 'POST', url: '/admin/v1/kept-scans/replay', headers: admin });
    expect(await statusOf()).toMatchObject({ shipment_status: 'ready_for_pickup' });
    const replayed = (await ctx.app.inject({ method: 'GET', url: '/admin/v1/kept-scans', headers: admin })).json().data;
    expect(replayed.filter((k: { awb: string }) => k.awb === shipment.awb_code)).toEqual(
      all.data.filter((k: { awb: string }) => k.awb === shipment.awb_code),
    );
    // Its headers show where Ekart put the HMAC; posted again as kept, the signature where Dakiya looks, it applies.
    const again = await deliverWith(unknownHeader.body, {
      'x-ekart-signature': unknownHeader.headers['x-ekart-hmac']!,
    });
    expect(again.statusCode).toBe(200);
    expect(await statusOf()).toMatchObject({ shipment_status: 'in_transit', shipment_sub_status: 'picked_up' });
  });

  it("acknowledges posts with nothing to apply, says why, and refuses bodies that are not Ekart's", async () => {
    const created = await deliver(
      JSON.stringify({
        id: '509271DS0153341',
        wbn: '3496549343',
        vendor: 'EKART',
        orderNumber: 'RAZNE009',
        channelId: '66111e20da60dcb528a11cad',
      }),
    );
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({
      results: [],
      ignored: 'not a tracking update (shipment_created or shipment_recreated): nothing to apply',
    });

    // A scan it cannot read, on a parcel it carries, and one for an AWB no parcel has: answered,
    // and kept for the operator and the account as Ekart sent them, never dropped.
    const booked = (await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }))).awb_code!;
    const weighed = { id: booked, status: 'Weighed Again', ctime: ctx.clock.now().getTime(), desc: '' };
    const unknownStatus = await deliver(JSON.stringify(weighed));
    ctx.clock.advance(1000);
    expect(unknownStatus.json()).toEqual({
      results: [],
      ignored: "kept unread: no status for Ekart's 'Weighed Again'",
    });
    const untimed = { id: booked, status: 'Delivered', ctime: 'yesterday', desc: '' };
    const noTime = await deliver(JSON.stringify(untimed));
    expect(noTime.json()).toEqual({
      results: [],
      ignored: "kept unread: ctime 'yesterday' is not a time in milliseconds since the epoch",
    });

    const stray = { id: '500999A0000000', status: 'Delivered', ctime: ctx.clock.now().getTime(), desc: 'Delivered' };
    const unknownAwb = await deliver(JSON.stringify(stray));
    expect(unknownAwb.statusCode).toBe(200);
    expect(unknownAwb.json()).toEqual({
      results: [{ awb: '500999A0000000', accepted: false, error: 'AWB not found for this courier' }],
    });
    const kept = (await ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans`, headers: authed(apiKey) })).json()
      .data;
    expect(
      kept.map((k: { raw: unknown; reason_code: string; carrier_id: string; journey: string }) => [
        k.raw,
        k.reason_code,
        k.carrier_id,
        k.journey,
      ]),
    ).toEqual([
      [weighed, 'unread', EKART, 'forward'],
      [untimed, 'unread', EKART, 'forward'],
    ]);
    const all = (await ctx.app.inject({ method: 'GET', url: '/admin/v1/kept-scans', headers: admin })).json();
    expect(all.data.find((k: { awb: string }) => k.awb === stray.id)).toMatchObject({
      raw: stray,
      reason_code: 'unknown_awb',
      account_id: null,
      carrier_id: null,
      connector: 'ekart',
    });

    for (const [body, message] of [
      ['{"id": "500999A1", "status": "Deliv', 'The body is not valid JSON'],
      ['[{"id": "500999A1"}]', 'the body must be a JSON object'],
      ['{"status": "Delivered", "ctime": 1}', 'id (the Ekart tracking id) is required'],
    ]) {
      const response = await deliver(body!);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([message]);
    }
  });

  it('answers 404 on a server without EKART_WEBHOOK_SECRET', async () => {
    const bare = await createTestApp({ database: ctx.database });
    try {
      const body = JSON.stringify({ id: '500999A1', status: 'Delivered', ctime: 1 });
      const response = await bare.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { 'content-type': 'application/json', 'x-ekart-signature': sign(body) },
        payload: body,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().errors).toEqual([
        'Ekart webhooks are not enabled on this server: set EKART_WEBHOOK_SECRET',
      ]);
    } finally {
      await bare.app.close();
    }
  });
});
