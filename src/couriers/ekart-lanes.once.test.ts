import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../test/app.js';
import { EKART, ekartSettings, ratesWith, SHADOWFAX } from '../../test/kit/couriers.js';
import { authed, ORCHESTRATE, post, REVERSE_ORCHESTRATE, V1 } from '../../test/kit/http.js';
import { labelPath, pdfText, popplerRead } from '../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody } from '../../test/kit/orders.js';
import { returnBody } from '../../test/kit/returns.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import { queryRows } from '../base/db/client.js';
import { type EkartSimulator, startEkartSimulator, vendorWaybill } from '../demo/simulators/ekart-simulator.js';

// Issue 31: Ekart asked about the lane before each booking, its validation answer mapped, and the
// label Dakiya prints for an Ekart parcel, with the barcodes of Ekart's own label.

const CREATE = '/api/v1/package/create';
const CHECK = '/api/v2/serviceability/';

describe('ekart serviceability, validation answers and labels', () => {
  let sim: EkartSimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    sim = await startEkartSimulator();
    ctx = await createTestApp({
      rates: ratesWith({ [EKART]: 'ekart' }),
      settings: { couriers: ekartSettings(sim.baseUrl, { timeoutMs: 5000 }) },
    });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createWarehouse(ctx, apiKey);
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  const checks = () => sim.requests.filter((r) => r.path.startsWith(CHECK));
  const shipmentTotal = async () => (await post(ctx, apiKey, `${V1}/shipments`, {})).json().meta.total as number;
  /** Sends the order and expects Ekart's refusal before any create: nothing booked, nothing written. */
  async function refusedBeforeCreate(path: string, body: Record<string, unknown>) {
    const total = await shipmentTotal();
    const creates = sim.callsTo(CREATE).length;
    const response = await post(ctx, apiKey, path, body);
    expect(sim.callsTo(CREATE).length).toBe(creates);
    expect(await shipmentTotal()).toBe(total);
    return response;
  }

  it('asks Ekart about both ends of the lane, with the token, before it creates', async () => {
    const before = checks().length;
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    expect(payload.awb_code).toMatch(/^500999A/);
    const asked = checks().slice(before);
    expect(asked.map((r) => `${r.method} ${r.path}`).sort()).toEqual([`GET ${CHECK}110001`, `GET ${CHECK}400001`]);
    expect(asked.every((r) => /^Bearer ekt-/.test(r.authorization ?? ''))).toBe(true);
    const lastCheck = sim.requests.lastIndexOf(asked.at(-1)!);
    expect(sim.requests.findIndex((r) => r.path === CREATE && r.body.includes(payload.shipment_id))).toBeGreaterThan(
      lastCheck,
    );
  });

  it('answers 422 naming the lane when Ekart does not serve it, and books nothing', async () => {
    const response = await refusedBeforeCreate(
      ORCHESTRATE,
      orderBody(warehouseId, {
        carrier_id: EKART,
        billing_city: 'Shillong',
        billing_pincode: '793001',
        billing_state: 'Meghalaya',
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'Ekart refused: the lane 110001 → 793001 is not serviceable: Pincode 793001 is not serviceable',
      details: [
        {
          field: 'billing_pincode',
          message: 'Ekart refused: the lane 110001 → 793001 is not serviceable: Pincode 793001 is not serviceable',
        },
      ],
    });
  });

  it('refuses a lane whose end Ekart serves but not this way, and cash on delivery it does not take, before creating', async () => {
    sim.pincodes.set('400001', { forward_drop: false });
    const noDrop = await refusedBeforeCreate(ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }));
    expect(noDrop.statusCode).toBe(422);
    expect(noDrop.json().message).toBe(
      'Ekart refused: the lane 110001 → 400001 is not serviceable: Ekart delivers nothing at pincode 400001',
    );

    sim.pincodes.set('400001', { cod: false, max_cod_amount: 0 });
    expect((await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }))).statusCode).toBe(200);
    const noCod = await refusedBeforeCreate(ORCHESTRATE, codOrderBody(warehouseId, { carrier_id: EKART }));
    expect(noCod.statusCode).toBe(422);
    expect(noCod.json().message).toBe(
      'Ekart refused: the lane 110001 → 400001 takes no cash on delivery at pincode 400001',
    );

    sim.pincodes.set('400001', { max_cod_amount: 500 });
    const overLimit = await refusedBeforeCreate(ORCHESTRATE, codOrderBody(warehouseId, { carrier_id: EKART }));
    expect(overLimit.statusCode).toBe(422);
    expect(overLimit.json().message).toBe(
      'Ekart refused: the lane 110001 → 400001 takes cash on delivery up to ₹500 at pincode 400001; this parcel asks ₹998',
    );

    // A return is collected from the customer: Ekart's reverse_pickup there, reverse_drop at the warehouse.
    sim.pincodes.set('400001', { reverse_pickup: false });
    const noReturn = await refusedBeforeCreate(REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: EKART }));
    expect(noReturn.statusCode).toBe(422);
    expect(noReturn.json()).toMatchObject({
      message:
        'Ekart refused: the lane 400001 → 110001 is not serviceable: Ekart collects no returns at pincode 400001',
      details: [{ field: 'pickup_pincode' }],
    });
    sim.pincodes.delete('400001');
    sim.pincodes.set('110001', { reverse_drop: false });
    const noReturnDrop = await refusedBeforeCreate(REVERSE_ORCHESTRATE, returnBody(warehouseId, { carrierId: EKART }));
    expect(noReturnDrop.json()).toMatchObject({
      message:
        'Ekart refused: the lane 400001 → 110001 is not serviceable: Ekart takes no returns back at pincode 110001',
      details: [{ field: 'warehouse_id' }],
    });
    sim.pincodes.delete('110001');
  });

  it('tries a failed serviceability read once more, and answers 502 when it fails again, creating nothing', async () => {
    sim.failNext(`${CHECK}400001`, '500');
    expect((await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }))).statusCode).toBe(200);

    sim.failNext(`${CHECK}400001`, '500', 2);
    const failed = await refusedBeforeCreate(ORCHESTRATE, orderBody(warehouseId, { carrier_id: EKART }));
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe('Ekart could not be reached (HTTP 500); nothing was changed, try again');
    expect(failed.json().code).toBe('courier_unreachable');
  });

  it('answers Ekart’s 400 VALIDATION_EXCEPTION as a 422 in its words, with nothing booked', async () => {
    // Ekart's serviceability allows the amount here; its create allows no more than ₹49,999 of COD.
    sim.pincodes.set('400001', { max_cod_amount: 100_000 });
    const total = await shipmentTotal();
    const creates = sim.callsTo(CREATE).length;
    const items = [{ name: 'Sofa', sku: 'SOFA', units: 1, selling_price: 60_000, discount: 0 }];
    const response = await post(
      ctx,
      apiKey,
      ORCHESTRATE,
      // Its e-way bill sent, so that Ekart's refusal is what is tested (rule 138 asks one over ₹50,000).
      codOrderBody(warehouseId, {
        carrier_id: EKART,
        sub_total: 60_000,
        cod_collectible: 60_000,
        order_items: items,
        ewaybill_no: '331009876543',
      }),
    );
    sim.pincodes.delete('400001');
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Ekart refused: Invalid request: cod_amount must be at most 49999');
    expect(sim.callsTo(CREATE).length - creates).toBe(1);
    expect(JSON.parse(sim.callsTo(CREATE).at(-1)!.body)).toMatchObject({ payment_mode: 'COD', cod_amount: 60_000 });
    expect(sim.packages.size).toBe(sim.callsTo(CREATE).length - 1);
    expect(await shipmentTotal()).toBe(total);
  });

  const barcodesOf = async (shipmentId: string) =>
    (
      await queryRows<{ courier_barcodes: unknown }>(
        ctx.database.db,
        sql`select courier_barcodes from shipments where id = ${shipmentId}`,
      )
    )[0]!.courier_barcodes;

  it('prints Dakiya’s label for an Ekart parcel with Ekart’s tracking id and its vendor waybill barcode', async () => {
    const payload = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const wbn = vendorWaybill(payload.awb_code!);
    expect(await barcodesOf(payload.shipment_id)).toEqual([{ label: 'Vendor waybill', value: wbn }]);
    const label = await ctx.app.inject({ method: 'GET', url: labelPath(payload.label_url!) });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const words = await pdfText(label.rawPayload);
    expect(words).toContain(`AWB ${payload.awb_code}`);
    expect(words).toContain(`Vendor waybill ${wbn}`);
    expect(words).not.toContain('COD waybill');
    expect(words).toContain('Ekart Standard');
    expect(words).not.toContain('TEST');
  });

  it('prints the COD waybill Ekart’s vendor gives a cash-on-delivery parcel, in bulk and re-issued labels too', async () => {
    const cod = await orchestrate(ctx, apiKey, codOrderBody(warehouseId, { carrier_id: EKART }));
    const prepaid = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: EKART }));
    const wbn = vendorWaybill(cod.awb_code!);
    expect(await barcodesOf(cod.shipment_id)).toEqual([
      { label: 'Vendor waybill', value: wbn },
      { label: 'COD waybill', value: `C${wbn}` },
    ]);
    const single = await pdfText((await ctx.app.inject({ method: 'GET', url: labelPath(cod.label_url!) })).rawPayload);
    expect(single).toContain(`AWB ${cod.awb_code}`);
    expect(single).toContain(`Vendor waybill ${wbn}`);
    expect(single).toContain(`COD waybill C${wbn}`);
    expect(single).toContain('COD: collect ₹998.00');

    const bulk = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/labels`,
      headers: authed(apiKey),
      payload: { awbs: [cod.awb_code, prepaid.awb_code] },
    });
    expect(bulk.statusCode).toBe(200);
    const { pages, pageTexts } = await popplerRead(bulk.rawPayload);
    expect(pages).toBe(2);
    expect(pageTexts[0]).toContain(`COD waybill C${wbn}`);
    expect(pageTexts[1]).toContain(`AWB ${prepaid.awb_code}`);
    expect(pageTexts[1]).toContain(`Vendor waybill ${vendorWaybill(prepaid.awb_code!)}`);
    expect(pageTexts[1]).not.toContain('COD waybill');

    const reissued = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/shipments/${prepaid.shipment_id}/label/reissue`,
      headers: authed(apiKey),
    });
    expect(reissued.statusCode).toBe(200);
    const again = await pdfText(
      (await ctx.app.inject({ method: 'GET', url: labelPath(reissued.json().label_url) })).rawPayload,
    );
    expect(again).toContain('Label 2, re-issued');
    expect(again).toContain(`Vendor waybill ${vendorWaybill(prepaid.awb_code!)}`);
  });

  it('prints no courier barcode for a courier that gives none', async () => {
    const other = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    expect(await barcodesOf(other.shipment_id)).toBeNull();
    const words = await pdfText((await ctx.app.inject({ method: 'GET', url: labelPath(other.label_url!) })).rawPayload);
    expect(words).toContain(`AWB ${other.awb_code}`);
    expect(words).not.toContain('waybill');
  });
});
