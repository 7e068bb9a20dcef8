import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { type DelhiverySimulator, SIM_TOKEN, startDelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { mpsRefusal } from '../demo/simulators/delhivery-sim-answers.js';
import { defaultRatesContext } from '../data-files.js';
import type { BookingRequest, Connector, ParcelBox } from './connector.js';
import { readWaybills } from './delhivery-requests.js';
import { createDelhiveryConnector } from './delhivery.connector.js';

// Delhivery's native multi-piece shipments (issue 53; docs/paperwork.md "Multi-piece shipments"):
// a waybill per box from the bulk waybill call, one create call with an MPS entry per box, booked
// whole or not at all, and never twice.

const service = defaultRatesContext().catalogue.byId.get('CARDELHSURF01')!;
const CREATE = '/api/cmu/create.json';
const WAYBILLS = '/waybill/api/bulk/json';
const TRACK = '/api/v1/packages/json';
const EDIT = '/api/p/edit';

const BOXES: ParcelBox[] = [
  { weightGrams: 1200, lengthCm: 30, breadthCm: 20, heightCm: 15 },
  { weightGrams: 800, lengthCm: 25, breadthCm: 20, heightCm: 10 },
  { weightGrams: 450.5, lengthCm: 20, breadthCm: 15, heightCm: 10 },
];
let orders = 0;
const mps = (overrides: Partial<BookingRequest> = {}) => {
  orders += 1;
  return bookingRequest(`shp-mps-${orders}`, {
    consignee: { ...BUYER, phone: '9123456780' },
    weightGrams: 2450.5,
    boxes: BOXES,
    ...overrides,
  });
};
const dataOf = (call: { body: string }) =>
  JSON.parse(new URLSearchParams(call.body).get('data')!) as {
    shipments: Record<string, unknown>[];
    pickup_location: { name: string };
  };

let sim: DelhiverySimulator;
let connector: Connector;
const book = (request: BookingRequest) => connector.book(service, request, async () => '', undefined as never);

beforeAll(async () => {
  sim = await startDelhiverySimulator();
  connector = createDelhiveryConnector({
    token: SIM_TOKEN,
    baseUrl: sim.baseUrl,
    timeoutMs: 400,
    clock: { now: () => new Date() },
    retryDelayMs: 10,
  });
});
afterAll(async () => {
  await sim?.close();
});

describe('Delhivery MPS: what is sent', () => {
  it('says it books several boxes natively', () => {
    expect(connector.multiPiece).toBe(true);
  });

  it('fetches a waybill per box, then sends one create with an MPS entry per box, field by field', async () => {
    const before = { waybills: sim.callsTo(WAYBILLS).length, creates: sim.callsTo(CREATE).length };
    const request = mps({
      paymentMethod: 'cod',
      codPaise: 249_900,
      totalPaise: 249_900,
      ewayBillNumber: '331234567890',
    });
    const booked = await book(request);

    const waybillCalls = sim.callsTo(WAYBILLS).slice(before.waybills);
    expect(waybillCalls).toHaveLength(1);
    expect(waybillCalls[0]!.method).toBe('GET');
    expect(waybillCalls[0]!.query.get('count')).toBe('3');
    expect(waybillCalls[0]!.authorization).toBe(`Token ${SIM_TOKEN}`);

    const creates = sim.callsTo(CREATE).slice(before.creates);
    expect(creates).toHaveLength(1);
    const data = dataOf(creates[0]!);
    expect(data.pickup_location).toEqual({ name: request.pickup.locationName });
    const waybills = data.shipments.map((s) => s.waybill as string);
    expect(new Set(waybills).size).toBe(3);
    data.shipments.forEach((entry, i) => {
      const box = BOXES[i]!;
      expect(entry).toMatchObject({
        order: request.reference,
        shipment_type: 'MPS',
        waybill: waybills[i],
        master_id: waybills[0],
        mps_children: 3,
        mps_amount: 2499,
        payment_mode: 'COD',
        cod_amount: 2499,
        total_amount: 2499,
        weight: box.weightGrams,
        shipment_length: box.lengthCm,
        shipment_width: box.breadthCm,
        shipment_height: box.heightCm,
        name: request.consignee.name,
        pin: request.consignee.pincode,
        ewbn: '331234567890',
        shipping_mode: 'Surface',
      });
    });

    expect(booked).toEqual({
      awb: waybills[0],
      routingCode: 'BOM/ANR',
      boxes: waybills.map((awb) => ({ awb, reference: request.reference })),
    });
    for (const awb of waybills) expect(sim.packages.get(awb)?.order).toBe(request.reference);
    expect(sim.unusedWaybills()).not.toContain(waybills[0]);
  });

  it('a prepaid consignment collects nothing: mps_amount and cod_amount 0', async () => {
    const before = sim.callsTo(CREATE).length;
    await book(mps({ boxes: BOXES.slice(0, 2) }));
    const data = dataOf(sim.callsTo(CREATE)[before]!);
    expect(data.shipments).toHaveLength(2);
    for (const entry of data.shipments)
      expect(entry).toMatchObject({ payment_mode: 'Prepaid', mps_amount: 0, cod_amount: 0, mps_children: 2 });
  });

  it('books one parcel as before when the request has no boxes (no waybill call, no MPS fields)', async () => {
    const before = { waybills: sim.callsTo(WAYBILLS).length, creates: sim.callsTo(CREATE).length };
    const booked = await book(mps({ boxes: undefined }));
    expect(sim.callsTo(WAYBILLS).length).toBe(before.waybills);
    const [entry] = dataOf(sim.callsTo(CREATE)[before.creates]!).shipments;
    expect(entry!.shipment_type).toBeUndefined();
    expect(entry!.waybill).toBe('');
    expect(booked.boxes).toBeUndefined();
  });
});

describe('Delhivery MPS: never booked twice', () => {
  it('a create that booked but timed out is found under the reference, not sent again with new waybills', async () => {
    sim.failNext(CREATE, 'book-then-timeout');
    const before = { waybills: sim.callsTo(WAYBILLS).length, creates: sim.callsTo(CREATE).length };
    const request = mps();
    const booked = await book(request);
    expect(sim.callsTo(WAYBILLS).length).toBe(before.waybills + 1);
    expect(sim.callsTo(CREATE).length).toBe(before.creates + 1);
    const held = [...sim.packages.values()].filter((p) => p.order === request.reference);
    expect(held.map((p) => p.waybill)).toEqual(booked.boxes!.map((b) => b.awb));
    expect(booked.awb).toBe(held[0]!.waybill);
  });

  it('a create that failed before booking is sent again with the same waybills', async () => {
    sim.failNext(CREATE, '500');
    const before = sim.callsTo(CREATE).length;
    const request = mps();
    const booked = await book(request);
    const [first, second] = sim.callsTo(CREATE).slice(before);
    expect(dataOf(first!).shipments.map((s) => s.waybill)).toEqual(dataOf(second!).shipments.map((s) => s.waybill));
    expect([...sim.packages.values()].filter((p) => p.order === request.reference)).toHaveLength(3);
    expect(booked.boxes).toHaveLength(3);
  });

  it('a second booking of a booked shipment is refused naming the waybills Delhivery holds, and books nothing', async () => {
    const request = mps();
    const booked = await book(request);
    const creates = sim.callsTo(CREATE).length;
    await expect(book(request)).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [expect.stringContaining(booked.boxes!.map((b) => b.awb).join(', '))],
    });
    expect(sim.callsTo(CREATE).length).toBe(creates);
    expect([...sim.packages.values()].filter((p) => p.order === request.reference)).toHaveLength(3);
  });

  it('a shipment whose earlier boxes were cancelled books again', async () => {
    const request = mps();
    const first = await book(request);
    for (const box of first.boxes!) await connector.cancel(service, box.awb);
    const second = await book(request);
    expect(second.awb).not.toBe(first.awb);
    expect(second.boxes).toHaveLength(3);
  });

  it('the waybill call failing once is asked again; failing twice is a 502 and nothing is booked', async () => {
    sim.failNext(WAYBILLS, '500');
    expect((await book(mps())).boxes).toHaveLength(3);
    sim.failNext(WAYBILLS, 'malformed', 2);
    const creates = sim.callsTo(CREATE).length;
    await expect(book(mps())).rejects.toMatchObject({ code: 'courier_unreachable' });
    expect(sim.callsTo(CREATE).length).toBe(creates);
  });
});

