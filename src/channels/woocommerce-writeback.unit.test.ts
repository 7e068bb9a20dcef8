import { afterEach, describe, expect, it } from 'vitest';
import { startWooCommerceSimulator, type WooCommerceSimulator } from '../demo/simulators/woocommerce-simulator.js';
import { ChannelCallError, type ChannelCredentials, type Fulfilment } from './channel-adapter.js';
import { createChannelHttp } from './channel-http.js';
import indiaCod from './fixtures/woocommerce/order-india-cod.json' with { type: 'json' };
import { createWooCommerceAdapter } from './woocommerce.adapter.js';

const http = createChannelHttp({ rules: { allowHttp: true, allowPrivate: true }, timeoutMs: 5000 });
const ORDER = 6100;

let sims: WooCommerceSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
  sims = [];
});

async function site(options: Parameters<typeof startWooCommerceSimulator>[0] = {}) {
  const sim = await startWooCommerceSimulator(options);
  sims.push(sim);
  sim.addOrder({ ...structuredClone(indiaCod), id: ORDER, status: 'processing' });
  const slept: number[] = [];
  const adapter = createWooCommerceAdapter({ http, sleep: async (ms) => void slept.push(ms) });
  const credentials = (key = sim.keys): Extract<ChannelCredentials, { channel: 'woocommerce' }> => ({
    channel: 'woocommerce',
    siteUrl: `${sim.baseUrl}/`,
    ...key,
    webhookSecret: 'unused',
  });
  const writes = () => sim.requests.filter((r) => r.method !== 'GET');
  return { sim, adapter, slept, credentials, writes };
}

// 20:00 UTC on the 15th is 01:30 on the 16th in India: the day the merchant shipped on.
const fulfilment = (over: Partial<Fulfilment> = {}): Fulfilment => ({
  channelOrderId: String(ORDER),
  awb: '1234567890123',
  courierName: 'Delhivery',
  trackingUrl: 'https://track.acme.in/1234567890123',
  notifyCustomer: true,
  shippedAt: new Date('2025-01-15T20:00:00Z'),
  ...over,
});

async function failed(promise: Promise<unknown>): Promise<ChannelCallError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ChannelCallError);
  return error as ChannelCallError;
}

