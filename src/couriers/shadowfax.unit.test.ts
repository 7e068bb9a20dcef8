import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHADOWFAX_TOKEN,
  type ShadowfaxSimulator,
  startShadowfaxSimulator,
} from '../demo/simulators/shadowfax-simulator.js';
import { defaultRatesContext } from '../data-files.js';
import type { BookingRequest, Connector } from './connector.js';
import { createShadowfaxConnector, errorWords } from './shadowfax.connector.js';

const service = defaultRatesContext().catalogue.byId.get('CARSHFXSTD001')!;
const address = {
  name: 'Asha Menon',
  address: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  pincode: '400001',
  phone: '+919123456780',
};
const request = (reference: string): BookingRequest => ({
  reference,
  journey: 'forward',
  merchantOrderId: `ORD-${reference}`,
  tags: [],
  paymentMethod: 'prepaid',
  codPaise: 0,
  totalPaise: 99_800,
  weightGrams: 500,
  lengthCm: 10,
  breadthCm: 10,
  heightCm: 10,
  productsDescription: 'Cotton Kurta',
  quantity: 1,
  consignee: address,
  pickup: { ...address, city: 'New Delhi', state: 'Delhi', pincode: '110001', locationName: 'Okhla' },
  orderDate: new Date('2026-11-20T06:30:00Z'),
});
const none = () => Promise.reject(new Error('a Shadowfax booking draws no AWB of ours'));

// Tracking one AWB alone (GET …/track/) is tested through the poller in shadowfax.test.ts, on both engines.
describe('shadowfax connector: tracking many', () => {
  let sim: ShadowfaxSimulator;
  let connector: Connector;

  beforeAll(async () => {
    sim = await startShadowfaxSimulator();
    connector = createShadowfaxConnector({
      token: SHADOWFAX_TOKEN,
      baseUrl: sim.baseUrl,
      timeoutMs: 2000,
      clock: { now: () => new Date('2026-11-20T06:30:00Z') },
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('asks POST /api/v4/clients/bulk_track/ for several, leaving out AWBs it does not answer', async () => {
    const { awb } = await connector.book(service, request('ref-2'), none, undefined as never);
    const scans = await connector.pull(service, [
      { awb, journey: 'forward' },
      { awb: 'SF000000000FPL', journey: 'forward' },
    ]);
    expect(JSON.parse(sim.requests.at(-1)!.body)).toEqual({ awb_numbers: [awb, 'SF000000000FPL'] });
    expect([...scans.keys()]).toEqual([awb]);
    expect(scans.get(awb)).toEqual({ events: [], unread: [] });
  });

  it('reads a tracking answer without tracking_details as unreadable, so the poller asks again later', async () => {
    sim.failNext('/api/v4/clients/bulk_track/', 'malformed');
    await expect(
      connector.pull(service, [
        { awb: 'A', journey: 'forward' },
        { awb: 'B', journey: 'forward' },
      ]),
    ).rejects.toMatchObject({ kind: 'malformed' });
  });
});

describe('Shadowfax error answers in one line', () => {
  it.each([
    [{ message: 'Failure', errors: 'Pincode 793001 is not serviceable' }, 'Pincode 793001 is not serviceable'],
    [
      {
        message: 'Failure',
        errors: {
          customer_details: { pincode: ['This field is required.'] },
          order_details: { cod_amount: ['Too high.'] },
        },
      },
      'customer_details.pincode: This field is required.; order_details.cod_amount: Too high.',
    ],
    [{ message: 'Failure', errors: ['First', 'First', 'Second'] }, 'First; Second'],
    [{ responseCode: 400, responseMsg: 'Order is already cancelled' }, 'Order is already cancelled'],
    [{ detail: 'Invalid token.' }, ''],
    [{ message: 'Failure' }, ''],
    ['<html>', ''],
  ])('%j reads "%s"', (body, words) => {
    expect(errorWords(body)).toBe(words);
  });
});
