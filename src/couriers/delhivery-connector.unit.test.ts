import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { type DelhiverySimulator, SIM_TOKEN, startDelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { defaultRatesContext } from '../data-files.js';
import type { Connector, Instruction } from './connector.js';
import { CourierCallError } from './courier-http.js';
import { createDelhiveryConnector } from './delhivery.connector.js';

// The connector's calls against the simulator, which answers as other teams saw Delhivery answer
// (src/demo/simulators/delhivery-sim-answers.ts cites each): D5 to D8 of connector-fidelity.md.

const service = defaultRatesContext().catalogue.byId.get('CARDELHSURF01')!;
const EDIT = '/api/p/edit';
const UPDATE = '/api/p/update';
const PICKUP = '/fm/request/new';
const TRACK = '/api/v1/packages/json';

let now = Date.parse('2026-11-20T06:30:00.000Z');
const clock = { now: () => new Date(now) };
const address = { ...BUYER, phone: '9123456780' };
let orders = 0;
const request = () => {
  orders += 1;
  return bookingRequest(`shp-${orders}`, {
    merchantOrderId: `ORD-${orders}`,
    consignee: address,
    pickup: { ...address, locationName: 'Okhla Hub' },
    orderDate: new Date(now),
  });
};
/** A re-attempt; `courier_code` and `attempt` stand for the facts the dispatch hands over (the last NDR scan's id, its attempt). */
const reattempt = ({
  courier_code,
  attempt,
  ...payload
}: Record<string, unknown> & { courier_code?: string; attempt?: number } = {}): Instruction => ({
  action: 'reattempt',
  at: new Date(now),
  payload,
  ...(attempt !== undefined && { attempt }),
  ...(courier_code !== undefined && { ndrScanId: `dlv:${courier_code}:2026-11-20T18:42:10` }),
});
const scan = (ScanType: string, Scan: string, StatusCode: string, ScanDateTime: string, Instructions = '') => ({
  ScanType,
  Scan,
  StatusCode,
  ScanDateTime,
  Instructions,
  ScannedLocation: 'Mumbai_Andheri_DC (Maharashtra)',
});
const failedAttempt = (code: string) => [
  scan('UD', 'In Transit', 'X-PPOM', '2026-11-20T12:10:00', 'Shipment picked up'),
  scan('UD', 'Dispatched', 'X-DDD3FD', '2026-11-20T12:20:00', 'Out for delivery'),
  scan('UD', 'Pending', code, '2026-11-20T12:26:00'),
];

let sim: DelhiverySimulator;
let connector: Connector;
const book = async () => (await connector.book(service, request(), async () => '', undefined as never)).awb;

beforeAll(async () => {
  sim = await startDelhiverySimulator({ now: () => now });
  connector = createDelhiveryConnector({
    token: SIM_TOKEN,
    baseUrl: sim.baseUrl,
    timeoutMs: 2000,
    clock,
    retryDelayMs: 10,
  });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(() => {
  sim.answerEditsInXml(false);
});

describe('D5: cancellations answered in JSON or XML', () => {
  it('cancels before pickup in either form, a second time as the first, and tracking then shows DTUP-210', async () => {
    const awb = await book();
    await expect(connector.cancel(service, awb)).resolves.toBeUndefined();
    expect(sim.callsTo(EDIT).at(-1)!.body).toBe(JSON.stringify({ waybill: awb, cancellation: 'true' }));
    // Delhivery answers XML (captures 5 and 7): the same cancellation again, in XML, is done too.
    sim.answerEditsInXml();
    const calls = sim.callsTo(EDIT).length;
    await expect(connector.cancel(service, awb)).resolves.toBeUndefined();
    expect(sim.callsTo(EDIT)).toHaveLength(calls + 1);
    const scans = (await connector.pull(service, [{ awb, journey: 'forward' }])).get(awb)!;
    expect(scans.unread).toEqual([]);
    expect(scans.events.map((e) => [e.status, e.sub_status, e.description])).toEqual([
      ['pending', 'pickup_failed', 'Shipment not received from client'],
      ['cancelled', 'cancelled_by_merchant', 'Seller cancelled the order'],
    ]);
  });

  it('says why in Delhivery’s words when it refuses, in XML', async () => {
    const awb = await book();
    sim.scan(
      awb,
      scan('UD', 'In Transit', 'X-PPOM', '2026-11-20T12:10:00'),
      scan('DL', 'Delivered', 'EOD-38', '2026-11-20T12:25:00'),
    );
    sim.answerEditsInXml();
    await expect(connector.cancel(service, awb)).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Delhivery refused: could not cancel: Shipment is already delivered'],
    });
    await expect(connector.changeAddress!(service, awb, '14 Marine Drive')).rejects.toMatchObject({
      code: 'courier_refused',
      messages: ['Delhivery refused: could not change the address: Edit not allowed in current status'],
    });
  });

  it('returns a parcel to origin and changes an address through the XML answer', async () => {
    const awb = await book();
    sim.answerEditsInXml();
    await expect(connector.changeAddress!(service, awb, '14 Marine Drive')).resolves.toBeUndefined();
    expect(sim.packages.get(awb)!.shipment.add).toBe('14 Marine Drive');
    sim.scan(awb, ...failedAttempt('EOD-11'));
    await expect(
      connector.instruct(service, awb, { action: 'rto', at: new Date(now), payload: {} }),
    ).resolves.toBeUndefined();
    expect(sim.packages.get(awb)!.cancelled).toBe(true);
  });

  it('retries an answer that is neither, then answers 502', async () => {
    const awb = await book();
    sim.failNext(EDIT, 'malformed', 2);
    await expect(connector.cancel(service, awb)).rejects.toMatchObject({ code: 'courier_unreachable' });
  });
});

describe('D6: re-attempts queued, confirmed by their UPL', () => {
  it('sends RE-ATTEMPT, resolves pending with the UPL, and confirms it done', async () => {
    const awb = await book();
    sim.scan(awb, ...failedAttempt('EOD-11'));
    const sent = await connector.instruct(service, awb, reattempt());
    expect(sent).toEqual({ pending: sim.uplIds().at(-1) });
    expect(sim.updates.at(-1)).toEqual({ waybill: awb, act: 'RE-ATTEMPT' });
    expect(sim.callsTo(UPDATE).at(-1)!.body).toBe(JSON.stringify({ data: [{ waybill: awb, act: 'RE-ATTEMPT' }] }));
    expect(await connector.confirmInstruction!(service, (sent as { pending: string }).pending)).toBe('done');
    const [status] = sim.callsTo(`/api/cmu/get_bulk_upl/${(sent as { pending: string }).pending}`);
    expect(status!.query.get('verbose')).toBe('true');
  });

  it('sends the merchant’s date as a deferred delivery', async () => {
    const awb = await book();
    sim.scan(awb, ...failedAttempt('EOD-3'));
    const sent = (await connector.instruct(service, awb, reattempt({ reattempt_date: '2026-11-23' }))) as {
      pending: string;
    };
    expect(sim.updates.at(-1)).toEqual({
      waybill: awb,
      act: 'DEFER_DLV',
      action_data: { deferred_date: '2026-11-23' },
    });
    expect(await connector.confirmInstruction!(service, sent.pending)).toBe('done');
  });

  it('hands on Delhivery’s refusal of a queued re-attempt, in its words', async () => {
    const awb = await book();
    // EOD-3 (rescheduled by the buyer) is not a code Delhivery re-attempts after; without the
    // parcel's last code in the instruction, only the UPL tells.
    sim.scan(awb, ...failedAttempt('EOD-3'));
    const sent = (await connector.instruct(service, awb, reattempt())) as { pending: string };
    expect(await connector.confirmInstruction!(service, sent.pending)).toEqual({
      refused: 'Package in incorrect status',
    });
    expect(await connector.confirmInstruction!(service, 'UPL0')).toEqual({
      refused: 'Delhivery does not know the request UPL0',
    });
  });

  it('refuses up front what Delhivery would refuse, when the instruction names the code and attempt', async () => {
    const awb = await book();
    sim.scan(awb, ...failedAttempt('EOD-3'));
    const calls = sim.callsTo(UPDATE).length;
    await expect(
      connector.instruct(service, awb, reattempt({ courier_code: 'EOD-3', attempt: 1 })),
    ).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [
        "Delhivery refused: it reattempts only after a failed attempt coded EOD-74, EOD-15, EOD-104, EOD-43, EOD-86, EOD-11, EOD-69 or EOD-6, and this parcel's last was EOD-3",
      ],
    });
    await expect(
      connector.instruct(service, awb, reattempt({ courier_code: 'EOD-11', attempt: 3 })),
    ).rejects.toMatchObject({
      code: 'courier_refused',
      messages: [
        "Delhivery refused: it reattempts only after a parcel's first or second failed attempt, and this parcel has had 3",
      ],
    });
    expect(sim.callsTo(UPDATE)).toHaveLength(calls);
  });
});

