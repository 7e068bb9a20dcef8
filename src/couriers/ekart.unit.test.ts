import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EKART_CLIENT,
  EKART_PASSWORD,
  EKART_USER,
  type EkartSimulator,
  startEkartSimulator,
} from '../demo/simulators/ekart-simulator.js';
import { defaultRatesContext } from '../data-files.js';
import type { Connector } from './connector.js';
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
