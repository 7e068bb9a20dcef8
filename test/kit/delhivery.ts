import { createTestApp, type TestContext, type TestClock } from '../app.js';
import { DELHIVERY_SURFACE, ratesWith } from './couriers.js';
import { createWarehouse } from './warehouses.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../../src/demo/simulators/delhivery-simulator.js';

/** India time without an offset, `ms` after `base`, as Delhivery stamps scans. */
export const india = (base: Date, ms = 0) => new Date(base.getTime() + ms + 330 * 60_000).toISOString().slice(0, 19);

/** One of Delhivery's ScanDetail records, as its tracking answer carries them. */
export const delhiveryScan = (
  ScanType: string,
  Scan: string,
  StatusCode: string,
  ScanDateTime: string,
  Instructions: string,
  ScannedLocation = 'Delhi_DLEIndustrialArea_D (Delhi)',
) => ({ ScanType, Scan, StatusCode, ScanDateTime, Instructions, ScannedLocation });

/**
 * An app whose Delhivery Surface books through a local simulator of Delhivery's API that keeps
 * `clock`'s time, an account and its warehouse; `close` ends both the app and the simulator.
 */
export async function delhiveryMerchant(clock: TestClock): Promise<{
  sim: DelhiverySimulator;
  ctx: TestContext;
  apiKey: string;
  warehouseId: string;
  close(): Promise<void>;
}> {
  const sim = await startDelhiverySimulator({ now: () => clock.now().getTime() });
  const ctx = await createTestApp({
    clock,
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
    settings: {
      couriers: { delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl }, timeoutMs: 2000, pollSeconds: 60 },
    },
  });
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey);
  return {
    sim,
    ctx,
    apiKey,
    warehouseId,
    async close() {
      await ctx.close();
      await sim.close();
    },
  };
}
