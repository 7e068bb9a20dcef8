import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, bookingRequest } from '../../test/kit/booking-request.js';
import { openTestDatabase } from '../../test/databases.js';
import type { Database } from '../base/db/client.js';
import { defaultRatesContext } from '../data-files.js';
import { type Connector, courierRefused, type ParcelBox } from './connector.js';
import * as repo from './couriers.repository.js';
import { createCouriers } from './couriers.service.js';
import { createSandboxConnector } from './sandbox.connector.js';

// Linked multi-piece shipments on the sandbox, whose parcels are rows of ours (both engines): a
// parcel per box in the booking's executor, and the all-or-nothing cancellation.

const catalogue = defaultRatesContext().catalogue;
const service = catalogue.byId.get('CARDELHSURF01')!;
const clock = { now: () => new Date('2026-11-20T06:30:00Z') };
const BOXES: ParcelBox[] = [
  { weightGrams: 2000, lengthCm: 40, breadthCm: 30, heightCm: 20 },
  { weightGrams: 700, lengthCm: 20, breadthCm: 20, heightCm: 10 },
];

let database: Database;
let sandbox: Connector;
beforeAll(async () => {
  database = await openTestDatabase();
  sandbox = createSandboxConnector({
    db: database.db,
    clock,
    settings: { stepSeconds: 60, scenarioByDigit: Array(10).fill('delivered') },
  });
});
afterAll(async () => {
  await database?.close();
});

const couriersWith = (connector: Connector) =>
  createCouriers({ db: database.db, clock, catalogue, connectors: new Map([[service.id, connector]]) });
const request = (reference: string, boxes = BOXES) =>
  bookingRequest(reference, { consignee: { ...BUYER, phone: '9123456780' }, weightGrams: 2700, boxes });

describe('linked shipments on the sandbox', () => {
  it('books a sandbox parcel per box, box n under <reference>-<n>, box 1 the master', async () => {
    const booked = await couriersWith(sandbox).book(database.db, 'acct', service, request('shp-linked-1'));
    expect(booked.boxes!.map((b) => b.reference)).toEqual(['shp-linked-1', 'shp-linked-1-2']);
    expect(booked.awb).toBe(booked.boxes![0]!.awb);
    expect(booked.testMode).toBe(true);
    const rows = await repo.findSandboxParcels(
      database.db,
      service.id,
      booked.boxes!.map((b) => b.awb),
    );
    expect(rows.map((r) => r.reference).sort()).toEqual(['shp-linked-1', 'shp-linked-1-2']);
    expect(rows.every((r) => r.cancelledAt === null)).toBe(true);
  });

  it('box 3 refused: boxes 1 and 2 are cancelled through the connector, and the refusal is thrown', async () => {
    const booked: string[] = [];
    const failingThird: Connector = {
      ...sandbox,
      async book(s, r, draw, ex) {
        if (r.reference.endsWith('-3')) throw courierRefused(s.name, 'box 3 is too big');
        const parcel = await sandbox.book(s, r, draw, ex);
        booked.push(parcel.awb);
        return parcel;
      },
    };
    const boxes = [...BOXES, { weightGrams: 500, lengthCm: 10, breadthCm: 10, heightCm: 10 }];
    await expect(
      couriersWith(failingThird).book(database.db, 'acct', service, request('shp-linked-2', boxes)),
    ).rejects.toMatchObject({ code: 'courier_refused', messages: [`${service.name} refused: box 3 is too big`] });
    expect(booked).toHaveLength(2);
    const rows = await repo.findSandboxParcels(database.db, service.id, booked);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.cancelledAt !== null)).toBe(true);
  });

  it('callOff of a stored-nothing booking cancels every box', async () => {
    const couriers = couriersWith(sandbox);
    const booked = await couriers.book(database.db, 'acct', service, request('shp-linked-3'));
    await couriers.callOff('acct', { service, awb: booked.awb, journey: 'forward', boxes: booked.boxes! }, false);
    const rows = await repo.findSandboxParcels(
      database.db,
      service.id,
      booked.boxes!.map((b) => b.awb),
    );
    expect(rows.every((r) => r.cancelledAt !== null)).toBe(true);
  });
});
