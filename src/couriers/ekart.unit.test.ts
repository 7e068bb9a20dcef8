import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingRequest } from '../../test/kit/booking-request.js';
import {
  EKART_CLIENT,
  EKART_PASSWORD,
  EKART_USER,
  type EkartSimulator,
  startEkartSimulator,
} from '../demo/simulators/ekart-simulator.js';
import { defaultRatesContext } from '../data-files.js';
import type { BookingRequest, Connector } from './connector.js';
import { createEkartConnector } from './ekart.connector.js';

const service = defaultRatesContext().catalogue.byId.get('CAREKRTSTD001')!;
const MANIFEST = '/data/v2/generate/manifest';

describe('ekart connector: manifests of a pickup', () => {
  let sim: EkartSimulator;
  let connector: Connector;

  beforeAll(async () => {
    sim = await startEkartSimulator();
    const settings = {
      clientId: EKART_CLIENT,
      username: EKART_USER,
      password: EKART_PASSWORD,
      baseUrl: sim.baseUrl,
      timeoutMs: 2000,
    };
    connector = createEkartConnector({ ...settings, clock: { now: () => new Date('2026-11-20T06:30:00Z') } });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('asks for no manifest on the pickup request made with a booking, which names no parcels', async () => {
    expect(
      await connector.requestPickup(service, { locationName: 'Okhla', date: '2026-11-20', parcels: 1 }),
    ).toBeNull();
    expect(sim.callsTo(MANIFEST)).toHaveLength(0);
  });

  it('manifests a pickup of more than 100 parcels 100 at a time, and answers every manifest number', async () => {
    const awbs = Array.from({ length: 150 }, (_, i) => `500999A${String(9_000_000 + i)}`);
    for (const id of awbs) sim.packages.set(id, { trackingId: id, body: {}, details: [], cancelled: false });
    const reference = await connector.requestPickup(service, {
      locationName: 'Okhla',
      date: '2026-11-20',
      parcels: awbs.length,
      awbs,
    });
    expect(sim.manifests.map((m) => m.ids)).toEqual([awbs.slice(0, 100), awbs.slice(100)]);
    expect(reference).toBe(sim.manifests.map((m) => m.manifestNumber).join(', '));
  });
});

const warehouse = {
  name: 'Ravi Kumar',
  address: 'Plot 14, Okhla Phase III',
  city: 'New Delhi',
  state: 'Delhi',
  pincode: '110001',
  phone: '+919876543210',
};
const request = (reference: string, locationName: string, address = warehouse.address) =>
  bookingRequest(reference, { pickup: { ...warehouse, address, locationName } });
const none = () => Promise.reject(new Error('an Ekart booking draws no AWB of ours'));
const CREATE = '/api/v1/package/create';
const ADDRESS = '/api/v2/address';

describe('ekart connector: a warehouse Ekart has no address for (E2)', () => {
  let sim: EkartSimulator;
  let connector: Connector;
  const book = (r: BookingRequest) => connector.book(service, r, none, undefined as never);
  const createsOf = (reference: string) => sim.callsTo(CREATE).filter((c) => c.body.includes(`"${reference}"`));

  beforeAll(async () => {
    sim = await startEkartSimulator({ aliases: ['Registered Depot'] });
    connector = createEkartConnector({
      clientId: EKART_CLIENT,
      username: EKART_USER,
      password: EKART_PASSWORD,
      baseUrl: sim.baseUrl,
      timeoutMs: 2000,
      retryDelayMs: 1,
      clock: { now: () => new Date() },
    });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('books at once from a warehouse whose alias Ekart has, registering nothing', async () => {
    const booked = await book(request('EK-E2-1', 'Registered Depot'));
    expect(booked.awb).toMatch(/^500999A/);
    expect(createsOf('EK-E2-1')).toHaveLength(1);
    expect(sim.callsTo(ADDRESS)).toHaveLength(0);
  });

  it('registers the warehouse under its name when the create answers 404 SWIFT_RESOURCE_NOT_FOUND_EXCEPTION, and creates once more', async () => {
    const booked = await book(request('EK-E2-2', 'Okhla Fulfilment Centre'));
    expect(booked.awb).toMatch(/^500999A/);
    expect(createsOf('EK-E2-2')).toHaveLength(2);
    expect(sim.callsTo(ADDRESS).map((c) => JSON.parse(c.body))).toEqual([
      {
        alias: 'Okhla Fulfilment Centre',
        phone: 9876543210,
        address_line1: 'Plot 14, Okhla Phase III',
        address_line2: '',
        pincode: 110001,
        city: 'New Delhi',
        state: 'Delhi',
        country: 'India',
      },
    ]);
    // Ekart_API.yaml's `location`: every field it requires, of the types it names.
    const [sent] = sim.callsTo(ADDRESS).map((c) => JSON.parse(c.body) as Record<string, unknown>);
    expect(typeof sent!.phone).toBe('number');
    expect(typeof sent!.pincode).toBe('number');
    expect(sim.addressesOf(EKART_CLIENT).has('Okhla Fulfilment Centre')).toBe(true);
    // The next booking from it goes at once.
    await book(request('EK-E2-3', 'Okhla Fulfilment Centre'));
    expect(createsOf('EK-E2-3')).toHaveLength(1);
    expect(sim.callsTo(ADDRESS)).toHaveLength(1);
  });

  it('registers once for bookings from one warehouse sent together', async () => {
    const calls = sim.callsTo(ADDRESS).length;
    const booked = await Promise.all(['EK-E2-4', 'EK-E2-5'].map((ref) => book(request(ref, 'Manesar Hub'))));
    expect(new Set(booked.map((b) => b.awb)).size).toBe(2);
    expect(sim.callsTo(ADDRESS).length - calls).toBe(1);
  });

  it('answers a 422 naming the warehouse when Ekart refuses to register it, with nothing booked', async () => {
    const packages = sim.packages.size;
    await expect(book(request('EK-E2-6', 'Kiosk', 'Shed 4'))).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [
        "Ekart refused: the warehouse 'Kiosk' is not registered at Ekart as a pickup address: Ekart refused to register it: Invalid request: address_line1 must have at least 10 characters",
      ],
      details: [{ field: 'warehouse_id' }],
    });
    expect(createsOf('EK-E2-6')).toHaveLength(1);
    expect(sim.packages.size).toBe(packages);
  });

  it('answers a 502 with nothing booked when the registration cannot reach Ekart', async () => {
    sim.failNext(ADDRESS, '500');
    await expect(book(request('EK-E2-7', 'Sonipat Store'))).rejects.toMatchObject({
      code: 'courier_unreachable',
      messages: ['Ekart could not be reached (HTTP 500); nothing was changed, try again'],
    });
    expect(createsOf('EK-E2-7')).toHaveLength(1);
  });
});

describe('ekart connector: a 401 that a new token does not cure (E3)', () => {
  it('reports the credentials at once when Ekart’s token call answers the token it refused, and calls no more', async () => {
    const sim = await startEkartSimulator({ aliases: ['Registered Depot'] });
    try {
      const connector = createEkartConnector({
        clientId: EKART_CLIENT,
        username: EKART_USER,
        password: EKART_PASSWORD,
        baseUrl: sim.baseUrl,
        timeoutMs: 2000,
        retryDelayMs: 1,
        clock: { now: () => new Date() },
      });
      await connector.cancel(service, 'nothing-yet').catch(() => undefined);
      sim.refuseCalls();
      const before = sim.requests.length;
      await expect(connector.cancel(service, '500999A0000001')).rejects.toMatchObject({
        code: 'courier_credentials_rejected',
        messages: [
          "Ekart could not be reached (it refused our token (HTTP 401), and its token call answers that same token again (Ekart keeps a token for 24 hours); the operator must check EKART_CLIENT_ID, EKART_USERNAME and EKART_PASSWORD, and that the account's API access is enabled at Ekart); nothing was changed, try again",
        ],
      });
      // The cancel, the token call (its cached token again), and nothing more.
      expect(sim.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
        'DELETE /api/v1/package/cancel',
        `POST /integrations/v2/auth/token/${EKART_CLIENT}`,
      ]);
      expect(sim.tokensIssued()).toBe(1);
      // Once Ekart gives the access back, the same token works again.
      sim.refuseCalls(EKART_CLIENT, false);
      sim.packages.set('500999A0000001', { trackingId: '500999A0000001', body: {}, details: [], cancelled: false });
      await connector.cancel(service, '500999A0000001');
      expect(sim.packages.get('500999A0000001')!.cancelled).toBe(true);
    } finally {
      await sim.close();
    }
  });
});
