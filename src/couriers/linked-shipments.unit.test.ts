import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { defaultRatesContext } from '../data-files.js';
import {
  startXpressbeesSimulator,
  XPRESSBEES_EMAIL,
  XPRESSBEES_PASSWORD,
  type XpressbeesSimulator,
} from '../demo/simulators/xpressbees-simulator.js';
import type { BookingRequest, Connector, ParcelBox } from './connector.js';
import { createCouriers } from './couriers.service.js';
import { boxReference, linkedBoxRequest } from './linked-boxes.js';
import { createXpressbeesConnector } from './xpressbees.connector.js';

// A multi-piece shipment on a courier without native MPS (issue 53): one linked parcel per box,
// booked through the connector's own booking against its simulator; all or nothing.

const catalogue = defaultRatesContext().catalogue;
const service = catalogue.byId.get('CARXPBSSTD001')!;
const BOXES: ParcelBox[] = [
  { weightGrams: 1500, lengthCm: 30, breadthCm: 20, heightCm: 15 },
  { weightGrams: 1000, lengthCm: 25, breadthCm: 20, heightCm: 10 },
  { weightGrams: 500, lengthCm: 20, breadthCm: 15, heightCm: 10 },
];
let n = 0;
const mps = (overrides: Partial<BookingRequest> = {}) => {
  n += 1;
  return bookingRequest(`1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4b${String(n).padStart(2, '0')}`, {
    consignee: { ...BUYER, phone: '9123456780' },
    paymentMethod: 'cod',
    codPaise: 300_000,
    totalPaise: 300_000,
    weightGrams: 3000,
    boxes: BOXES,
    ...overrides,
  });
};

let sim: XpressbeesSimulator;
let connector: Connector;
const warnings: object[] = [];
const couriersWith = (c: Connector) =>
  createCouriers({
    db: undefined as never,
    clock: { now: () => new Date() },
    catalogue,
    connectors: new Map([[service.id, c]]),
    log: { warn: (object) => void warnings.push(object) },
  });
const shipmentOf = (reference: string) => [...sim.shipments.values()].find((s) => s.body.order_number === reference);

beforeAll(async () => {
  sim = await startXpressbeesSimulator();
  connector = createXpressbeesConnector({
    email: XPRESSBEES_EMAIL,
    password: XPRESSBEES_PASSWORD,
    baseUrl: sim.baseUrl,
    timeoutMs: 2000,
    retryDelayMs: 1,
    clock: { now: () => new Date() },
  });
});
afterAll(async () => {
  await sim?.close();
});