describe('Delhivery MPS: refusals', () => {
  it("the simulator's refusal (an unserviceable pincode) is a courier_refused in its words, nothing booked", async () => {
    const request = mps({ consignee: { ...BUYER, pincode: '790001' } });
    await expect(book(request)).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Delhivery refused: Non serviceable pincode'],
    });
    expect([...sim.packages.values()].filter((p) => p.order === request.reference)).toHaveLength(0);
  });

  it('the simulator refuses waybills it did not issue, and every box of the request fails', async () => {
    const shipments = (waybills: string[], extra: Record<string, unknown> = {}) =>
      waybills.map((waybill) => ({
        shipment_type: 'MPS',
        waybill,
        master_id: waybills[0],
        mps_children: waybills.length,
        mps_amount: 0,
        payment_mode: 'Prepaid',
        ...extra,
      }));
    const issued = (w: string) => w.startsWith('1');
    const used = () => false;
    expect(mpsRefusal(shipments(['100', '101']), issued, used)).toBeNull();
    expect(mpsRefusal(shipments(['100', '999']), issued, used)).toBe('Waybill 999 was not issued to this client');
    expect(mpsRefusal(shipments(['100']), issued, used)).toBe('An MPS shipment needs at least two packages');
    expect(mpsRefusal(shipments(['100', '101'], { mps_children: 3 }), issued, used)).toBe(
      'mps_children of package 1 must be 2, the number of packages',
    );
    expect(mpsRefusal(shipments(['100', '101'], { master_id: '101' }), issued, used)).toBe(
      'master_id of package 1 must be the master waybill 100',
    );
    expect(mpsRefusal(shipments(['100', '100']), issued, used)).toBe('Waybill 100 is repeated in the shipment');
    expect(mpsRefusal(shipments(['100', '101'], { mps_amount: 50 }), issued, used)).toBe(
      'mps_amount must be 0 for a prepaid MPS shipment',
    );
    expect(mpsRefusal(shipments(['100', '101'], { payment_mode: 'COD' }), issued, used)).toBe(
      'mps_amount must be the amount to collect for a COD MPS shipment',
    );
    expect(mpsRefusal(shipments(['100', '101']), issued, (w) => w === '101')).toBe('Duplicate waybill 101');
    expect(
      mpsRefusal(
        [{ ...shipments(['100', '101'])[0]!, shipment_type: '' }, shipments(['100', '101'])[1]!],
        issued,
        used,
      ),
    ).toBe('Package 1 is not shipment_type MPS');

    // Over HTTP: a create naming waybills the bulk call never issued fails every package.
    const form = new URLSearchParams({
      format: 'json',
      data: JSON.stringify({
        shipments: shipments(['42', '43']).map((s) => ({
          ...s,
          name: 'A',
          add: 'B',
          pin: '400001',
          phone: '9',
          order: 'x',
        })),
        pickup_location: { name: 'Okhla' },
      }),
    });
    const response = await fetch(`${sim.baseUrl}${CREATE}`, {
      method: 'POST',
      headers: { authorization: `Token ${SIM_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const answer = (await response.json()) as { success: boolean; packages: { status: string; remarks: string[] }[] };
    expect(answer.success).toBe(false);
    expect(answer.packages.map((p) => [p.status, p.remarks[0]])).toEqual([
      ['Fail', 'Waybill 42 was not issued to this client'],
      ['Fail', 'Waybill 42 was not issued to this client'],
    ]);
    expect(sim.packages.has('42')).toBe(false);
  });

  it('answers the bulk call as Delhivery does: a JSON string of comma-separated waybills; a bad count is a 400', async () => {
    const get = (count: string) =>
      fetch(`${sim.baseUrl}${WAYBILLS}/?count=${count}`, { headers: { authorization: `Token ${SIM_TOKEN}` } });
    const response = await get('2');
    const body = await response.text();
    expect(body).toMatch(/^"\d+,\d+"$/);
    expect(readWaybills(JSON.parse(body))).toHaveLength(2);
    expect((await get('0')).status).toBe(400);
    expect((await get('10001')).status).toBe(400);
  });

  it('reads the waybill answer in each form clients meet', () => {
    expect(readWaybills('1490000000001,1490000000002')).toEqual(['1490000000001', '1490000000002']);
    expect(readWaybills(['1490000000001', 1490000000002])).toEqual(['1490000000001', '1490000000002']);
    expect(readWaybills({ waybills: '1490000000011, 1490000000012' })).toEqual(['1490000000011', '1490000000012']);
    expect(readWaybills('{"packages": [{"status": "Succ')).toEqual([]);
    expect(readWaybills('1490000000011\n1490000000012\n')).toEqual(['1490000000011', '1490000000012']);
    expect(readWaybills({ error: 'nope' })).toEqual([]);
    expect(readWaybills(null)).toEqual([]);
  });

  it('a tracking look-up of the cancelled boxes shows them cancelled (DTUP-210)', async () => {
    const request = mps({ boxes: BOXES.slice(0, 2) });
    const booked = await book(request);
    const before = sim.callsTo(EDIT).length;
    for (const box of booked.boxes!) await connector.cancel(service, box.awb);
    expect(sim.callsTo(EDIT).length).toBe(before + 2);
    const tracked = sim.callsTo(TRACK).length;
    // The next booking of the reference looks it up first and finds only cancelled boxes.
    await book(request);
    expect(sim.callsTo(TRACK).length).toBe(tracked + 1);
  });
});

describe('Delhivery MPS: a consignment taken in part', () => {
  it('cancels the boxes Delhivery took when it refused others, and says so in the refusal', async () => {
    const calls: { method: string; path: string; body?: unknown }[] = [];
    const stub = createDelhiveryConnector(
      { token: 't', baseUrl: 'http://stub', timeoutMs: 100, clock: { now: () => new Date() }, retryDelayMs: 1 },
      {
        async call(request) {
          calls.push({ method: request.method, path: request.path, body: request.json });
          if (request.path === '/waybill/api/bulk/json/') return '"1490000000901,1490000000902"';
          if (request.path === '/api/v1/packages/json/') return { Error: 'No such waybill or Order Id found' };
          if (request.path === '/api/p/edit') return { status: true, remark: 'Shipment has been cancelled.' };
          return {
            success: false,
            packages: [
              { status: 'Success', waybill: '1490000000901', remarks: [] },
              { status: 'Fail', waybill: '1490000000902', remarks: ['Package dimensions exceed the limit'] },
            ],
          };
        },
      },
    );
    await expect(
      stub.book(service, mps({ boxes: BOXES.slice(0, 2) }), async () => '', undefined as never),
    ).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [
        'Delhivery refused: Package dimensions exceed the limit; the boxes it had taken (1490000000901) were cancelled',
      ],
    });
    expect(calls.filter((c) => c.path === '/api/p/edit').map((c) => c.body)).toEqual([
      { waybill: '1490000000901', cancellation: 'true' },
    ]);
  });
});