describe('D7: the WAF’s 403 is throttling', () => {
  it('reads a 403 on tracking as a limit of 30 s, and calls Delhivery no more until then', async () => {
    const awb = await book();
    sim.limitRate({ requests: 1, windowMs: 300_000, now: () => now });
    try {
      await connector.pull(service, [{ awb, journey: 'forward' }]);
      const limited = await connector.pull(service, [{ awb, journey: 'forward' }]).catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(CourierCallError);
      expect(limited).toMatchObject({ kind: 'rate_limited', status: 403, retryAfterMs: 30_000 });
      const calls = sim.callsTo(TRACK).length;
      // Held back without a call, and still told as throttled.
      await expect(connector.pull(service, [{ awb, journey: 'forward' }])).rejects.toMatchObject({
        kind: 'rate_limited',
        status: undefined,
      });
      expect(sim.callsTo(TRACK)).toHaveLength(calls);
      now += 30_000;
      await expect(connector.pull(service, [{ awb, journey: 'forward' }])).rejects.toMatchObject({
        kind: 'rate_limited',
      });
      now += 270_000;
      expect((await connector.pull(service, [{ awb, journey: 'forward' }])).has(awb)).toBe(true);
    } finally {
      sim.limitRate();
    }
  });
});

describe('D8: one open pickup request per location', () => {
  it('answers the open request for a second one, and nothing for an account on auto pickup', async () => {
    sim.keepPickupsOpen();
    try {
      const pickup = { locationName: 'Okhla Hub', date: '2026-11-21', parcels: 2 };
      const first = await connector.requestPickup(service, pickup);
      expect(await connector.requestPickup(service, { ...pickup, parcels: 5 })).toBe(first);
      expect(
        sim
          .callsTo(PICKUP)
          .slice(-2)
          .map((r) => JSON.parse(r.body).expected_package_count),
      ).toEqual([2, 5]);
      sim.autoPickup();
      expect(await connector.requestPickup(service, { ...pickup, date: '2026-11-22' })).toBeNull();
    } finally {
      sim.keepPickupsOpen(false);
      sim.autoPickup(false);
    }
  });
});