describe('linked shipments on Xpressbees', () => {
  it('books a parcel per box: box 1 under the reference, box n under <reference>-<n>, each its weight and sizes', async () => {
    const request = mps();
    const booked = await couriersWith(connector).book(undefined as never, 'acct', service, request);
    const references = [request.reference, `${request.reference}-2`, `${request.reference}-3`];
    expect(booked.boxes!.map((b) => b.reference)).toEqual(references);
    expect(booked.awb).toBe(booked.boxes![0]!.awb);
    expect(new Set(booked.boxes!.map((b) => b.awb)).size).toBe(3);
    references.forEach((reference, i) => {
      const body = shipmentOf(reference)!.body;
      const box = BOXES[i]!;
      expect(shipmentOf(reference)!.awb).toBe(booked.boxes![i]!.awb);
      expect(body).toMatchObject({
        package_weight: box.weightGrams,
        package_length: box.lengthCm,
        package_breadth: box.breadthCm,
        package_height: box.heightCm,
      });
    });
    // The whole COD on box 1 with the order's value; the others prepaid, each its share by weight.
    expect(shipmentOf(references[0]!)!.body).toMatchObject({
      payment_type: 'cod',
      collectable_amount: 3000,
      order_amount: 3000,
    });
    expect(shipmentOf(references[1]!)!.body).toMatchObject({
      payment_type: 'prepaid',
      collectable_amount: 0,
      order_amount: 1000,
    });
    expect(shipmentOf(references[2]!)!.body).toMatchObject({
      payment_type: 'prepaid',
      collectable_amount: 0,
      order_amount: 500,
    });
  });

  it('all or nothing: box 3 refused, boxes 1 and 2 are cancelled and the refusal is thrown', async () => {
    // Box 3's COD over Xpressbees' ₹50,000 (the simulator's refusal): a box that cannot be booked.
    const refusedThird: Connector = {
      ...connector,
      book: (s, r, draw, ex) =>
        connector.book(
          s,
          r.reference.endsWith('-3') ? { ...r, paymentMethod: 'cod', codPaise: 6_000_000 } : r,
          draw,
          ex,
        ),
    };
    const request = mps();
    const cancels = sim.callsTo('/api/shipments2/cancel').length;
    await expect(couriersWith(refusedThird).book(undefined as never, 'acct', service, request)).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Xpressbees refused: Collectable amount can not be more than 50000'],
    });
    expect(shipmentOf(request.reference)!.cancelled).toBe(true);
    expect(shipmentOf(`${request.reference}-2`)!.cancelled).toBe(true);
    expect(shipmentOf(`${request.reference}-3`)).toBeUndefined();
    expect(sim.callsTo('/api/shipments2/cancel').length).toBe(cancels + 2);
  });

  it('a box whose cancellation is refused is logged, and the booking still fails with the box’s own failure', async () => {
    const refusing: Connector = {
      ...connector,
      book: (s, r, draw, ex) =>
        r.reference.endsWith('-2') ? Promise.reject(new Error('box 2 failed')) : connector.book(s, r, draw, ex),
      cancel: () => Promise.reject(new Error('already picked up')),
    };
    const request = mps();
    warnings.length = 0;
    await expect(couriersWith(refusing).book(undefined as never, 'acct', service, request)).rejects.toThrow(
      'box 2 failed',
    );
    expect(warnings).toEqual([
      expect.objectContaining({ awb: shipmentOf(request.reference)!.awb, reason: 'already picked up' }),
    ]);
  });

  it('a request of one box, or none, books one parcel under its own reference', async () => {
    const request = mps({ boxes: undefined, paymentMethod: 'prepaid', codPaise: 0 });
    const booked = await couriersWith(connector).book(undefined as never, 'acct', service, request);
    expect(booked.boxes).toBeUndefined();
    expect(shipmentOf(request.reference)!.awb).toBe(booked.awb);
  });
});

describe('linkedBoxRequest', () => {
  const request = mps({ productsDescription: 'Kurta, Dupatta', ewayBillNumber: '331234567890' });
  it('box 1 keeps the payment, the value and the return items; the others are prepaid with their share', () => {
    const items = [{ name: 'Kurta', sku: 'K1', units: 1, pricePaise: 300_000, qc: null }];
    const first = linkedBoxRequest({ ...request, items }, BOXES[0]!, 1, 3);
    expect(first).toMatchObject({
      reference: request.reference,
      paymentMethod: 'cod',
      codPaise: 300_000,
      totalPaise: 300_000,
      weightGrams: 1500,
      productsDescription: 'Box 1 of 3: Kurta, Dupatta',
      ewayBillNumber: '331234567890',
      items,
    });
    expect('boxes' in first).toBe(false);
    const third = linkedBoxRequest({ ...request, items }, BOXES[2]!, 3, 3);
    expect(third).toMatchObject({
      reference: `${request.reference}-3`,
      paymentMethod: 'prepaid',
      codPaise: 0,
      totalPaise: 50_000,
    });
    expect('items' in third).toBe(false);
    expect('boxes' in third).toBe(false);
  });

  it('declares at least ₹1 for a box, and names each reference within 39 characters for 20 boxes', () => {
    const tiny = linkedBoxRequest({ ...request, totalPaise: 100 }, BOXES[2]!, 2, 3);
    expect(tiny.totalPaise).toBe(100);
    expect(boxReference(request.reference, 20)).toHaveLength(39);
    expect(boxReference(request.reference, 1)).toBe(request.reference);
  });
});