describe('telling a WooCommerce store an order shipped', () => {
  it('adds a Shipment Tracking item with the India day it shipped, answering its tracking id', async () => {
    const { sim, adapter, credentials, writes } = await site({ shipmentTracking: 'official' });
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    const [item] = sim.trackingsOf(ORDER);
    expect(reference).toBe(`tracking:${item?.tracking_id}`);
    expect(item?.tracking_id).toMatch(/^[0-9a-f]{32}$/);
    expect(writes()).toEqual([
      expect.objectContaining({
        method: 'POST',
        route: `/wc-shipment-tracking/v3/orders/${ORDER}/shipment-trackings`,
        body: {
          custom_tracking_provider: 'Delhivery',
          custom_tracking_link: 'https://track.acme.in/1234567890123',
          tracking_number: '1234567890123',
          date_shipped: '2025-01-16',
        },
      }),
    ]);
    expect(sim.notesOf(ORDER)).toEqual([]);
  });

  it('uses Advanced Shipment Tracking when the official extension is not there', async () => {
    const { sim, adapter, credentials, writes } = await site({ shipmentTracking: 'ast' });
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    expect(reference).toBe(`tracking:${sim.trackingsOf(ORDER)[0]?.tracking_id}`);
    expect(sim.trackingsOf(ORDER)[0]?.date_shipped).toBe('January 16, 2025');
    expect(writes().map((r) => r.route)).toEqual([`/wc-ast/v3/orders/${ORDER}/shipment-trackings`]);
    // The site is remembered: the next order asks AST first.
    sim.requests.length = 0;
    await adapter.writeFulfilment(credentials(), fulfilment({ awb: '99' }));
    expect(sim.requests[0]?.route).toBe(`/wc-ast/v3/orders/${ORDER}/shipment-trackings`);
  });

  it('adds an order note without either extension, e-mailed to the buyer only when asked', async () => {
    const { sim, adapter, credentials } = await site();
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    const [note] = sim.notesOf(ORDER);
    expect(reference).toBe(`note:${note?.id}`);
    expect(note).toMatchObject({
      note: 'Shipped with Delhivery, AWB 1234567890123: https://track.acme.in/1234567890123',
      customer_note: true,
    });
    await adapter.writeFulfilment(credentials(), fulfilment({ awb: '12345', notifyCustomer: false }));
    expect(sim.notesOf(ORDER)[1]?.customer_note).toBe(false);
  });

  it('answers the same reference when repeated, writing nothing more', async () => {
    for (const shipmentTracking of ['official', 'ast', false] as const) {
      const { adapter, credentials, writes } = await site({ shipmentTracking });
      const first = await adapter.writeFulfilment(credentials(), fulfilment());
      const count = writes().length;
      await expect(adapter.writeFulfilment(credentials(), fulfilment())).resolves.toEqual(first);
      expect(writes()).toHaveLength(count);
    }
  });

  it('works on a site with plain permalinks', async () => {
    const { sim, adapter, credentials } = await site({ plainPermalinks: true, shipmentTracking: 'official' });
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    expect(reference).toMatch(/^tracking:[0-9a-f]{32}$/);
    expect(sim.requests.at(-1)).toMatchObject({ path: '/', method: 'POST' });
  });

  it('waits out a 429 and then writes once', async () => {
    const { sim, adapter, credentials, slept, writes } = await site({ shipmentTracking: 'official' });
    await adapter.writeFulfilment(credentials(), fulfilment({ awb: '1' }));
    sim.rateLimitNext(2, 3);
    await adapter.writeFulfilment(credentials(), fulfilment());
    expect(slept).toEqual([3000, 3000]);
    expect(sim.trackingsOf(ORDER).map((i) => i.tracking_number)).toEqual(['1', '1234567890123']);
    expect(writes().filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('says rejected for an unknown order, refused for a Read key, unavailable for a 500', async () => {
    for (const shipmentTracking of ['official', false] as const) {
      const { adapter, credentials } = await site({ shipmentTracking });
      const error = await failed(adapter.writeFulfilment(credentials(), fulfilment({ channelOrderId: '404' })));
      expect([error.kind, error.message]).toEqual(['rejected', expect.stringMatching(/Invalid (order )?ID\./)]);
    }
    const { sim, adapter, credentials } = await site();
    const readOnly = await failed(adapter.writeFulfilment(credentials(sim.addKey('read')), fulfilment()));
    expect([readOnly.kind, readOnly.fields, readOnly.message]).toEqual([
      'refused_credentials',
      ['consumer_key'],
      expect.stringMatching(/write permissions.*Read\/Write/),
    ]);
    sim.crashNext(1);
    expect((await failed(adapter.writeFulfilment(credentials(), fulfilment()))).kind).toBe('unavailable');
    await expect(adapter.writeFulfilment(credentials(), fulfilment({ channelOrderId: 'x' }))).rejects.toThrow(
      RangeError,
    );
  });
});

describe('changing, tracking and cancelling a WooCommerce fulfilment', () => {
  it('replaces the tracking item for a new AWB', async () => {
    const { sim, adapter, credentials } = await site({ shipmentTracking: 'official' });
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    const changed = fulfilment({ awb: '555', courierName: 'Blue Dart' });
    const updated = await adapter.updateFulfilment(credentials(), reference, changed);
    const items = sim.trackingsOf(ORDER);
    expect(items).toEqual([expect.objectContaining({ tracking_number: '555', tracking_provider: 'Blue Dart' })]);
    // The new item is the reference from now on: a repeat changes nothing, a cancel removes it.
    expect(updated).toEqual({ reference: `tracking:${items[0]!.tracking_id}` });
    expect(await adapter.updateFulfilment(credentials(), reference, changed)).toEqual(updated);
    expect(await adapter.updateFulfilment(credentials(), updated.reference, changed)).toEqual(updated);
    expect(sim.trackingsOf(ORDER)).toEqual(items);
    await adapter.cancelFulfilment(credentials(), updated.reference, String(ORDER));
    expect(sim.trackingsOf(ORDER)).toEqual([]);
  });

  it('adds a note saying the AWB changed, once', async () => {
    const { sim, adapter, credentials } = await site();
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    await adapter.updateFulfilment(credentials(), reference, fulfilment({ awb: '555' }));
    await adapter.updateFulfilment(credentials(), reference, fulfilment({ awb: '555' }));
    expect(sim.notesOf(ORDER).map((n) => n.note)).toEqual([
      expect.stringContaining('AWB 1234567890123'),
      'AWB changed: now shipped with Delhivery, AWB 555: https://track.acme.in/1234567890123',
    ]);
  });

  it('completes the order on delivery', async () => {
    const { sim, adapter, credentials } = await site();
    const update = { status: 'delivered', message: 'Delivered', happenedAt: new Date(), city: 'Pune' } as const;
    await adapter.writeTrackingUpdate(credentials(), 'note:1', String(ORDER), update);
    expect(sim.statusOf(ORDER)).toBe('completed');
  });

  it('notes a failed delivery privately and changes nothing for other scans', async () => {
    const { sim, adapter, credentials, writes } = await site();
    const at = new Date();
    for (const status of ['in_transit', 'out_for_delivery', 'attempted_delivery'] as const)
      await adapter.writeTrackingUpdate(credentials(), 'tracking:ab12', String(ORDER), {
        status,
        message: 'scan',
        happenedAt: at,
        city: null,
      });
    expect(writes()).toEqual([]);
    const failure = { status: 'failure', message: 'Consignee refused', happenedAt: at, city: 'Pune' } as const;
    await adapter.writeTrackingUpdate(credentials(), 'tracking:ab12', String(ORDER), failure);
    await adapter.writeTrackingUpdate(credentials(), 'tracking:ab12', String(ORDER), { ...failure, city: null });
    expect(sim.notesOf(ORDER)).toEqual([
      expect.objectContaining({ note: 'Delivery failed (Pune): Consignee refused', customer_note: false }),
      expect.objectContaining({ note: 'Delivery failed: Consignee refused' }),
    ]);
    expect(sim.statusOf(ORDER)).toBe('processing');
    await expect(adapter.writeTrackingUpdate(credentials(), 'shipment 1', String(ORDER), failure)).rejects.toThrow(
      RangeError,
    );
  });

  it('deletes the tracking item on cancellation and notes it privately', async () => {
    const { sim, adapter, credentials } = await site({ shipmentTracking: 'ast' });
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    await adapter.cancelFulfilment(credentials(), reference, String(ORDER));
    expect(sim.trackingsOf(ORDER)).toEqual([]);
    expect(sim.notesOf(ORDER)).toEqual([
      expect.objectContaining({ note: 'Shipment cancelled (AWB 1234567890123)', customer_note: false }),
    ]);
    // Repeated: the item is gone already, so only the note.
    await adapter.cancelFulfilment(credentials(), reference, String(ORDER));
    expect(sim.notesOf(ORDER).at(-1)?.note).toBe('Shipment cancelled');
  });

  it('cancels a note reference with a note alone', async () => {
    const { sim, adapter, credentials, writes } = await site();
    const { reference } = await adapter.writeFulfilment(credentials(), fulfilment());
    await adapter.cancelFulfilment(credentials(), reference, String(ORDER));
    expect(writes().map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(sim.notesOf(ORDER).at(-1)).toMatchObject({ note: 'Shipment cancelled', customer_note: false });
  });

  it('rejects a cancellation or a completion for an unknown order', async () => {
    const { adapter, credentials } = await site();
    const cancel = await failed(adapter.cancelFulfilment(credentials(), 'note:3', '404'));
    expect(cancel.kind).toBe('rejected');
    const done = { status: 'delivered', message: '', happenedAt: new Date(), city: null } as const;
    expect((await failed(adapter.writeTrackingUpdate(credentials(), 'note:3', '404', done))).kind).toBe('rejected');
  });
});