describe('Return journey: a reverse pickup booked through the same create call', () => {
  it('books it with payment_mode Pickup and reads its PP, PU and DTO scans as a return’s', async () => {
    const { awb } = await connector.book(
      service,
      { ...request(), journey: 'return' },
      async () => '',
      undefined as never,
    );
    expect(sim.packages.get(awb)!.shipment.payment_mode).toBe('Pickup');
    // Combinations [s3] maps and remarks [s4] gives (fixtures/delhivery/codes.json, "return").
    sim.scan(
      awb,
      scan('PP', 'Open', 'X-UCO', '2026-11-20T12:01:00', 'Received soft data for consignment'),
      scan('PP', 'Scheduled', 'X-ASP', '2026-11-20T12:02:00', 'Auto scheduled'),
      scan('PP', 'Dispatched', 'X-DDD3FP', '2026-11-21T10:00:00', 'Out for pickup'),
      scan('PP', 'Scheduled', 'EOD-26', '2026-11-21T13:00:00', 'Consignee unavailable'),
      scan('PP', 'Dispatched', 'X-DDD3FP', '2026-11-22T10:00:00', 'Out for pickup'),
      scan('PU', 'In Transit', 'EOD-77', '2026-11-22T11:00:00', 'DTO/REPL: Pick Up Completed'),
      scan('PU', 'In Transit', 'X-DLL2R', '2026-11-22T18:00:00', 'Added to IST'),
      scan('PU', 'Pending', 'X-IBD3R', '2026-11-23T09:00:00', 'Bag incoming at return city DC'),
      scan('PU', 'Dispatched', 'X-DRD1R', '2026-11-23T11:00:00', 'Dispatched for DTO'),
      scan('DL', 'DTO', 'RD-AC', '2026-11-23T15:00:00', 'RETURN Accepted'),
    );
    const read = (await connector.pull(service, [{ awb, journey: 'return' }])).get(awb)!;
    expect(read.unread).toEqual([]);
    expect(read.events.map((e) => [e.status, e.sub_status])).toEqual([
      ['return_pickup_scheduled', undefined],
      ['return_pickup_scheduled', undefined],
      ['return_pickup_scheduled', undefined],
      ['return_pickup_scheduled', 'return_pickup_failed'],
      ['return_pickup_scheduled', undefined],
      ['return_picked_up', 'return_picked_up'],
      ['return_in_transit', 'return_in_transit'],
      ['return_in_transit', 'return_reached_hub'],
      ['return_in_transit', 'return_out_for_delivery'],
      ['return_delivered', 'return_delivered'],
    ]);
  });

  it('reads a QC failure at the buyer’s door as a cancelled return in Delhivery’s words', async () => {
    const { awb } = await connector.book(
      service,
      { ...request(), journey: 'return' },
      async () => '',
      undefined as never,
    );
    sim.scan(
      awb,
      scan('PP', 'Dispatched', 'X-DDD3FP', '2026-11-21T10:00:00', 'Out for pickup'),
      scan('CN', 'Canceled', 'EOD-95', '2026-11-21T11:00:00', 'Damaged/Used product'),
    );
    const read = (await connector.pull(service, [{ awb, journey: 'return' }])).get(awb)!;
    expect(read.events.at(-1)).toMatchObject({
      status: 'return_cancelled',
      sub_status: 'qc_failed',
      qc_status: 'failed',
      qc_reason: 'Damaged/Used product',
    });
  });
});
