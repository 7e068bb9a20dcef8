import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { defaultRatesContext } from '../data-files.js';
import {
  startXpressbeesSimulator,
  XPRESSBEES_EMAIL,
  XPRESSBEES_PASSWORD,
  XPRESSBEES_COURIERS,
  type XpressbeesSimulator,
} from '../demo/simulators/xpressbees-simulator.js';
import type { Connector, Instruction } from './connector.js';
import { XPRESSBEES_NDR_SAMPLE } from './fixtures/xpressbees.fixtures.js';
import { createXpressbeesConnector } from './xpressbees.connector.js';

const surface = defaultRatesContext().catalogue.byId.get('CARXPBSSTD001')!;
const air = { ...surface, serviceLevel: 'air' as const };
const request = (reference: string, weightGrams: number, pincode = '400001') =>
  bookingRequest(reference, { weightGrams, consignee: { ...BUYER, pincode } });
const none = () => Promise.reject(new Error('an Xpressbees booking draws no AWB of ours'));

describe('xpressbees connector: the product booked, and NDR actions, against the simulator', () => {
  let sim: XpressbeesSimulator;
  let connector: Connector;
  const bookedOn = async (weightGrams: number, service = surface, pincode?: string) => {
    const reference = `XB-${service.serviceLevel}-${weightGrams}-${pincode ?? ''}`;
    await connector.book(service, request(reference, weightGrams, pincode), none, undefined as never);
    const shipment = [...sim.shipments.values()].find((s) => s.body.order_number === reference)!;
    return shipment.body.courier_id;
  };

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

  it('books the slab that holds the parcel among the account’s real products, listed with Express Reverse first among those without Air', async () => {
    // The rule this replaces, "the first name without Air", would book the reverse product.
    expect(XPRESSBEES_COURIERS.find((c) => !/\bair\b/i.test(c.name))).toEqual({ id: '8', name: 'Express Reverse' });
    expect(await bookedOn(500)).toBe('1');
    expect(JSON.parse(sim.callsTo('/api/courier/serviceability').at(-1)!.body)).toMatchObject({ weight: '500' });
    expect(await bookedOn(800)).toBe('12298');
    expect(await bookedOn(1800)).toBe('2');
    expect(await bookedOn(4200)).toBe('3');
    expect(await bookedOn(9000)).toBe('4');
    expect(await bookedOn(14_000)).toBe('4');
    expect(await bookedOn(500, air)).toBe('6');
  });

  it('refuses with a 422 naming what was offered when the lane has no product of the service’s level', async () => {
    // Pincodes starting 18: the simulator offers no air product there.
    await expect(bookedOn(500, air, '180001')).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [
        'Xpressbees refused: no air product among those offered (Express Reverse, Surface Xpressbees 0.5 K.G, Xpressbees 1 K.G, Xpressbees 10 K.G, Xpressbees 2 K.G, Xpressbees 5 K.G, Xpressbees Next Day Delivery, Xpressbees Same Day Delivery) to pincode 180001',
      ],
    });
  });

  it('names the consignee in an address change, as Xpressbees’ own sample does, when the instruction carries the name', async () => {
    await bookedOn(500, surface, '400002');
    const awb = [...sim.shipments.values()].at(-1)!.awb;
    const instruction: Instruction & { consigneeName: string } = {
      action: 'reattempt',
      at: new Date('2026-11-20T06:30:00Z'),
      payload: { updated_address: { address_line: '14 Marine Drive, Flat 3', landmark: 'Opposite the Oval' } },
      consigneeName: 'Asha Menon',
    };
    await connector.instruct(surface, awb, instruction);
    const sent = sim.ndrActions.filter((a) => a.awb === awb);
    expect(sent).toEqual([
      { awb, action: 're-attempt', action_data: { re_attempt_date: '2026-11-21' } },
      {
        awb,
        action: 'change_address',
        action_data: { name: 'Asha Menon', address_1: '14 Marine Drive, Flat 3', address_2: 'Opposite the Oval' },
      },
    ]);
    // The shape of each action is the one Xpressbees published.
    const sample = XPRESSBEES_NDR_SAMPLE.map((a) => [a.action, Object.keys(a.action_data).sort()]);
    expect(sent.map((a) => [a.action, Object.keys(a.action_data as object).sort()])).toEqual(sample);
  });
});
